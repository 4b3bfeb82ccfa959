"""A VSAM key-sequenced data set: control intervals on 3390 tracks, an index
of sequence-set and index-set CIs, free space, CI and CA splits.

Records are numbered 0..N-1 in key order and loaded with the free space the
cluster was defined with (``FREESPACE(ci%, ca%)``). A CI holds
``(cisize - 10) // record_bytes`` fixed-length records (10 bytes of CIDF and
RDFs); a control area is one 3390 cylinder, whose CI count follows from the
track arithmetic in :mod:`models.io.geometry`.

Inserts go to the CI that holds the key's neighbours. A full CI splits (half
its records move to a free CI of the same CA: two data writes and one
sequence-set write); a CA with no free CI splits too (half the CA rewritten).
To keep a run cheap the key→CI map stays fixed after a split: only occupancy
and the extra I/Os are tracked, which is what the timing needs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from models.io.geometry import TRACKS_PER_CYLINDER, records_per_track

#: Control information per fixed-length data CI: CIDF (4) + two RDFs (3 each).
CI_CONTROL_BYTES = 10
#: Bytes per index entry after front/rear key compression, with its pointer
#: (IBM "VSAM Demystified": compressed entries of a few bytes plus control).
INDEX_ENTRY_BYTES = 8
#: Header and control bytes of an index CI.
INDEX_CI_HEADER = 24


@dataclass
class KSDS:
    """A loaded KSDS and its occupancy.

    Parameters
    ----------
    records : int
        Records loaded, in key order.
    record_bytes : int
        Fixed record length.
    cisize : int
        Data CI size (a 3390 physical record of this size).
    index_cisize : int
        Index CI size.
    ci_free_pct, ca_free_pct : float
        Free space left in each CI and free CIs in each CA at load time.
    """

    records: int
    record_bytes: int = 250
    cisize: int = 4096
    index_cisize: int = 2048
    ci_free_pct: float = 10.0
    ca_free_pct: float = 10.0
    occupancy: list = field(default_factory=list, repr=False)
    ca_free: list = field(default_factory=list, repr=False)
    ci_splits: int = 0
    ca_splits: int = 0

    def __post_init__(self) -> None:
        if self.records < 1:
            raise ValueError("a KSDS needs at least one record")
        self.recs_per_ci = (self.cisize - CI_CONTROL_BYTES) // self.record_bytes
        if self.recs_per_ci < 1:
            raise ValueError(f"a {self.record_bytes}-byte record does not fit a {self.cisize}-byte CI")
        free_bytes = int(self.cisize * self.ci_free_pct / 100.0)
        self.loaded_per_ci = max(1, (self.cisize - CI_CONTROL_BYTES - free_bytes) // self.record_bytes)
        self.cis_per_track = records_per_track(self.cisize)
        self.cis_per_ca = self.cis_per_track * TRACKS_PER_CYLINDER
        self.loaded_cis_per_ca = max(1, int(self.cis_per_ca * (1 - self.ca_free_pct / 100.0)))
        self.data_cis = -(-self.records // self.loaded_per_ci)
        self.cas = -(-self.data_cis // self.loaded_cis_per_ca)
        self.occupancy = [self.loaded_per_ci] * self.data_cis
        self.occupancy[-1] = self.records - self.loaded_per_ci * (self.data_cis - 1)
        self.ca_free = [self.cis_per_ca - self.loaded_cis_per_ca] * self.cas
        self.fanout = (self.index_cisize - INDEX_CI_HEADER) // INDEX_ENTRY_BYTES
        self.index_level_sizes = self._index_levels()

    def _index_levels(self) -> list[int]:
        """CIs per index level, sequence set first, up to the single root."""
        if self.cis_per_ca > self.fanout:
            raise ValueError("index CI too small to address every CI of a CA")
        sizes = [self.cas]
        while sizes[-1] > 1:
            sizes.append(-(-sizes[-1] // self.fanout))
        return sizes

    @property
    def index_levels(self) -> int:
        """Index levels a keyed request walks (sequence set included)."""
        return len(self.index_level_sizes)

    @property
    def tracks(self) -> int:
        """Data component tracks (whole CAs)."""
        return self.cas * TRACKS_PER_CYLINDER

    def ci_of(self, record: int) -> int:
        """Data CI holding record number ``record`` (clamped to the file)."""
        ci = record // self.loaded_per_ci
        return ci if ci < self.data_cis else self.data_cis - 1

    def index_path(self, ci: int) -> list[int]:
        """Index CI ids from the root down to ``ci``'s sequence-set CI.

        Index ids are negative (``-1 - n``) so they never collide with data
        CI numbers in a buffer pool.
        """
        path = []
        pos = ci // self.loaded_cis_per_ca
        base = 0
        for size in self.index_level_sizes:
            path.append(-1 - (base + pos))
            base += size
            pos //= self.fanout
        path.reverse()
        return path

    def insert(self, ci: int) -> int:
        """Add a record to ``ci``; return the extra CI writes a split costs."""
        occ = self.occupancy
        if occ[ci] < self.recs_per_ci:
            occ[ci] += 1
            return 0
        ca = ci // self.loaded_cis_per_ca
        extra = 2       # the new CI and the sequence-set CI
        if self.ca_free[ca] == 0:
            # CA split: half the CA's CIs move to a new CA, plus an index-set write.
            self.ca_splits += 1
            self.ca_free[ca] = self.cis_per_ca // 2
            self.ca_free.append(self.cis_per_ca // 2)
            extra += self.cis_per_ca // 2 + 1
        self.ci_splits += 1
        self.ca_free[ca] -= 1
        occ[ci] = occ[ci] // 2 + 1
        return extra

    def delete(self, ci: int) -> None:
        """Remove a record from ``ci`` (VSAM reclaims the space in the CI)."""
        if self.occupancy[ci] > 0:
            self.occupancy[ci] -= 1
