"""Resources processes queue for: a channel path, a drive, a CPU.

A :class:`Resource` has ``capacity`` identical servers and a FIFO queue;
:class:`PriorityResource` serves the lowest ``priority`` first (FIFO among
equals). Two ways to use one inside a process::

    yield channel             # take a server (fast path, FIFO order)
    yield 0.0005              # hold it
    channel.release()

    req = cpu.request(priority=2)   # an event, for priorities or cancelling
    yield req
    ...
    cpu.release(req)

Statistics cost nothing per event beyond what RMF needs: the busy-server
integral is updated only when the number of busy servers changes, and the
queue-length integral follows from Little's law (total time waited).
"""
from __future__ import annotations

from collections import deque
from typing import Any

# Resource, PriorityResource and Request live in core.py beside the process
# loop that acquires them (one compiled module: the loop calls them in C).
from models.engine.core import Engine, Event, PriorityResource, Request, Resource

__all__ = ["Resource", "PriorityResource", "Request", "Store"]


class Store:
    """A FIFO buffer of items with optional capacity (e.g. SPXTAPE's buffers).

    ``put(item)`` and ``get()`` return events to yield.
    """

    def __init__(self, engine: Engine, capacity: float = float("inf"), name: str = ""):
        self.engine = engine
        self.capacity = capacity
        self.name = name
        self.items: deque = deque()
        self._getters: deque[Event] = deque()
        self._putters: deque[tuple[Event, Any]] = deque()

    def __len__(self) -> int:
        return len(self.items)

    def put(self, item: Any) -> Event:
        ev = Event(self.engine)
        if len(self.items) < self.capacity:
            self.items.append(item)
            ev.succeed()
            self._serve_getters()
        else:
            self._putters.append((ev, item))
        return ev

    def get(self) -> Event:
        ev = Event(self.engine)
        self._getters.append(ev)
        self._serve_getters()
        return ev

    def _serve_getters(self) -> None:
        while self._getters and self.items:
            self._getters.popleft().succeed(self.items.popleft())
            while self._putters and len(self.items) < self.capacity:
                pev, item = self._putters.popleft()
                self.items.append(item)
                pev.succeed()
