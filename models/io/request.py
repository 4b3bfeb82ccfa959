"""What an I/O request is and what it gives back.

A request is a list of ``(track, mask)`` groups in channel-program order
(bit r of ``mask`` = record r of the track), built from 4 KB page numbers
with :func:`pages_to_groups` or from a contiguous range with
:func:`range_to_groups`; :class:`IOResult` holds its response-time parts.
"""
from __future__ import annotations


class IOResult:
    """Response-time parts (seconds) and cache outcome of one I/O request."""

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


class IOOwner:
    """What a request tells at its end (``VolumeIO._io``'s ``owner``): a
    workload counting its I/Os (models/io/driver.py). Compiled, the volume
    calls it through C, without a method look-up."""

    def io_done(self, vol, res, write, tag) -> None:
        """``res`` of one request of ``vol`` ended now; ``write`` and ``tag`` as
        the owner started it."""
        raise NotImplementedError


def pages_to_groups(pages, per_track: int = 12) -> list[tuple[int, int]]:
    """Group page (record) numbers into ``(track, mask)`` in the given order.

    Consecutive pages on the same track share a group; the order of the list
    is kept (the channel program reads in list order).
    """
    groups: list = []
    append = groups.append
    last = -1
    mask = 0
    base = -per_track          # first page of track ``last``
    for p in pages:
        r = p - base
        if r >= per_track or r < 0:
            if mask:
                append((last, mask))
            last = p // per_track
            base = last * per_track
            mask = 1 << (p - base)
        else:
            mask |= 1 << r
    if mask:
        append((last, mask))
    return groups


def range_to_groups(first: int, count: int, per_track: int = 12) -> list[tuple[int, int]]:
    """``(track, mask)`` groups of ``count`` contiguous records from ``first``."""
    groups = []
    end = first + count
    p = first
    while p < end:
        t, r = divmod(p, per_track)
        n = min(per_track - r, end - p)
        groups.append((t, ((1 << n) - 1) << r))
        p += n
    return groups


def res_pages(groups) -> int:
    """Pages (records) in a list of groups."""
    return sum(m.bit_count() for _, m in groups)
