"""Parameters several experiments share, declared once."""
from __future__ import annotations

from models.core.params import Param

DEVICES = ("HDD10K", "HDD15K", "SSD")


def device_param(default: str = "HDD15K", choices: tuple = DEVICES) -> Param:
    return Param(
        "device", "choice", default, choices=choices, group="volume", label="Drives",
        help="What sits behind the emulated 3390 volume: 10K or 15K RPM disks "
             "(seek plus rotation on every miss) or SSD (no seek, no rotation)."
             + (" 3390 uses the native geometry and timing of the original "
                "3390 (4,224 RPM)." if "3390" in choices else ""))


def protocol_param(default: str = "zHPF", lpo: bool = True) -> Param:
    extra = (" With zHPF the control unit's List Prefetch Optimizer sees the "
             "whole page list of an I/O at once." if lpo else "")
    return Param(
        "protocol", "choice", default, choices=("FICON", "zHPF"), group="channel",
        label="Channel protocol",
        help="FICON command mode sends a Locate Record and a Read per "
             "discontiguous page, handled one at a time; zHPF sends one "
             "transport command word with the whole address list." + extra)


def table_pages_param(default: int, lo: int = 1000) -> Param:
    return Param("table_pages", "int", default, unit="pages", min=lo, max=100_000_000,
                 group="dataset", label="Table space size",
                 help="Size of the table space in 4 KB pages (12 per 3390 track).")
