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
from heapq import heappop, heappush
from typing import Any

from models.engine.core import _ACQUIRE, _PENDING, URGENT, Engine, Event


class Request(Event):
    """A request for one server of a resource; triggers when granted."""

    __slots__ = ("resource", "priority", "t_request", "t_grant")

    def __init__(self, resource: "Resource", priority: int = 0):
        self.engine = resource.engine
        self.value = _PENDING
        self._waiters = None
        self.resource = resource
        self.priority = priority
        self.t_request = resource.engine.now
        self.t_grant = -1.0


class Resource:
    """``capacity`` servers with a FIFO queue.

    Parameters
    ----------
    engine : Engine
    capacity : int
        Number of requests served at once.
    name : str
        Shown in traces and reports.
    """

    #: Yielding the resource itself means "acquire": the engine's process
    #: loop takes a free server inline or appends (time, process, None) to
    #: the queue (see models.engine.core.Process._handle).
    value = _ACQUIRE
    #: Plain FIFO queue (a deque the engine appends to directly).
    _fifo = True

    def __init__(self, engine: Engine, capacity: int = 1, name: str = ""):
        if capacity < 1:
            raise ValueError("a resource needs at least one server")
        self.engine = engine
        self.capacity = capacity
        self.name = name
        self.users = 0
        # Queue entries: (time queued, wake-up callback or None, Request or None)
        self._queue: Any = deque()
        self._t_last = engine.now
        self.busy_area = 0.0      # integral of busy servers over time
        self.requests = 0
        self.queued_requests = 0
        self.wait_total = 0.0     # time waited by requests already granted

    # -- statistics ---------------------------------------------------------
    @property
    def queue_length(self) -> int:
        return len(self._queue)

    def utilisation(self, elapsed: float | None = None) -> float:
        """Mean fraction of servers busy from time 0 to now (or ``elapsed``)."""
        now = self.engine.now
        area = self.busy_area + (now - self._t_last) * self.users
        t = now if elapsed is None else elapsed
        return area / (t * self.capacity) if t > 0 else 0.0

    def mean_queue(self, elapsed: float | None = None) -> float:
        """Mean queue length (Little's law: total waiting time / time)."""
        now = self.engine.now
        waiting = sum(now - entry[-3] for entry in self._queue)
        t = now if elapsed is None else elapsed
        return (self.wait_total + waiting) / t if t > 0 else 0.0

    def mean_wait(self) -> float:
        """Mean queueing delay of the requests granted so far."""
        granted = self.requests - len(self._queue)
        return self.wait_total / granted if granted else 0.0

    # -- protocol -----------------------------------------------------------
    def request(self, priority: int = 0) -> Request:
        """Ask for a server. Yield the returned request to wait for it."""
        req = Request(self, priority)
        self.requests += 1
        if self.users < self.capacity:
            now = self.engine.now
            self.busy_area += (now - self._t_last) * self.users
            self._t_last = now
            self.users += 1
            req.t_grant = now
            req.value = req
            req._waiters = None
        else:
            self.queued_requests += 1
            self._enqueue(priority, (req.t_request, None, req))
        return req

    def release(self, req: Request | None = None) -> None:
        """Give a server back; the next queued request (if any) gets it.

        Releasing a request that is still queued withdraws it.
        """
        if req is not None and req.value is _PENDING:
            self._withdraw(req)
            return
        if self._queue:
            t_queued, wake, waiting = self._queue.popleft() if self._fifo else self._dequeue()
            if waiting is None:
                # A process that yielded the resource itself: resume it now.
                eng = self.engine
                self.wait_total += eng.now - t_queued
                heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), wake, None))
            else:
                self._grant(t_queued, wake, waiting)
        else:
            now = self.engine.now
            self.busy_area += (now - self._t_last) * self.users
            self._t_last = now
            self.users -= 1

    def _grant(self, t_queued: float, wake: Any, req: Request | None) -> None:
        eng = self.engine
        now = eng.now
        self.wait_total += now - t_queued
        if req is None:
            heappush(eng._heap, (now, URGENT, eng._next_seq(), wake, None))
            return
        req.t_grant = now
        req.value = req
        waiters, req._waiters = req._waiters, None
        for fn in waiters or ():
            heappush(eng._heap, (now, URGENT, eng._next_seq(), fn, req))

    def _enqueue(self, priority: int, entry: tuple) -> None:
        self._queue.append(entry)

    def _dequeue(self) -> tuple:
        return self._queue.popleft()

    def _withdraw(self, req: Request) -> None:
        self.requests -= 1
        self._queue = type(self._queue)(e for e in self._queue if e[-1] is not req)


class PriorityResource(Resource):
    """A resource whose queue serves the lowest ``priority`` value first."""

    _fifo = False

    def __init__(self, engine: Engine, capacity: int = 1, name: str = ""):
        super().__init__(engine, capacity, name)
        self._queue = []
        self._order = 0

    def _enqueue(self, priority: int, entry: tuple) -> None:
        self._order += 1
        heappush(self._queue, (priority, self._order, *entry))

    def _dequeue(self) -> tuple:
        return heappop(self._queue)[2:]

    def _withdraw(self, req: Request) -> None:
        self.requests -= 1
        self._queue = [e for e in self._queue if e[-1] is not req]
        self._queue.sort()


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
