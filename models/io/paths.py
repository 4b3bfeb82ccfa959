"""Channel paths (CHPIDs) as multiplexed links, and path selection.

A FICON channel is not held by one I/O: it multiplexes the exchanges of
many I/Os at once. What limits it is its own work: the information units
(IUs) it processes for each I/O (commands, data, status; their cost per
protocol and generation is derived from IBM's published channel I/O rates
in models/io/channel.py) and the bytes at the link rate. A
:class:`ChannelPath` is a FIFO server of that work, kept as a timeline:
``free_at`` is when the work queued so far is done. An I/O that connects
at ``t`` books its work; it starts at ``max(t, free_at)``, so a wait for the
channel counts in PEND at the start and in DISC at a reconnect (as RMF
counts it). Several I/Os may be connected through one path at once; only
the channel work queues. The control unit's own protocol time (Locate
Record set-up, searches, slot moves) is part of the I/O's connected time
(CONN) but does not occupy the channel. Utilisation per CHPID = work
seconds / elapsed.

Bookings happen in engine-time order: an I/O connects at the present
(its start) or first yields the time of a later connect (a reconnect, the
second part of a split zHPF list) and waits whenever another event is due
before it (models/io/volume.py), so a booking never delays an I/O that
connects earlier.

An I/O books the work of its whole remaining channel program when it
connects; when the control unit disconnects it for a miss it gives back
the part not yet transferred (in proportion to the records left) and books
it again at the reconnect.

**Work the drawing lacks** (other systems' I/O on a shared CHPID, I/O to
devices not drawn): :meth:`ChannelPath.set_background` gives the path a
stream of background work that takes it a set fraction of the time. It
arrives evenly spaced, in items of one small I/O's channel work (the 4 KB
read of :data:`models.io.channel.CHANNEL_4K_IOPS`), and queues on the same
FIFO timeline as this system's work, so an I/O that finds an item in
progress waits for it as on a real shared channel. Items are queued
lazily: a booking, a path choice or a figure first queues those that
arrived by its time. No background (the default) queues nothing.

Path selection (:meth:`PathGroup.pick`): a path with no work queued,
trying the control unit's paths round robin from the one after the last
chosen (z/OS rotates starts over the paths of a device), else the path
whose queued work ends soonest.
"""
from __future__ import annotations

from models.io import channel as ch

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

INF = float("inf")


class ChannelPath:
    """One CHPID: its work timeline and what RMF's Channel Path Activity shows.

    Parameters
    ----------
    name : str
        Canvas label.
    protocol : str
        ``FICON`` or ``zHPF``.
    generation : str
        ``FEx8`` or ``FEx8S``.
    """

    __slots__ = ("name", "protocol", "generation", "free_at", "busy", "starts", "reconnects",
                 "comp", "iu_s", "byte_s", "bg_item", "bg_period", "bg_next", "bg_busy")

    def __init__(self, name: str, protocol: str, generation: str):
        self.name = name
        self.protocol = protocol
        self.generation = generation
        self.free_at = 0.0        # when the work queued so far is done
        self.busy = 0.0           # work seconds
        self.starts = 0           # channel I/Os started on it
        self.reconnects = 0
        self.comp = -1            # trace component, when traced
        self.iu_s = ch.IU_S[protocol, generation]
        self.byte_s = 1.0 / ch.LINK_BYTES_S[generation]
        self.bg_item = 0.0        # background: seconds of one item, 0 = none
        self.bg_period = INF      # seconds between items
        self.bg_next = INF        # when the next item arrives
        self.bg_busy = 0.0        # background work seconds queued so far

    def set_background(self, fraction: float) -> None:
        """Let work the drawing lacks take the channel ``fraction`` of the time.

        Parameters
        ----------
        fraction : float
            0 (none) to below 1; items of one small I/O's channel work
            arrive every ``item / fraction`` seconds from ``period / 2``.
        """
        if not 0.0 <= fraction < 1.0:
            raise ValueError(f"channel {self.name!r}: background busy {100 * fraction:g} % "
                             "is not between 0 and 100 %")
        if fraction == 0.0:
            self.bg_item, self.bg_period, self.bg_next = 0.0, INF, INF
            return
        self.bg_item = 1.0 / ch.CHANNEL_4K_IOPS[self.protocol, self.generation]
        self.bg_period = self.bg_item / fraction
        self.bg_next = self.bg_period / 2

    def background(self, t: float) -> None:
        """Queue the background items that arrived by ``t`` (FIFO, as they came)."""
        n: float = self.bg_next
        f: float
        item: float = self.bg_item
        while n <= t:
            f = self.free_at
            self.free_at = (f if f > n else n) + item
            self.bg_busy += item
            n += self.bg_period
        self.bg_next = n

    def book(self, t: float, ius: float, nbytes: float) -> tuple[float, float]:
        """Queue ``ius`` information units and ``nbytes`` at ``t``.

        Returns ``(start, work)``: when the channel starts on them (FIFO)
        and their work in seconds.
        """
        if self.bg_next <= t:
            self.background(t)
        work = ius * self.iu_s + nbytes * self.byte_s
        f = self.free_at
        start = f if f > t else t
        self.free_at = start + work
        self.busy += work
        return start, work

    def give_back(self, work: float) -> None:
        """Remove ``work`` seconds booked but not done (the I/O disconnected)."""
        self.free_at -= work
        self.busy -= work

    def utilisation(self, elapsed: float) -> float:
        """Fraction of ``elapsed`` the channel was doing work."""
        return self.busy / elapsed if elapsed > 0 else 0.0

    def total_utilisation(self, elapsed: float) -> float:
        """Fraction of ``elapsed`` busy with this system's work and the background's."""
        return (self.busy + self.bg_busy) / elapsed if elapsed > 0 else 0.0


class PathGroup:
    """The channel paths that reach one control unit.

    Parameters
    ----------
    engine : Engine
    paths : list of ChannelPath
        In canvas order; a path may belong to several groups (it reaches
        several control units).
    """

    def __init__(self, engine, paths: list[ChannelPath]):
        if not paths:
            raise ValueError("a control unit needs at least one channel path")
        self.engine = engine
        self.paths = list(paths)
        self.n = len(self.paths)
        self._next = 0

    def pick(self, t: float) -> ChannelPath:
        """A path with no work queued at ``t`` (round robin), else the one
        whose queued work ends soonest."""
        p: ChannelPath
        best: ChannelPath
        f: float
        soonest: float
        n: cython.Py_ssize_t = self.n
        i: cython.Py_ssize_t
        k: cython.Py_ssize_t
        paths: list = self.paths
        if n == 1:
            p = paths[0]
            if p.bg_next <= t:
                p.background(t)
            return p
        i = self._next
        best = paths[i]
        soonest = best.free_at
        for k in range(n):
            p = paths[(i + k) % n]
            if p.bg_next <= t:
                p.background(t)
            f = p.free_at
            if f <= t:
                self._next = (i + k + 1) % n
                return p
            if f < soonest:
                best, soonest = p, f
        return best
