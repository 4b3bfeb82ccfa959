"""Channel paths (CHPIDs) as shared resources, and path selection.

A :class:`ChannelPath` is busy while an I/O is *connected* to it: from the
start (PEND's channel start and command accept) through the protocol steps
and data transfer (CONN) until the control unit disconnects for a miss or
the I/O ends. While the I/O is disconnected (DISC: staging from the drives,
NVS full) the path is free for other I/Os; the reconnect needs a path again,
any path to the control unit (dynamic path reconnect), and a wait for one
counts in DISC, as RMF counts it.

The I/O model computes a channel program in a tight loop at issue time.
A path is booked the same way: ``free_at`` is the time its last connected
stretch ended, or :data:`HELD` while an I/O is connected to it and has not
yet said when it will let go (an I/O that paused at a sync point, see
models/io/volume.py). Bookings happen in engine-time order, because an I/O
about to reconnect at a later time first waits until then whenever another
event is due before it; so ``free_at`` is enough and no path is blocked
for I/Os that start earlier.

Path selection (:meth:`PathGroup.pick`): a free path, trying the control
unit's paths round robin from the one after the last chosen (z/OS rotates
starts over the paths of a device), else the non-held path free soonest.
When every path is held the I/O waits for a release (an engine event;
only then does an I/O cost more than its two events).
"""
from __future__ import annotations

from collections import deque

#: ``free_at`` of a path an I/O is connected to with its end not yet known.
HELD = float("inf")


class ChannelPath:
    """One CHPID: its timeline and what RMF's Channel Path Activity shows.

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
                 "groups", "comp")

    def __init__(self, name: str, protocol: str, generation: str):
        self.name = name
        self.protocol = protocol
        self.generation = generation
        self.free_at = 0.0
        self.busy = 0.0           # connected seconds
        self.starts = 0           # channel I/Os started on it
        self.reconnects = 0
        self.groups: list[PathGroup] = []
        self.comp = -1            # trace component, when traced

    def release(self, t: float, since: float) -> None:
        """The connected stretch that began at ``since`` ends at ``t``."""
        self.busy += t - since
        self.free_at = t
        for g in self.groups:
            if g.waiters:
                g.waiters.popleft().succeed()

    def utilisation(self, elapsed: float) -> float:
        """Fraction of ``elapsed`` the path was connected to an I/O."""
        return self.busy / elapsed if elapsed > 0 else 0.0


class PathGroup:
    """The channel paths that reach one control unit, and I/Os waiting for one.

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
        self.waiters: deque = deque()
        self._next = 0
        for p in self.paths:
            p.groups.append(self)

    def pick(self, t: float) -> ChannelPath | None:
        """A path free at ``t`` (round robin), else the one free soonest.

        None when an I/O is connected to every path (see :meth:`wait`).
        """
        paths = self.paths
        n = self.n
        if n == 1:
            p = paths[0]
            return p if p.free_at != HELD else None
        i = self._next
        best = None
        soonest = HELD
        for k in range(n):
            p = paths[(i + k) % n]
            f = p.free_at
            if f <= t:
                self._next = (i + k + 1) % n
                return p
            if f < soonest:
                best, soonest = p, f
        return best

    def wait(self, first: bool = False):
        """An event that triggers when one of the paths is released."""
        ev = self.engine.event()
        if first:
            self.waiters.appendleft(ev)
        else:
            self.waiters.append(ev)
        return ev
