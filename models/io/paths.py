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

Path selection (:meth:`PathGroup.pick`): a path with no work queued,
trying the control unit's paths round robin from the one after the last
chosen (z/OS rotates starts over the paths of a device), else the path
whose queued work ends soonest.
"""
from __future__ import annotations

from models.io import channel as ch


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
                 "comp", "iu_s", "byte_s")

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

    def book(self, t: float, ius: float, nbytes: float) -> tuple[float, float]:
        """Queue ``ius`` information units and ``nbytes`` at ``t``.

        Returns ``(start, work)``: when the channel starts on them (FIFO)
        and their work in seconds.
        """
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
        paths = self.paths
        n = self.n
        if n == 1:
            return paths[0]
        i = self._next
        best = paths[i]
        soonest = best.free_at
        for k in range(n):
            p = paths[(i + k) % n]
            f = p.free_at
            if f <= t:
                self._next = (i + k + 1) % n
                return p
            if f < soonest:
                best, soonest = p, f
        return best
