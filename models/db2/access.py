"""Which pages a DB2 access reads, and how the buffer manager reads them.

An access path becomes a :class:`ReadPlan`: the pages in the order the
application asks for them (getpages), cut into *reads*, each done one way:

* ``SYNC``: one page, read by the application thread while it waits;
* ``SEQUENTIAL``: sequential prefetch, 32 contiguous pages (4 KB pages);
* ``DYNAMIC``: dynamic prefetch, 32 contiguous pages, started when the
  sequential detector sees a run of page-sequential getpages;
* ``LIST``: list prefetch, up to 32 discontiguous pages sorted ascending
  (RIDs sorted by page number).

Prefetch reads run on the prefetch engines ahead of the application;
synchronous reads stop it. The decisions follow DB2 for z/OS:

* skip-sequential access through a RID list: list prefetch of the sorted
  RID list, 32 pages per I/O;
* RUNSTATS TABLESAMPLE SYSTEM: the sampled pages, read with list prefetch
  (dense skip-sequential); without sampling (100 %) a table space scan with
  sequential prefetch;
* index scans: DB2 9 walks the leaf pages in key order and relies on the
  sequential detector (a disorganized index defeats it: synchronous I/O);
  DB2 10 reads each non-leaf page synchronously and the leaf pages it
  names with list prefetch when they are not contiguous.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterator

import numpy as np

SYNC, SEQUENTIAL, DYNAMIC, LIST = 0, 1, 2, 3
MODE_NAMES = ("synchronous", "sequential prefetch", "dynamic prefetch", "list prefetch")

#: Pages per sequential or dynamic prefetch I/O for 4 KB pages, and the most
#: pages one list prefetch I/O carries (DB2 for z/OS Managing Performance,
#: "Prefetch I/O": 32 pages for 4 KB buffer pools; list prefetch "up to 32").
PREFETCH_QUANTITY = 32
LIST_PREFETCH_MAX = 32

#: Sequential detection (DB2 for z/OS Managing Performance, "Sequential
#: detection at execution time"): of the last 8 getpages, 5 must be
#: page-sequential (within half a prefetch quantity ahead of the previous one).
DETECTION_WINDOW = 8
DETECTION_THRESHOLD = 5

#: Table pages handled per plan chunk: bounds memory for 100-million-page tables.
CHUNK_PAGES = 1 << 21


@dataclass(frozen=True)
class ReadPlan:
    """Reads in the order the application needs them.

    ``pages[starts[i]:starts[i + 1]]`` are the pages of read ``i`` and
    ``modes[i]`` how it is done (``SYNC``, ``SEQUENTIAL``, ``DYNAMIC``, ``LIST``).
    ``getpages[i]`` is how many getpages the read serves (a dynamic prefetch
    may read pages the scan never asks for).
    """

    pages: np.ndarray
    starts: np.ndarray
    modes: np.ndarray
    getpages: np.ndarray

    @property
    def reads(self) -> int:
        return len(self.modes)

    def read(self, i: int) -> np.ndarray:
        return self.pages[self.starts[i]:self.starts[i + 1]]

    def count(self, mode: int) -> int:
        return int(np.count_nonzero(self.modes == mode))


def _plan(pages, starts, modes, getpages=None) -> ReadPlan:
    starts = np.asarray(starts, dtype=np.int64)
    getpages = np.diff(starts) if getpages is None else np.asarray(getpages, dtype=np.int64)
    return ReadPlan(np.asarray(pages, dtype=np.int64), starts,
                    np.asarray(modes, dtype=np.int8), getpages)


def chunked(pages: np.ndarray, per_read: int, mode: int) -> ReadPlan:
    """``pages`` cut into reads of ``per_read`` pages, all done as ``mode``.

    Parameters
    ----------
    pages : ndarray of int
        Pages in the order the reads take them.
    per_read : int
        Pages per read (the last read may be shorter).
    mode : int
        ``SYNC``, ``SEQUENTIAL``, ``DYNAMIC`` or ``LIST``.
    """
    n = len(pages)
    starts = np.append(np.arange(0, n, per_read, dtype=np.int64), n)
    return _plan(pages, starts, np.full(len(starts) - 1, mode))


def list_prefetch(rids_pages: np.ndarray) -> ReadPlan:
    """List prefetch of a RID list: sort by page, drop duplicates, 32 per I/O.

    Parameters
    ----------
    rids_pages : ndarray of int
        Page number of each qualifying RID, in index key order.
    """
    return chunked(np.unique(rids_pages), LIST_PREFETCH_MAX, LIST)


def skip_sequential(table_pages: int, skip: int, start: int = 0, stop: int | None = None) -> ReadPlan:
    """Every ``skip``-th page of the table (pages ``start`` to ``stop``), read
    with list prefetch: a RID list whose qualifying rows sit ``skip`` pages apart."""
    stop = table_pages if stop is None else min(stop, table_pages)
    first = -(-start // skip) * skip
    return list_prefetch(np.arange(first, stop, skip, dtype=np.int64))


def sampled_pages(table_pages: int, pct: float, rng: np.random.Generator,
                  start: int = 0, stop: int | None = None) -> Iterator[np.ndarray]:
    """TABLESAMPLE SYSTEM: each page of ``start``–``stop`` is sampled with
    probability ``pct`` %, drawn a chunk at a time (ascending page numbers)."""
    stop = table_pages if stop is None else min(stop, table_pages)
    p = pct / 100.0
    for lo in range(start, stop, CHUNK_PAGES):
        hi = min(stop, lo + CHUNK_PAGES)
        yield lo + np.flatnonzero(rng.random(hi - lo) < p)


def runstats_plans(table_pages: int, pct: float, rng: np.random.Generator,
                   start: int = 0, stop: int | None = None) -> Iterator[ReadPlan]:
    """The reads of RUNSTATS over pages ``start``–``stop``, a chunk at a time.

    At 100 % there is no sampling: a table space scan with sequential
    prefetch. Below, the sampled pages are read with list prefetch.
    """
    stop = table_pages if stop is None else min(stop, table_pages)
    if pct >= 100.0:
        for lo in range(start, stop, CHUNK_PAGES):
            hi = min(stop, lo + CHUNK_PAGES)
            yield chunked(np.arange(lo, hi, dtype=np.int64), PREFETCH_QUANTITY, SEQUENTIAL)
        return
    for pages in sampled_pages(table_pages, pct, rng, start, stop):
        # A chunk boundary may split a 32-page list: one short list per 2M
        # pages, a negligible and honest cost of bounded memory.
        yield chunked(pages, LIST_PREFETCH_MAX, LIST)


class SequentialDetector:
    """DB2's sequential detection over the last 8 accesses.

    DB2 9 (page level) looks at getpages: one is *page-sequential* when it
    lies ahead of the previous one by at most half a prefetch quantity; a
    return to the same page does not count. DB2 10 (``row_level``) looks at
    rows: a row on the same page as the previous row counts as sequential
    too, so a range scan whose rows share pages (or a cluster ratio below
    100 % that revisits a page) keeps dynamic prefetch on (DB2 10 for z/OS
    Performance Topics, SG24-7942, "row level sequential detection"). With
    5 of the last 8 sequential, dynamic prefetch is on: the next 32 pages
    are prefetched.
    """

    def __init__(self, row_level: bool = False) -> None:
        self._hist: deque[bool] = deque(maxlen=DETECTION_WINDOW)
        self._last = -(10 ** 12)
        self._count = 0
        self._lo = 0 if row_level else 1

    def getpage(self, page: int) -> bool:
        """Record an access (a getpage, or a row with ``row_level``); True
        when dynamic prefetch is on after it."""
        seq = self._lo <= page - self._last <= PREFETCH_QUANTITY // 2
        if len(self._hist) == DETECTION_WINDOW and self._hist[0]:
            self._count -= 1
        self._hist.append(seq)
        self._count += seq
        self._last = page
        return self._count >= DETECTION_THRESHOLD


def index_scan_v9(key_order: np.ndarray, leaf_pages: int) -> ReadPlan:
    """DB2 9 scanning leaf pages in key order with sequential detection.

    Each leaf page not already prefetched is read synchronously, unless the
    detector is on: then a dynamic prefetch reads it and the next 31 pages.
    A disorganized index rarely turns the detector on.

    Parameters
    ----------
    key_order : ndarray of int
        The leaf pages the scan visits, in key order.
    leaf_pages : int
        Pages in the index (a prefetch stops at its end).
    """
    det = SequentialDetector()
    pages: list[int] = []
    starts: list[int] = []
    modes: list[int] = []
    gets: list[int] = []
    lo, hi = 0, -1
    for p in key_order.tolist():
        on = det.getpage(p)
        if lo <= p <= hi:
            gets[-1] += 1          # served by the dynamic prefetch in flight
            continue
        starts.append(len(pages))
        gets.append(1)
        if on:
            lo, hi = p, min(leaf_pages - 1, p + PREFETCH_QUANTITY - 1)
            pages.extend(range(lo, hi + 1))
            modes.append(DYNAMIC)
        else:
            pages.append(p)
            modes.append(SYNC)
    starts.append(len(pages))
    return _plan(pages, starts, modes, gets)


def index_scan_v10(key_order: np.ndarray, groups: np.ndarray | None = None,
                   nonleaf: np.ndarray | None = None) -> ReadPlan:
    """DB2 10 scanning leaf pages in key order with list prefetch.

    How DB2 10 drives it (IBM Docs, *DB2 10 for z/OS What's New*,
    "Reduction in need for explicit REORG": "a list prefetch of index leaf
    pages based on non-leaf page information"; Db2 12 for z/OS, "Dynamic
    prefetch (PREFETCH='D')": on a disorganized index "dynamic prefetch is
    not triggered, and some synchronous I/O might occur. However, when Db2
    detects the synchronous I/Os it can switch to list prefetch for the next
    set of leaf pages. In that case, synchronous I/O occurs only for the
    non-leaf pages"):

    * the scan starts as DB2 9 does: leaf pages read synchronously while
      the sequential detector watches; after a detection window
      (:data:`DETECTION_WINDOW` getpages) with no dynamic prefetch DB2 has
      seen the synchronous I/Os and switches. When the detector turns
      dynamic prefetch on inside that window (an organized index) there are
      no synchronous I/Os to wait for: the scan goes straight on;
    * from then on, for each level-1 non-leaf page the scan enters, the
      non-leaf page is read synchronously (it says which leaves follow),
      and the leaves it names in the key range are read 32 at a time in key
      order, each list sorted by page number: list prefetch when scattered,
      dynamic prefetch when contiguous (an organized index). No list of a
      group can start before its non-leaf page is read
      (models.db2.bufmgr: a prefetch waits for the synchronous reads before
      it).

    Parameters
    ----------
    key_order : ndarray of int
        The leaf pages the scan visits, in key order.
    groups : ndarray of int, optional
        The non-leaf group of each of those leaves (non-decreasing). Without
        it, no non-leaf pages are read and lists are cut every 32 leaves
        (the scan as if the non-leaf pages were all in the buffer pool).
    nonleaf : ndarray of int, optional
        Page of each non-leaf group (indexed by group number).
    """
    keys = np.asarray(key_order, dtype=np.int64)
    n = len(keys)
    pages: list = []
    starts: list[int] = []
    modes: list[int] = []

    size = [0]

    def add(chunk, mode):
        starts.append(size[0])
        size[0] += len(chunk)
        pages.append(chunk)
        modes.append(mode)

    # Start-up: DB2 9's reading until the detector has had its window.
    first = 0
    if groups is not None:
        det = SequentialDetector()
        window = keys[:DETECTION_WINDOW].tolist()
        if not any([det.getpage(p) for p in window]):
            first = len(window)
    bounds = [first]
    if groups is not None and n > first:
        g = np.asarray(groups, dtype=np.int64)
        bounds += (first + 1 + np.flatnonzero(np.diff(g[first:]))).tolist()
    bounds.append(n)
    read_group = None
    if groups is not None and n:
        read_group = int(groups[0])         # the probe reads the first level-1 page
        add(np.array([nonleaf[read_group]], dtype=np.int64), SYNC)
        for p in keys[:first].tolist():
            add(np.array([p], dtype=np.int64), SYNC)
    for lo, hi in zip(bounds, bounds[1:]):
        if lo >= hi:
            continue
        if groups is not None and int(groups[lo]) != read_group:
            read_group = int(groups[lo])
            add(np.array([nonleaf[read_group]], dtype=np.int64), SYNC)
        for a in range(lo, hi, LIST_PREFETCH_MAX):
            group = np.sort(keys[a:min(hi, a + LIST_PREFETCH_MAX)])
            contiguous = group[-1] - group[0] + 1 == len(group)
            add(group, DYNAMIC if contiguous else LIST)
    if not pages:
        return _plan(np.empty(0, dtype=np.int64), [0], np.empty(0, dtype=np.int8))
    starts.append(size[0])
    return _plan(np.concatenate(pages), starts, modes)
