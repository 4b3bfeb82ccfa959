"""Metrics and RMF-style tables common to both spool programs."""
from __future__ import annotations

from dataclasses import dataclass, field

from models.core.run import Table
from models.spool.costs import Cpu
from models.spool import volume as spool_volume
from models.spool.volume import SpoolVolume
from models.tape import TapeDrive


@dataclass
class Outcome:
    """What one dump or load run measured."""

    program: str
    elapsed_s: float
    idle_s: float
    pages: int
    files: int
    volumes: list[SpoolVolume]
    drives: list[TapeDrive]
    cpu: Cpu
    buffer_pages: int = 0
    buffer_peak: int = 0
    notes: list[str] = field(default_factory=list)
    #: DASD channel paths drawn to the spool volumes (names).
    dasd_paths: tuple = ()


def cartridges_used(drive: TapeDrive) -> int:
    """Cartridges that hold data (an empty one left mounted does not count)."""
    return drive.cartridges - (0 if drive.cartridge.used_inches > 0 else 1)


def metrics(out: Outcome) -> dict[str, float]:
    """The seven published metrics."""
    change = sum(d.change_s for d in out.drives)
    overlap = 100.0 * (1.0 - out.idle_s / change) if change > 0 else 0.0
    return {
        "elapsed_s": out.elapsed_s,
        "tape_change_s": change,
        "system_idle_s": out.idle_s,
        "overlap_pct": max(0.0, overlap),
        "tapes": float(sum(cartridges_used(d) for d in out.drives)),
        "cpu_s": out.cpu.us / 1e6,
        "pages_per_s": out.pages / out.elapsed_s if out.elapsed_s > 0 else 0.0,
    }


def component_figures(out: Outcome) -> dict:
    """Per component (canvas label): volumes' I/O rate and busy share, tape
    drives' busy share."""
    t = max(out.elapsed_s, 1e-12)
    figs = {v.name: {"io_rate": v.ios / t, "busy_pct": 100.0 * v.busy_s / t}
            for v in out.volumes}
    figs.update({d.name: {"busy_pct": min(100.0, 100.0 * d.busy_s / t)} for d in out.drives})
    # Tape channels: the blocks they moved (drives on one CHPID share it).
    for ch in {d.channel.name: d.channel for d in out.drives}.values():
        figs[ch.name] = {"utilization_pct": min(100.0, 100.0 * ch.busy_s / t)}
    # DASD paths: each page I/O's start and record transfer, spread over the
    # paths drawn to the volumes' control unit (accounted; with one 3390
    # I/O at a time per volume they never limit the dump).
    if out.dasd_paths:
        per_io = spool_volume.DASD_START_S + spool_volume.RECORD_S
        connect = sum(v.ios for v in out.volumes) * per_io
        share = 100.0 * connect / len(out.dasd_paths) / t
        for name in out.dasd_paths:
            figs[name] = {"utilization_pct": min(100.0, share)}
    return figs


def tables(out: Outcome) -> tuple[Table, ...]:
    """Device activity for spool volumes and tape drives, and CPU by component."""
    t = max(out.elapsed_s, 1e-12)
    vols = tuple((v.name, v.ios, round(100 * v.busy_s / t, 1),
                  round(1000 * v.busy_s / v.ios, 2) if v.ios else 0.0, v.seeks)
                 for v in out.volumes)
    drives = tuple((d.name, cartridges_used(d), d.blocks, d.marks,
                    round(d.bytes / 1e6, 1), d.changes, round(d.change_s, 1))
                   for d in out.drives)
    return (
        Table("Spool volume activity (3390-2)",
              ("volume", "I/Os", "busy %", "ms per I/O", "seeks"), vols,
              note=f"{out.program}: {out.files} files, {out.pages} pages"),
        Table("Tape drive activity (3490)",
              ("drive", "cartridges", "blocks", "tape marks", "MB", "changes", "change s"),
              drives, note=(f"buffer {out.buffer_pages} pages, peak {out.buffer_peak}"
                            if out.buffer_pages else "")),
        out.cpu.close().table(),
    )
