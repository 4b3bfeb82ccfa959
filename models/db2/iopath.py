"""The bridge from DB2 reads to the I/O model (models.io.system).

DB2 asks for pages of a data set; the I/O model reads ``(track, mask)``
groups of a volume. :class:`IOPath` maps pages to volumes and tracks (the
data set's layout), builds the groups (a contiguous prefetch as a range, a
list prefetch as its sorted page list) and issues one I/O per volume the
read touches, through :meth:`VolumeIO.read` so concurrent prefetch
engines meet in the volume queue, on the channel paths and on the drives.
There is no I/O arithmetic here: cache, staging, LPO, channel programs and
drives are all the I/O model's.

The volumes are those of an :class:`~models.io.system.IOSystem`: the data
set's volumes on the drawn configuration (``volumes``: canvas labels, the
data set's n-th volume is the n-th listed), or, with no configuration, a
configuration made here from the run's parameters and the set-up below
(volumes ``VOL0`` … behind one control unit).

Set-up of the published measurements, for runs without a configuration
(set once, documented here; a drawing brings its own):

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
from models.io.subsystem import pages_to_groups, range_to_groups, simple_config
from models.io.system import IOSystem
from models.io.volume import VolumeIO

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
        Without ``system``: the drives and channel protocol of the volumes
        made from the parameters (zHPF brings the List Prefetch Optimizer).
    warm : bool
        Make the whole data set cache resident before the run.
    trace : Trace or None
    ranks, aliases : int
        Without ``system``: RAID ranks under each volume; HyperPAV aliases per volume.
    system : IOSystem or None
        The drawn configuration's I/O system.
    volumes : sequence of str
        With ``system``: the data set's volumes (canvas labels, in placement order).
    """

    def __init__(self, engine, dataset: DataSet, device: str | None = None,
                 protocol: str | None = None, warm: bool = False, trace=None,
                 ranks: int | None = None, aliases: int | None = None,
                 system: IOSystem | None = None, volumes=None):
        self.engine = engine
        self.dataset = dataset
        if system is None:
            volumes = [f"VOL{v}" for v in range(dataset.volumes)]
            config = simple_config(volumes, device=device, protocol=protocol, channel=CHANNEL,
                                   ranks=RANKS if ranks is None else ranks, raid=RAID,
                                   aliases=ALIASES if aliases is None else aliases, paths=PATHS)
            system = IOSystem(engine, config, trace, trace_names="legacy")
        elif not volumes:
            raise ValueError(f"data set {dataset.name!r} is on no volume")
        self.system = system
        self.names = list(volumes)
        self._warm = warm
        self.subsystems: dict[int, VolumeIO] = {}
        self._warmed: set[int] = set()
        self._single = dataset.volumes == 1
        self._tpv = dataset.tracks_per_volume

    def volume(self, v: int) -> VolumeIO:
        """The volume holding the data set's ``v``-th piece (set up on first use).

        Piece ``v`` is on volume ``v % n`` of the ``n`` listed; when the
        drawing gives the object fewer volumes than it needs, later pieces
        follow the earlier ones on the same volumes (at :meth:`_offset`),
        as if the volumes were larger (extended address volumes).
        """
        n = len(self.names)
        sub = self.subsystems.get(v % n)
        if sub is None:
            sub = self.subsystems[v % n] = self.system.volume(self.names[v % n])
        if self._warm and v not in self._warmed:
            self._warmed.add(v)
            used = min(self._tpv, self.dataset.tracks - v * self._tpv)
            sub.warm_tracks(self._offset(v), used)
        return sub

    def _offset(self, v: int) -> int:
        """First track of piece ``v`` on its volume."""
        return v // len(self.names) * self._tpv

    def volume_names(self) -> list[str]:
        """Names of the volumes used so far, in data set order."""
        return [self.names[i] for i in sorted(self.subsystems)]

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
            local = pages[vols == v] - (v * self._tpv - self._offset(v)) * PAGES_PER_TRACK
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
