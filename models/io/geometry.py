"""3390 count-key-data geometry: cells, records per track, models, CCHHR.

A 3390 track holds 1729 cells of 34 bytes. A record's cell count comes from
the device's arithmetic (IBM 3390 reference, "track capacity" formulas):

* unkeyed, data length DL: ``10 + 9 + ceil((DL + 6*ceil((DL+6)/232) + 6)/34)``
* a key of length KL adds ``9 + ceil((KL + 6*ceil((KL+6)/232) + 6)/34)``

Everything here is exact integer arithmetic; timing lives with the devices.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

CELLS_PER_TRACK = 1729
CELL_BYTES = 34
TRACKS_PER_CYLINDER = 15
TRACK_CAPACITY = 56664          # bytes in one unkeyed record filling a track
MAX_BLOCK = 32760               # largest block z/OS access methods write
PAGE_BYTES = 4096

#: Cylinders per 3390 model.
MODELS = {"3390-1": 1113, "3390-2": 2226, "3390-3": 3339, "3390-9": 10017,
          "3390-27": 32760, "3390-54": 65520}

#: The original 3390 spun at about 4,224 RPM (14.2 ms a turn).
NATIVE_RPM = 4224.0


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _field_cells(length: int) -> int:
    return _ceil_div(length + 6 * _ceil_div(length + 6, 232) + 6, CELL_BYTES)


@lru_cache(maxsize=4096)
def record_cells(data_len: int, key_len: int = 0) -> int:
    """Cells one record of ``data_len`` bytes (and ``key_len`` key) occupies."""
    if data_len < 0 or key_len < 0:
        raise ValueError("record lengths cannot be negative")
    cells = 10 + 9 + (_field_cells(data_len) if data_len else 0)
    if key_len:
        cells += 9 + _field_cells(key_len)
    return cells


@lru_cache(maxsize=4096)
def records_per_track(data_len: int, key_len: int = 0) -> int:
    """How many equal records fit on one 3390 track."""
    return CELLS_PER_TRACK // record_cells(data_len, key_len)


def fits_on_track(lengths: list[int], key_len: int = 0) -> bool:
    """Do records of these data lengths fit together on one track?"""
    return sum(record_cells(dl, key_len) for dl in lengths) <= CELLS_PER_TRACK


def largest_block_fitting(free_cells: int, limit: int = MAX_BLOCK, key_len: int = 0) -> int:
    """Largest data length ≤ ``limit`` whose record fits in ``free_cells``.

    Used to fill the rest of a track with a smaller block, as the binder does.
    Returns 0 when not even an empty record fits.
    """
    if record_cells(1, key_len) > free_cells:
        return 0
    lo, hi = 1, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if record_cells(mid, key_len) <= free_cells:
            lo = mid
        else:
            hi = mid - 1
    return lo


@dataclass(frozen=True)
class CCHHR:
    """A record address: cylinder, head (track in cylinder), record number."""

    cc: int
    hh: int
    r: int = 1

    @property
    def track(self) -> int:
        """Relative track number on the volume."""
        return self.cc * TRACKS_PER_CYLINDER + self.hh

    @classmethod
    def of_track(cls, track: int, r: int = 1) -> "CCHHR":
        cc, hh = divmod(track, TRACKS_PER_CYLINDER)
        return cls(cc, hh, r)

    def __str__(self) -> str:
        return f"{self.cc:04X}{self.hh:04X}{self.r:02X}"


def volume_tracks(model: str) -> int:
    """Tracks on a 3390 model (``3390-3`` etc.)."""
    try:
        return MODELS[model] * TRACKS_PER_CYLINDER
    except KeyError:
        raise ValueError(f"unknown 3390 model {model!r}; known: {', '.join(MODELS)}") from None


def page_track(page: int) -> tuple[int, int]:
    """(track, record index 0–11) of a 4 KB page in a linear data set."""
    return divmod(page, records_per_track(PAGE_BYTES))
