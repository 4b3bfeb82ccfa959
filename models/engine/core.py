"""Event heap, processes and one-shot events.

The heap holds ``(time, priority, seq, callback, argument)`` tuples. ``seq``
is a global counter, so two entries at the same time and priority always run
in the order they were scheduled: the same seed and parameters give the same
run, event for event.

Processes are generators. They ``yield``:

* a number: a timeout of that many time units (the engine's unit is the
  second, by convention of every zPerfLab model);
* an :class:`Event` (a resource request, another process, a hand-made event):
  the process resumes when it triggers, receiving its value;
* a :class:`~models.engine.resources.Resource`: shorthand for "give me one
  server" (no request object; release with ``resource.release()``).

The hot path is :meth:`Engine.run` and :meth:`Process._resume`; both avoid
attribute look-ups in their loops and allocate one tuple per timeout.
"""
from __future__ import annotations

import hashlib
import random
from heapq import heapify, heappop, heappush
from itertools import count
from typing import Any, Callable, Generator

import numpy as np

#: Priority of events that must run before ordinary ones at the same instant
#: (resuming a process whose event has just triggered).
URGENT = 0
NORMAL = 1

_PENDING = object()
#: The ``value`` of a resource: yielding a resource acquires one of its servers.
_ACQUIRE = object()


class Interrupt(Exception):
    """Thrown into a process by :meth:`Process.interrupt`."""

    def __init__(self, cause: Any = None):
        super().__init__(cause)
        self.cause = cause


class Event:
    """A one-shot event. Processes that yield it resume when it triggers."""

    __slots__ = ("engine", "value", "_waiters")

    def __init__(self, engine: "Engine"):
        self.engine = engine
        self.value = _PENDING
        self._waiters: list[Callable[[Any], None]] | None = []

    @property
    def triggered(self) -> bool:
        return self.value is not _PENDING

    def succeed(self, value: Any = None) -> "Event":
        """Trigger the event now; waiting processes resume at the current time."""
        if self.value is not _PENDING:
            raise RuntimeError("event has already been triggered")
        self.value = value
        waiters, self._waiters = self._waiters, None
        if waiters:
            eng = self.engine
            for fn in waiters:
                heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), fn, value))
        return self

    def add_callback(self, fn: Callable[[Any], None]) -> None:
        """Call ``fn(value)`` when the event triggers (at once if it has)."""
        if self.value is _PENDING:
            self._waiters.append(fn)
        else:
            eng = self.engine
            heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), fn, self.value))


class Process(Event):
    """A running generator. It is itself an event that triggers on return."""

    __slots__ = ("_gen", "_send", "name", "_target", "_wake")

    def __init__(self, engine: "Engine", gen: Generator, name: str = ""):
        # Event.__init__ inlined: a process is created per request in hot models.
        self.engine = engine
        self.value = _PENDING
        self._waiters = []
        self._gen = gen
        self._send = gen.send
        self.name = name
        self._target = None
        self._wake = self._resume   # one bound method, reused for every wait
        # Start at once: the generator runs to its first yield before the
        # caller continues. Deterministic, and saves a heap entry per process.
        self._resume(None)

    def _resume(self, value: Any) -> None:
        send = self._send
        while True:
            try:
                cmd = send(value)
            except StopIteration as stop:
                self._target = None
                self.value = stop.value
                waiters, self._waiters = self._waiters, None
                if waiters:
                    eng = self.engine
                    for fn in waiters:
                        heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), fn, stop.value))
                return
            cls = cmd.__class__
            if cls is float or cls is int:
                if cmd < 0:
                    raise ValueError(f"negative timeout {cmd!r} in process {self.name!r}")
                eng = self.engine
                heappush(eng._heap, (eng.now + cmd, NORMAL, eng._next_seq(), self._wake, None))
                return
            v = cmd.value
            if v is _PENDING:
                # An event that has not triggered yet: wait for it.
                self._target = cmd
                cmd._waiters.append(self._wake)
                return
            if v is _ACQUIRE:
                # A resource yielded directly: take a server or queue for one.
                if not cmd._grab(self._wake):
                    return
                value = None
                continue
            value = v     # an event that already triggered: go straight on

    def interrupt(self, cause: Any = None) -> None:
        """Throw :class:`Interrupt` into the process at the current time."""
        if self.triggered:
            return
        target = self._target
        eng = self.engine
        if target is not None and target._waiters is not None:
            try:
                target._waiters.remove(self._resume)
            except ValueError:
                pass
        else:
            # Waiting on a timeout (or a wake-up already queued): drop it.
            # Interrupts are rare, so a linear scan keeps the hot path lean.
            me = self._resume
            kept = [e for e in eng._heap if e[3] != me]
            if len(kept) != len(eng._heap):
                eng._heap[:] = kept
                heapify(eng._heap)
        self._target = None

        def _throw(_arg: Any, self=self) -> None:
            try:
                cmd = self._gen.throw(Interrupt(cause))
            except StopIteration as stop:
                self.succeed(stop.value)
                return
            self._follow(cmd)

        heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), _throw, None))

    def _follow(self, cmd: Any) -> None:
        """Act on a value the generator yielded outside :meth:`_resume`."""
        eng = self.engine
        if cmd.__class__ is float or cmd.__class__ is int:
            heappush(eng._heap, (eng.now + cmd, NORMAL, eng._next_seq(), self._resume, None))
        elif cmd.value is _PENDING:
            self._target = cmd
            cmd._waiters.append(self._resume)
        else:
            self._resume(cmd.value)


def stream_seed(seed: int, name: str) -> int:
    """A 64-bit seed for the random stream ``name`` under run seed ``seed``.

    Derived by hashing, so streams are independent of each other and of the
    order in which components ask for them: adding a component never changes
    another component's random numbers.
    """
    digest = hashlib.sha256(f"{int(seed)}/{name}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


class Engine:
    """The event loop: one heap of ``(time, priority, seq, callback, arg)``.

    Parameters
    ----------
    seed : int
        Run seed. Every named random stream derives from it.
    """

    def __init__(self, seed: int = 1):
        self.now = 0.0
        self.seed = int(seed)
        self._heap: list = []
        self._next_seq = count().__next__
        self._streams: dict[str, random.Random] = {}
        self._np_streams: dict[str, np.random.Generator] = {}
        self.events_run = 0

    # -- scheduling ---------------------------------------------------------
    def schedule(self, delay: float, fn: Callable[[Any], None], arg: Any = None,
                 priority: int = NORMAL) -> None:
        """Call ``fn(arg)`` after ``delay`` time units."""
        if delay < 0:
            raise ValueError(f"cannot schedule {delay!r} in the past")
        heappush(self._heap, (self.now + delay, priority, self._next_seq(), fn, arg))

    def process(self, gen: Generator, name: str = "") -> Process:
        """Start a generator as a process (it runs to its first yield now)."""
        return Process(self, gen, name)

    def event(self) -> Event:
        """A fresh untriggered event."""
        return Event(self)

    def timeout(self, delay: float, value: Any = None) -> Event:
        """An event that triggers after ``delay``."""
        ev = Event(self)
        self.schedule(delay, ev.succeed, value)
        return ev

    def all_of(self, events: list[Event]) -> Event:
        """An event that triggers when every one of ``events`` has."""
        done = Event(self)
        remaining = [len(events)]
        if not events:
            return done.succeed([])

        def one(_v: Any) -> None:
            remaining[0] -= 1
            if remaining[0] == 0:
                done.succeed([e.value for e in events])

        for ev in events:
            ev.add_callback(one)
        return done

    # -- running ------------------------------------------------------------
    def peek(self) -> float:
        """Time of the next event, or ``inf`` when none is scheduled."""
        return self._heap[0][0] if self._heap else float("inf")

    def step(self) -> None:
        """Run exactly one event."""
        t, _p, _s, fn, arg = heappop(self._heap)
        self.now = t
        self.events_run += 1
        fn(arg)

    def run(self, until: float | None = None) -> float:
        """Run events until the heap is empty or the next is after ``until``.

        Returns the simulated time reached.
        """
        heap = self._heap
        pop = heappop
        n = 0
        if until is None:
            while heap:
                t, _p, _s, fn, arg = pop(heap)
                self.now = t
                fn(arg)
                n += 1
        else:
            while heap and heap[0][0] <= until:
                t, _p, _s, fn, arg = pop(heap)
                self.now = t
                fn(arg)
                n += 1
            if self.now < until:
                self.now = until
        self.events_run += n
        return self.now

    # -- random streams -----------------------------------------------------
    def stream(self, name: str) -> random.Random:
        """The named scalar random stream (fast per-draw, for hot paths)."""
        rng = self._streams.get(name)
        if rng is None:
            rng = self._streams[name] = random.Random(stream_seed(self.seed, name))
        return rng

    def np_stream(self, name: str) -> np.random.Generator:
        """The named numpy random stream (for drawing arrays at once)."""
        rng = self._np_streams.get(name)
        if rng is None:
            rng = self._np_streams[name] = np.random.default_rng(stream_seed(self.seed, "np/" + name))
        return rng
