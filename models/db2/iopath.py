"""The bridge from DB2 reads to the I/O model (models.io.subsystem).

DB2 asks for pages of a data set; the I/O model reads ``(track, mask)``
groups of a volume. :class:`IOPath` maps pages to volumes and tracks (the
data set's layout), builds the groups (a contiguous prefetch as a range, a
list prefetch as its sorted page list) and issues one I/O per volume the
read touches, through :meth:`IOSubsystem.read` so concurrent prefetch
engines meet in the volume queue, the channel and the drives. There is no
I/O arithmetic here: cache, staging, LPO, channel programs and drives are
all the I/O model's.

Set-up of the published measurements (set once, documented here):

* HyperPAV: DB2's two prefetch engines and the application thread reach a
  volume concurrently, as they do with HyperPAV aliases (standard with
  DS8000 R6 and DB2 10); ``ALIASES`` = 2 gives three concurrent I/Os.
* The volume's extents spread over ``RANKS`` RAID-5 ranks (DS8000 storage
  pool striping), each ``RAID``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.db2.access import LIST, SYNC
from models.db2.dataset import PAGES_PER_TRACK, DataSet
from models.io.subsystem import IOSubsystem, pages_to_groups, range_to_groups

ALIASES = 2
RANKS = 1
RAID = "7+P"
CHANNEL = "FEx8S"
#: Channel paths to the control unit: DOMAIN.md's "typically 2–8"; four
#: leave the three concurrent I/Os of the published set-up a path each.
PATHS = 4


@dataclass(frozen=True)
class CacheCounts:
    """RMF cache activity (read side) summed over the volumes a scan used."""

    read_requests: int
    hits: int
    misses: int
    tracks_staged: int
    seq_tracks_staged: int
    disk_requests: int
    disk_bytes: int

    @property
    def hit_ratio(self) -> float:
        return self.hits / self.read_requests if self.read_requests else 0.0

    @property
    def disk_bytes_per_request(self) -> float:
        return self.disk_bytes / self.disk_requests if self.disk_requests else 0.0

    @property
    def seq_staged_track_pct(self) -> float:
        """Share of staged tracks the unit prestaged by sequential detection, %."""
        return 100.0 * self.seq_tracks_staged / self.tracks_staged if self.tracks_staged else 0.0


class IOPath:
    """DB2's view of the I/O subsystem for one data set.

    Parameters
    ----------
    engine : Engine
    dataset : DataSet
    device, protocol : str
        Passed to :class:`IOSubsystem` (zHPF brings the List Prefetch Optimizer).
    warm : bool
        Make the whole data set cache resident before the run.
    trace : Trace or None
    ranks, aliases : int
        RAID ranks under each volume; HyperPAV aliases per volume.
    """

    def __init__(self, engine, dataset: DataSet, device: str, protocol: str, warm: bool = False,
                 trace=None, ranks: int | None = None, aliases: int | None = None):
        self.engine = engine
        self.dataset = dataset
        self._kw = dict(device=device, protocol=protocol, channel=CHANNEL,
                        ranks=RANKS if ranks is None else ranks, raid=RAID,
                        aliases=ALIASES if aliases is None else aliases, trace=trace,
                        paths=PATHS)
        self._warm = warm
        self.subsystems: dict[int, IOSubsystem] = {}
        self._single = dataset.volumes == 1
        self._tpv = dataset.tracks_per_volume

    def volume(self, v: int) -> IOSubsystem:
        """The I/O subsystem of the data set's ``v``-th volume (built on first use)."""
        sub = self.subsystems.get(v)
        if sub is None:
            sub = IOSubsystem(self.engine, name=f"VOL{v}", **self._kw)
            if self._warm:
                used = min(self._tpv, self.dataset.tracks - v * self._tpv)
                sub.warm_tracks(0, used)
            self.subsystems[v] = sub
        return sub

    def read(self, pages: np.ndarray, mode: int):
        """Process step (``yield from``): read ``pages`` as one DB2 I/O.

        Returns ``(iosq, pend, disc, conn)`` in seconds, summed over the
        volumes the read touched (a read crossing a volume boundary is one
        I/O per volume, one after the other).
        """
        if self._single:
            res = yield from self.volume(0).read(self._groups(pages, mode), mode == LIST)
            return res.iosq, res.pend, res.disc, res.conn
        vols, _, _ = self.dataset.locate(pages)
        parts = [0.0, 0.0, 0.0, 0.0]
        for v in np.unique(vols).tolist():
            local = pages[vols == v] - v * self._tpv * PAGES_PER_TRACK
            res = yield from self.volume(v).read(self._groups(local, mode), mode == LIST)
            for i, x in enumerate((res.iosq, res.pend, res.disc, res.conn)):
                parts[i] += x
        return tuple(parts)

    @staticmethod
    def _groups(pages: np.ndarray, mode: int) -> list:
        if mode == SYNC or mode == LIST:
            return pages_to_groups(pages.tolist(), PAGES_PER_TRACK)
        first = int(pages[0])
        return range_to_groups(first, len(pages), PAGES_PER_TRACK)

    def counts(self) -> CacheCounts:
        """Cache activity summed over the volumes used."""
        sts = [s.stats for s in self.subsystems.values()]
        return CacheCounts(
            read_requests=sum(s.read_requests for s in sts), hits=sum(s.hits for s in sts),
            misses=sum(s.misses for s in sts), tracks_staged=sum(s.tracks_staged for s in sts),
            seq_tracks_staged=sum(s.seq_tracks_staged for s in sts),
            disk_requests=sum(s.disk_requests for s in sts),
            disk_bytes=sum(s.disk_bytes for s in sts))
