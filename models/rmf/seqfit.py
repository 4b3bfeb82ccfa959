"""How often the model's sequential reads of a fitted workload hit, in closed form.

The general I/O workload's sequential reads (models/workloads/io.py) walk
the working set block after block; block ``j`` lies on volume ``j % n``,
so each volume sees its own contiguous stream, with the workload's random
reads (and all its writes) in between. Whether such a read hits depends on
the unit's sequential detection and staging (models/io/volume.py
``IORequest._advance``, models/io/staging.py), taken here as the code does it:

* **The stream's entry.** A volume follows at most ``SEQ_STREAMS`` streams:
  every read puts its track in that table (newest last) and the oldest
  entry leaves when it is full. Random reads are new entries, so the
  sequential stream's entry survives from one of its reads to the next only
  if fewer than ``SEQ_STREAMS`` random reads reach the volume in between
  (:func:`gap_survival`: a negative binomial count, from the sequential
  share, the read share and the volumes; writes add no entry).
* **The count.** A track read after its predecessor's last record counts
  one more than it (at most ``SEQ_TRIGGER_TRACKS``), one whose predecessor's
  last record or own first record was not read (a write took it) one less,
  and a lost entry starts again from 0. From ``SEQ_TRIGGER_TRACKS`` on, the
  unit prestages ``density × depth`` whole tracks ahead (density: the share
  of records read per track, averaged over ``SEQ_DENSITY_TRACKS`` tracks;
  depth: a stripe of the rank's layout), and tops that up when fewer than
  half are left. :func:`prestaged_share` follows this as a Markov chain over
  the stream's tracks (count, tracks since the entry began, tracks
  prestaged ahead) from a cold start over the tracks the stream covers in
  the run, and gives the share of tracks prestaged before the stream
  reaches them: all their reads hit.
* **AMP** (:func:`amp_depth`): the depth grows by a stripe, up to
  ``AMP_MAX_STRIPES``, each time a read waits on a track within two depths
  behind the prestage (mostly the volume's random misses that land there),
  and goes back to a stripe when an active stream stops; the chain takes
  the depth's average over the run.
* **Tracks the stream reaches unprestaged** (:func:`stage_misses`): a read
  of a warm block hits; the first read of a block not in cache misses. On
  FICON (and zHPF without the List Prefetch Optimizer) that miss stages the
  whole track, so the track's later reads hit. With the LPO the first miss
  is record-cached (only the I/O's records), the second is a revisit and is
  staged from its first record to the end of the track: two misses per
  track where the stream needs two or more blocks.

What is left out, and why it is small for a fit: prestages still in flight
when the stream arrives (the reads of one stream come milliseconds apart, a
stage takes a few), a miss's wait reordering the volume's reads, random
reads landing on the stream's own tracks, tracks already staged by random
misses, and warm blocks pushed out during the run (the coldest go first;
the sequential stream sees every block alike). docs/rmf-import.md gives
the closed form beside the model's own runs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np

from models.drawing.config import RAID
from models.io.backend import RAID_LAYOUTS, STRIP_BYTES, record_footprint
from models.io.staging import AMP_MAX_STRIPES, SEQ_DENSITY_TRACKS, SEQ_TRIGGER_TRACKS
from models.io.volume import SEQ_STREAMS
from models.workloads.io import PAGE, RPT, block_scatter
from models.workloads.params import BY_NAME

#: The run length the fit expects, unless told: the workload's default.
RUN_S = BY_NAME["duration_s"].default

#: Tracks a stream's chain follows since its entry began: by then its
#: density (1 - (1 - 1/SEQ_DENSITY_TRACKS)^n of the read share) has settled.
_AGE_TRACKS = 48
#: Most tracks of a stream the chain follows (in the long run: its second half averaged).
_CHAIN_TRACKS = 800
#: Stretches of the stream (a whole number of tracks and blocks each) whose
#: warm blocks decide the misses of unprestaged tracks.
_STRETCHES = 256


def stripe_tracks(raid: str = RAID, ranks: int = 1) -> int:
    """A stream's full prestage depth: one stripe of the volume's rank(s)
    (``VolumeIO._stripe_tracks``: strips of ``STRIP_BYTES`` of whole tracks,
    one per data drive of a row)."""
    strip = max(1, STRIP_BYTES // (record_footprint(PAGE) * RPT))
    return strip * RAID_LAYOUTS[raid][0] * ranks


@dataclass(frozen=True)
class Stream:
    """How the unit sees a workload's sequential reads on its volumes."""

    volumes: int               # the dataset's volumes: one stream on each
    lpo: bool                  # zHPF with the List Prefetch Optimizer (else full-track stages)
    stripe: int = 0            # full prestage depth, tracks (0: one 7+P rank, stripe_tracks())
    run_s: float = RUN_S       # seconds the workload runs (AMP deepens the prestage as it goes)


def gap_survival(seq_share: float, read_share: float, volumes: int) -> float:
    """P(the stream's entry is still in the volume's table at its next read).

    Between two sequential I/Os on a volume the workload issues ``volumes``
    sequential I/Os in all (its cursor goes round the volumes), so the
    random reads that reach this volume in between are negative binomial:
    failures before ``volumes`` successes, success ``s / (s + (1 - s) r / n)``.
    A sequential write leaves the entry as it is, so the gap to the next
    sequential *read* spans ``G`` such stretches, ``G`` geometric in ``r``.
    """
    s, r, n = seq_share, read_share, max(1, volumes)
    if s <= 0.0 or r <= 0.0:
        return 0.0
    p = s / (s + (1.0 - s) * r / n)
    total, weight, g = 0.0, r, 1
    while weight > 1e-9 and g < 10_000:
        total += weight * _nb_below(g * n, p, SEQ_STREAMS)
        weight *= 1.0 - r
        g += 1
    return total


def _nb_below(n: int, p: float, k: int) -> float:
    """P(fewer than ``k`` failures before the ``n``-th success), success ``p``."""
    term = math.exp(n * math.log(p)) if p > 0 else 0.0
    total = 0.0
    for x in range(k):
        total += term
        term *= (x + n) / (x + 1) * (1.0 - p)
    return total


def prestaged_share(seq_share: float, read_share: float, volumes: int, pages: int,
                    depth: int, tracks: int = 0) -> float:
    """Share of the stream's tracks prestaged before the stream reaches them,
    its full prestage depth ``depth`` tracks, over the first ``tracks`` tracks
    of a stream that starts with the run (0: in the long run)."""
    return _chain(round(seq_share, 6), round(read_share, 6), volumes, pages, depth,
                  min(tracks, _CHAIN_TRACKS))[0]


@lru_cache(maxsize=1024)
def _chain(seq_share: float, read_share: float, volumes: int, pages: int,
           stripe: int, tracks: int = 0) -> tuple[float, float]:
    """A Markov chain over the tracks of one volume's stream; the state after a
    track is (count, tracks since the entry began, tracks prestaged ahead).

    Returns the share of tracks prestaged before the stream reaches them
    (over its first ``tracks`` tracks, from a stream that starts cold; 0: in
    the long run) and how often, per track, an active stream stops (its count
    falls below the trigger: AMP's depth goes back to a stripe).
    """
    g = gap_survival(seq_share, read_share, volumes)
    if g <= 0.0:
        return 0.0, 0.0
    odds = _Odds.of(g, read_share, pages, stripe)
    dist = np.zeros((SEQ_TRIGGER_TRACKS + 1, _AGE_TRACKS + 1, max(odds.depth) + 1))
    dist[0, 0, 0] = 1.0
    hit = on = 0.0
    start, end = (0, tracks) if tracks > 0 else (_CHAIN_TRACKS // 2, _CHAIN_TRACKS)
    for step in range(end):
        if step >= start:
            hit += dist[:, :, 1:].sum()
            on += dist[SEQ_TRIGGER_TRACKS].sum()
        dist = odds.next_track(dist)
    steps = end - start
    return float(hit / steps), float(on / steps * odds.down)


@dataclass(frozen=True)
class _Odds:
    """One track of the stream: how its count moves, and how deep it prestages."""

    up: float                  # the entry survives to the track and counts one more
    down: float                # survives, one less (a write took a boundary record)
    within: float              # survives the track's own reads
    depth: tuple[int, ...]     # prestage depth by tracks since the entry began

    @classmethod
    def of(cls, g: float, r: float, pages: int, stripe: int) -> "_Odds":
        # A track boundary inside one I/O (a block straddling two tracks) is
        # crossed by that I/O itself: no gap, and counted up if it is a read.
        inside = 1.0 - math.gcd(RPT, pages) / pages
        alpha = 1.0 / SEQ_DENSITY_TRACKS
        return cls(up=inside * r + (1.0 - inside) * g * r * r,
                   down=inside * (1.0 - r) * g + (1.0 - inside) * g * (1.0 - r * r),
                   within=g ** max(0.0, r * RPT / pages - 1.0),
                   depth=tuple(max(1, int(r * (1.0 - (1.0 - alpha) ** n) * stripe))
                               for n in range(_AGE_TRACKS + 1)))

    def next_track(self, dist: np.ndarray) -> np.ndarray:
        """The state distribution after the stream's next track."""
        trig, ages = SEQ_TRIGGER_TRACKS, _AGE_TRACKS
        moved = np.zeros_like(dist)                 # one track less prestaged ahead
        moved[:, :, :-1] += dist[:, :, 1:]
        moved[:, :, 0] += dist[:, :, 0]
        aged = np.zeros_like(dist)                  # one track older, capped
        aged[:, 1:] = moved[:, :-1]
        aged[:, ages] += moved[:, ages]
        nxt = np.zeros_like(dist)
        for c in range(trig + 1):
            nxt[min(c + 1, trig)] += self.up * aged[c]
            nxt[max(c - 1, 0)] += self.down * aged[c]
        nxt[0, 1] += (1.0 - self.up - self.down) * moved.sum(axis=(0, 1))   # entry lost
        depth = np.array(self.depth)
        short = np.arange(dist.shape[2])[None, :] < (depth[:, None] + 1) // 2
        active = nxt[trig]                          # an active stream tops its prestage up
        mass = (active * short).sum(axis=1)
        active[short] = 0.0
        active[np.arange(ages + 1), depth] += mass
        lost = (1.0 - self.within) * nxt.sum(axis=(0, 1))   # lost within the track
        nxt *= self.within
        nxt[0, 1] += lost
        return nxt


def stage_misses(n_blocks: int, warm: int, pages: int, volumes: int, read_share: float,
                 lpo: bool) -> float:
    """Misses per sequential read on tracks the stream reaches unprestaged.

    Which blocks are warm follows the workload's own placement: the ``warm``
    hottest ranks, scattered over the ``n_blocks`` by its multiplicative hash
    (models/workloads/io.py), so along one volume's stream they are spread
    as that hash spreads them, not at random (whole tracks of warm blocks on
    some working sets, one warm block in two on others). Evenly spaced
    stretches of the stream are taken, each a whole number of tracks and of
    blocks; each block is a read with probability ``read_share``.
    """
    return _stage_misses(n_blocks, min(warm, n_blocks), pages, max(1, volumes),
                         round(read_share, 6), lpo)


@lru_cache(maxsize=4096)
def _stage_misses(n: int, warm: int, pages: int, volumes: int, r: float, lpo: bool) -> float:
    if warm >= n or r <= 0.0:
        return 0.0
    scatter = block_scatter(n)
    rank_of = pow(scatter, -1, n)           # block -> its rank (the hash inverted)
    period = pages * RPT // math.gcd(pages, RPT)
    per = period // pages                   # blocks in a stretch
    stretches = max(1, n // volumes // per)
    covered = 2 if lpo else 1               # track-stages before the rest of a track hits
    misses = reads = 0.0
    for s in range(_STRETCHES):
        first = (s * stretches // _STRETCHES) * per
        v = s % volumes
        state: dict[int, list[float]] = {}  # track -> P(0, 1, … earlier misses on it)
        for i in range(first, first + per):
            block = i * volumes + v
            if block >= n:
                break
            reads += r
            if block * rank_of % n < warm:
                continue                    # a warm block: all its records in cache
            hit_all = 1.0
            for track in range((i * pages) // RPT, ((i + 1) * pages - 1) // RPT + 1):
                dist = state.setdefault(track, [1.0] + [0.0] * covered)
                uncovered = sum(dist[:covered])
                hit_all *= 1.0 - uncovered
                # A read of this block stages what is missing: one step on.
                for c in range(covered - 1, -1, -1):
                    dist[c + 1] += r * dist[c]
                    dist[c] *= 1.0 - r
            misses += r * (1.0 - hit_all)
    return misses / reads if reads else 0.0


class Load(Protocol):
    """What the fit knows of a workload (:class:`models.rmf.cachefit.Load`)."""

    @property
    def io_rate(self) -> float: ...
    @property
    def read_share(self) -> float: ...
    @property
    def seq_share(self) -> float: ...
    @property
    def pages_per_io(self) -> int: ...
    @property
    def stream(self) -> Stream: ...


def amp_depth(stripe: int, random_misses_s: float, volume_tracks: float, stream_tracks_s: float,
              stops_per_track: float, run_s: float) -> int:
    """The stream's full prestage depth averaged over a run of ``run_s`` seconds.

    AMP (``Staging._amp_wait``) deepens it by a stripe, up to
    ``AMP_MAX_STRIPES``, each time a read waits for a track within two depths
    behind what the stream has prestaged: here the volume's random misses
    that land there (``random_misses_s`` a second, spread over its
    ``volume_tracks``); it goes back to a stripe when an active stream stops.
    The expected depth, stepped through the run.
    """
    top = AMP_MAX_STRIPES * stripe
    depth, total = float(stripe), 0.0
    steps = 200
    dt = run_s / steps
    for _ in range(steps):
        window = min(1.0, (2 * depth + 1) / max(1.0, volume_tracks))
        if depth < top:
            depth = min(top, depth + stripe * random_misses_s * window * dt)
        depth -= (depth - stripe) * min(1.0, stops_per_track * stream_tracks_s * dt)
        total += depth
    return int(round(total / steps))


def seq_hit_ratio(load: Load, n_blocks: int, warm: int, random_hit: float) -> float:
    """The model's read hit ratio (per request) of a workload's sequential reads.

    Parameters
    ----------
    load : models.rmf.cachefit.Load
        Its rate, shares, pages per I/O and :class:`Stream`.
    n_blocks, warm : int
        Blocks of its working set, and how many the warm start makes resident.
    random_hit : float
        Its random reads' hit ratio (their misses deepen the prestage, AMP).
    """
    s, r, pages, st = load.seq_share, load.read_share, load.pages_per_io, load.stream
    if s <= 0.0:
        return 1.0
    stripe = st.stripe or stripe_tracks()
    nv = max(1, st.volumes)
    per_track = RPT / pages                          # blocks of a track
    volume_tracks = n_blocks / nv / per_track
    stream_tracks_s = load.io_rate * s / nv / per_track
    random_misses_s = load.io_rate * r * (1.0 - s) * (1.0 - random_hit) / nv
    _, stops = _chain(round(s, 6), round(r, 6), nv, pages, stripe)
    depth = amp_depth(stripe, random_misses_s, volume_tracks, stream_tracks_s, stops, st.run_s)
    pre = prestaged_share(s, r, nv, pages, depth, max(1, round(stream_tracks_s * st.run_s)))
    return 1.0 - (1.0 - pre) * stage_misses(n_blocks, warm, pages, nv, r, st.lpo)
