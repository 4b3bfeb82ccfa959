"""What the I/O workload's cache gives for a working set and a skew, in closed form.

The general I/O workload (models/workloads/io.py) reads blocks of
``pages_per_io`` 4 KB pages; a random I/O takes block rank ``r`` (0 the
hottest) from the bounded Zipf law of its inverse CDF, so

    P(rank < B) = ((B + 1)^a - 1) / ((N + 1)^a - 1),   a = 1 - skew

(``ln(B + 1) / ln(N + 1)`` at skew 1) for a working set of ``N`` blocks.
Before the run, the model makes the hottest blocks resident (the warm
start of models/workloads/system.py): as many as fit in 90 % of the
workload's share of its unit's cache, at most ``WARM_LIMIT_PAGES`` pages
in all. A random read hits when its block is one of those ``B``. A
sequential read hits as the unit's own detection and staging let it
(:mod:`models.rmf.seqfit`: prestaged once the stream's count reaches the
trigger, else only what is warm, ``B / N`` of the blocks, or staged by the
stream's earlier reads of the track), ``h_seq``. So the model's read hit
ratio over a run is

    h = seq_share * h_seq + (1 - seq_share) * P(rank < B)

for as long as the warm contents last. Each miss stages a whole track (12
slots) and pushes warm blocks out, coldest first, so over many cache
turnovers (``turnover_s``: cache slots / slots staged per second) the ratio
drifts down towards the LRU steady state; the short runs the app makes are
far inside one turnover. :func:`models.rmf.fitcheck.check` runs the model
to confirm, and :func:`models.rmf.fitcheck.refine` corrects the fit on the
model's own run for a run length that is not.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from models.rmf import seqfit
from models.workloads.io import WARM_LIMIT_PAGES

PAGE = 4096
#: Share of its cache a workload warms (models/workloads/system.py, _warm).
WARM_SHARE = 0.9
TRACK_SLOTS = 12


@dataclass(frozen=True)
class Load:
    """What the cache sees of one workload."""

    io_rate: float             # I/O per second
    read_share: float          # 0–1
    seq_share: float           # 0–1
    pages_per_io: int
    #: How the unit sees its sequential reads: one stream per volume of the
    #: dataset, zHPF with the LPO or not (models.rmf.seqfit.Stream).
    stream: seqfit.Stream = seqfit.Stream(volumes=4, lpo=True)


def blocks(working_set_mb: float, pages: int) -> int:
    """Blocks of the working set, as IOWorkload counts them."""
    return max(1, int(working_set_mb * 2**20 // PAGE) // pages)


def warm_budget(cache_slots: float) -> int:
    """Pages a workload alone on its unit warms."""
    return min(WARM_LIMIT_PAGES, int(WARM_SHARE * cache_slots))


def warm_blocks(budget_pages: int, pages: int, n_blocks: int) -> int:
    """Blocks the warm start makes resident with ``budget_pages``."""
    return min(n_blocks, max(0, budget_pages // pages))


def zipf_cdf(b: int, n: int, skew: float) -> float:
    """P(rank < b) of the model's bounded Zipf draw over ``n`` blocks."""
    if b >= n:
        return 1.0
    a = 1.0 - skew
    if abs(a) < 1e-9:
        return math.log(b + 1.0) / math.log(n + 1.0)
    return ((b + 1.0) ** a - 1.0) / ((n + 1.0) ** a - 1.0)


def predict(load: Load, working_set_mb: float, skew: float, cache_slots: float,
            budget_pages: int | None = None) -> float:
    """The model's read hit ratio (per read request) while the warm cache lasts.

    ``budget_pages``: pages the warm start gives this workload (default: the
    workload alone on a unit of ``cache_slots``).
    """
    n = blocks(working_set_mb, load.pages_per_io)
    if budget_pages is None:
        budget_pages = warm_budget(cache_slots)
    b = warm_blocks(budget_pages, load.pages_per_io, n)
    s = load.seq_share
    random = zipf_cdf(b, n, skew)
    return s * seqfit.seq_hit_ratio(load, n, b, random) + (1.0 - s) * random


def turnover_s(load: Load, hit_ratio: float, cache_slots: float) -> float:
    """Seconds for the misses' full-track stages to fill the cache once."""
    misses = load.io_rate * load.read_share * (1.0 - hit_ratio)
    return cache_slots / (misses * TRACK_SLOTS) if misses > 0 else math.inf
