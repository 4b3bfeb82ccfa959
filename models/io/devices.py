"""Back-end device timing: HDD 10K/15K, SSD and the native 3390.

Every number here is a documented physical parameter, set once and used by
every experiment. Sources:

* HDD 10K / 15K average read seek and rotational latency: DOMAIN.md §1
  (IBM DS8000 drive specifications of the 2012 era: 10K RPM ~3.8 ms seek,
  3.0 ms average latency; 15K RPM ~3.3 ms seek, 2.0 ms latency).
* Sustained media rates, the drives' published maxima (outer zone; the
  model's volumes take each drive's first extents, its outer cylinders):
  10K 135 MB/s (Seagate Savvio 10K.4 product manual, "72 to 135 MB/s";
  the 600 GB DS8800 drive is of that family), 15K 202 MB/s (Savvio 15K.3,
  300 GB, "151 to 202 MB/s"). Until issue 32 the model had 150 and 190 MB/s,
  the 10K figure above the drive's maximum. Track-to-track seek (settle)
  0.8 / 0.6 ms and the controller overhead (``access_ms`` 0.1 ms; the 10K.4
  manual gives 0.2 ms) stay as they were: assumptions, swept in
  bench/sensitivity.py.
* SSD read access 0.35 ms with 8 lanes and 300 MB/s per drive: **assumed**,
  no DS8800 SSD figure was found (docs/model-constants.md). 0.35 ms is
  bounded by target E9 (SSD against 10K, DB2 10 over FICON, 5 % of an
  index): at 0.25 ms, the figure once given here for 2012 enterprise SLC
  drives ("sub-millisecond reads", DOMAIN.md §1), SSD reads 8.7× 10K's
  throughput against a published 3–8×. That is a visible miss, kept as a
  strict xfail in tests/models/test_io_backend_figures.py, not a source.
* Drive capacities (decide how far apart on the platter two logical tracks
  sit, hence seek distances): the DS8800 drive line-up of 2012 (IBM
  SG24-8886): 10K SAS 600 GB, 15K SAS 300 GB, SSD 400 GB.
* Native 3390: 4,224 RPM (14.2 ms per turn), average seek 9.5 ms (IBM 3390
  reference summary), 4.2 MB/s data rate.

Seek time grows with the square root of the distance (arm acceleration) from
``settle_ms`` for one cylinder to ``full_seek_ms``; the constants are derived
so that the mean over uniformly random start and end positions equals the
published average seek (E|x−y|^½ = 8/15 for x, y uniform on [0, 1]).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from models.io.geometry import NATIVE_RPM

#: E[sqrt(|x - y|)] for x, y independent and uniform on [0, 1].
MEAN_SQRT_DISTANCE = 8.0 / 15.0


@dataclass(frozen=True)
class DiskProfile:
    """Timing of one drive type.

    Parameters
    ----------
    name : str
    rpm : float
        Spindle speed; 0 for SSD (no rotation).
    avg_seek_ms : float
        Published average read seek (random to random); 0 for SSD.
    settle_ms : float
        Shortest (one cylinder) seek.
    media_mb_s : float
        Sustained transfer rate from the media, MB/s (10^6 bytes).
    access_ms : float
        Fixed per-access overhead (SSD read latency; controller overhead on
        HDD).
    parallelism : int
        Requests one drive serves at once (SSD internal channels; 1 for HDD).
    capacity_gb : float
        Drive capacity, GB (10^9 bytes).
    """

    name: str
    rpm: float
    avg_seek_ms: float
    settle_ms: float
    media_mb_s: float
    access_ms: float = 0.0
    parallelism: int = 1
    capacity_gb: float = 300.0

    @property
    def rotation_ms(self) -> float:
        """One full revolution, ms (0 for SSD)."""
        return 60_000.0 / self.rpm if self.rpm else 0.0

    @property
    def avg_latency_ms(self) -> float:
        """Average rotational delay: half a turn."""
        return self.rotation_ms / 2.0

    @property
    def full_seek_ms(self) -> float:
        """Full-stroke seek implied by the average and the settle time."""
        if self.avg_seek_ms <= 0:
            return 0.0
        return self.settle_ms + (self.avg_seek_ms - self.settle_ms) / MEAN_SQRT_DISTANCE

    def seek_ms(self, fraction: float) -> float:
        """Seek over ``fraction`` (0–1) of the full stroke; 0 for no move."""
        if fraction <= 0 or self.avg_seek_ms <= 0:
            return 0.0
        return self.settle_ms + (self.full_seek_ms - self.settle_ms) * math.sqrt(min(fraction, 1.0))

    def transfer_ms(self, nbytes: float) -> float:
        """Time to move ``nbytes`` off the media."""
        return nbytes / (self.media_mb_s * 1000.0)

    @property
    def is_ssd(self) -> bool:
        return self.rpm == 0


PROFILES: dict[str, DiskProfile] = {
    "HDD10K": DiskProfile("HDD10K", rpm=10_000, avg_seek_ms=3.8, settle_ms=0.8,
                          media_mb_s=135.0, access_ms=0.1, capacity_gb=600.0),
    "HDD15K": DiskProfile("HDD15K", rpm=15_000, avg_seek_ms=3.3, settle_ms=0.6,
                          media_mb_s=202.0, access_ms=0.1, capacity_gb=300.0),
    "SSD": DiskProfile("SSD", rpm=0, avg_seek_ms=0.0, settle_ms=0.0,
                       media_mb_s=300.0, access_ms=0.35, parallelism=8,
                       capacity_gb=400.0),
    "3390": DiskProfile("3390", rpm=NATIVE_RPM, avg_seek_ms=9.5, settle_ms=1.5,
                        media_mb_s=4.2, access_ms=0.0, capacity_gb=8.5),
}


def profile(name: str) -> DiskProfile:
    """The drive profile called ``name`` (HDD10K, HDD15K, SSD, 3390)."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown device {name!r}; known: {', '.join(PROFILES)}") from None
