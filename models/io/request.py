"""What an I/O request is and what it gives back.

A request is a list of ``(track, mask)`` groups in channel-program order
(bit r of ``mask`` = record r of the track), built from 4 KB page numbers
with :func:`pages_to_groups` or from a contiguous range with
:func:`range_to_groups`; :class:`IOResult` holds its response-time parts.
"""
from __future__ import annotations

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    from models.engine import Step     # request.pxd cimports it compiled

#: A record's bit and every record's bits of a 64-bit mask (C unsigned
#: compiled, request.pxd; the same values as Python ints).
_ONE = 1
_ALL = (1 << 64) - 1


class IOResult(Step):
    """Response-time parts (seconds) and cache outcome of one I/O request.

    A :class:`~models.engine.core.Step` so that a request that is its own
    result (models/io/volume.py) is resumed by the engine through C."""

    __slots__ = ("id", "iosq", "pend", "disc", "conn", "pages", "hits", "misses",
                 "ios", "stages", "disk_bytes")

    def __init__(self, rid: int = 0) -> None:
        self.id = rid
        self.iosq = self.pend = self.disc = self.conn = 0.0
        self.pages = self.hits = self.misses = self.ios = self.stages = self.disk_bytes = 0

    @property
    def total(self) -> float:
        """IOSQ + PEND + DISC + CONN, seconds."""
        return self.iosq + self.pend + self.disc + self.conn

    def as_ms(self) -> dict:
        return {"io_ms": self.total * 1e3, "iosq_ms": self.iosq * 1e3,
                "pend_ms": self.pend * 1e3, "disc_ms": self.disc * 1e3,
                "conn_ms": self.conn * 1e3}


class IOOwner(Step):
    """What a request tells at its end (``VolumeIO._io``'s ``owner``): a
    workload counting its I/Os (models/io/driver.py). Compiled, the volume
    calls it through C, without a method look-up. A
    :class:`~models.engine.core.Step`: the workload's arrivals are its own
    events."""

    def io_done(self, vol, res, write, tag) -> None:
        """``res`` of one request of ``vol`` ended now; ``write`` and ``tag`` as
        the owner started it."""
        raise NotImplementedError


def _masks_hold(per_track) -> int:
    """Refuse a track of more records than a 64-bit mask holds (compiled, a
    C call: the groups of every I/O are built past it)."""
    if not 0 < per_track <= 64:
        raise ValueError(f"{per_track} records a track: masks hold 1 to 64")
    return 0


def pages_to_groups(pages, per_track=12) -> list:
    """Group page (record) numbers into ``(track, mask)`` in the given order.

    Consecutive pages on the same track share a group; the order of the list
    is kept (the channel program reads in list order). A mask has a bit per
    record of a track: at most 64 records a track (the cache's masks).
    """
    # Typed for the compiled build (request.pxd); no effect interpreted.
    p: cython.longlong
    r: cython.longlong
    last: cython.longlong
    base: cython.longlong
    mask: cython.ulonglong
    _masks_hold(per_track)
    groups: list = []
    last = -1
    mask = 0
    base = -per_track          # first page of track ``last``
    for p in pages:
        r = p - base
        if r >= per_track or r < 0:
            if mask:
                groups.append((last, mask))
            last = p // per_track
            base = last * per_track
            mask = _ONE << (p - base)
        else:
            mask |= _ONE << r
    if mask:
        groups.append((last, mask))
    return groups


def range_to_groups(first, count, per_track=12) -> list:
    """``(track, mask)`` groups of ``count`` contiguous records from ``first``."""
    # Typed for the compiled build (request.pxd); no effect interpreted.
    p: cython.longlong
    end: cython.longlong
    t: cython.longlong
    r: cython.longlong
    n: cython.longlong
    _masks_hold(per_track)
    groups: list = []
    end = first + count
    p = first
    while p < end:
        t = p // per_track
        r = p - t * per_track
        n = min(per_track - r, end - p)
        # n ones shifted up by r (n = 64 fills the mask; no 1 << 64 in C).
        groups.append((t, (_ALL >> (64 - n)) << r))
        p += n
    return groups


def res_pages(groups) -> int:
    """Pages (records) in a list of groups."""
    return sum(m.bit_count() for _, m in groups)
