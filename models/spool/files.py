"""Spool file sizes: a seeded, vectorised generator.

The published dump held 34,000 files of 100 to 600,000 80-byte records,
353,000 4 KB pages in all (about 10.4 pages a file). Such populations are
heavy-tailed: many small files, a few huge ones. We draw sizes in pages from
a Pareto distribution truncated to [smallest, largest] file, with its shape
solved so that its mean is ``pages / files``, then round and adjust single
files so the total is exactly ``pages``.
"""
from __future__ import annotations

import math

import numpy as np

from models.io.geometry import PAGE_BYTES
from models.core.params import ParamError

RECORD_BYTES = 80
MIN_RECORDS = 100
MAX_RECORDS = 600_000
#: Smallest and largest file in pages (100 and 600,000 80-byte records).
MIN_PAGES = math.ceil(MIN_RECORDS * RECORD_BYTES / PAGE_BYTES)
MAX_PAGES = math.ceil(MAX_RECORDS * RECORD_BYTES / PAGE_BYTES)


def _trunc_pareto_mean(alpha: float, lo: float, hi: float) -> float:
    """Mean of a Pareto(alpha) on [lo, hi] (alpha may be ≤ 0)."""
    if abs(alpha) < 1e-9:
        return (hi - lo) / math.log(hi / lo)
    if abs(alpha - 1.0) < 1e-9:
        return lo * math.log(hi / lo) / (1.0 - lo / hi)
    r = (lo / hi) ** alpha
    return alpha * lo ** alpha / (1.0 - r) * (hi ** (1 - alpha) - lo ** (1 - alpha)) / (1 - alpha)


def _solve_alpha(mean: float, lo: float, hi: float) -> float:
    """Shape whose truncated mean is ``mean`` (the mean falls as alpha grows)."""
    a, b = -30.0, 60.0
    for _ in range(100):
        mid = (a + b) / 2
        if _trunc_pareto_mean(mid, lo, hi) > mean:
            a = mid
        else:
            b = mid
    return (a + b) / 2


def _sample(rng: np.random.Generator, n: int, alpha: float, lo: float, hi: float) -> np.ndarray:
    u = rng.random(n)
    if abs(alpha) < 1e-9:
        return lo * (hi / lo) ** u
    r = (lo / hi) ** alpha
    return lo * (1.0 - u * (1.0 - r)) ** (-1.0 / alpha)


def _fix_total(rng: np.random.Generator, sizes: np.ndarray, pages: int, hi: int) -> None:
    """Add or remove single pages on random files until the total is ``pages``."""
    diff = pages - int(sizes.sum())
    while diff:
        eligible = np.flatnonzero(sizes < hi) if diff > 0 else np.flatnonzero(sizes > 1)
        take = rng.choice(eligible, size=min(abs(diff), eligible.size), replace=False)
        sizes[take] += 1 if diff > 0 else -1
        diff = pages - int(sizes.sum())


def file_sizes(rng: np.random.Generator, files: int, pages: int) -> np.ndarray:
    """Pages in each of ``files`` spool files, ``pages`` in all.

    Parameters
    ----------
    rng : numpy.random.Generator
        A named stream of the run's engine.
    files, pages : int
        Number of files and total pages.

    Returns
    -------
    numpy.ndarray
        int64 array of ``files`` sizes summing to ``pages``.

    Raises
    ------
    ParamError
        Fewer pages than files, or more than the largest files can hold.
    """
    if pages < files:
        raise ParamError(f"pages ({pages}) must be at least files ({files}): "
                         "every spool file has at least one page")
    if pages > files * MAX_PAGES:
        raise ParamError(f"pages ({pages}) exceed {files} files of at most "
                         f"{MAX_RECORDS} records ({MAX_PAGES} pages) each")
    mean = pages / files
    lo = float(min(MIN_PAGES, mean))
    hi = float(MAX_PAGES)
    if mean - lo < 1e-9:
        sizes = np.full(files, int(lo), dtype=np.int64)
    else:
        alpha = _solve_alpha(mean, lo, hi)
        raw = _sample(rng, files, alpha, lo, hi)
        sizes = np.floor(raw + rng.random(files)).astype(np.int64)
        np.clip(sizes, 1, MAX_PAGES, out=sizes)
    _fix_total(rng, sizes, pages, MAX_PAGES)
    return sizes
