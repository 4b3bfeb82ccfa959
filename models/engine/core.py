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

The hot path is :meth:`Engine.run`, which resumes processes itself; it avoids
attribute look-ups in its loop and allocates one tuple per timeout.
"""
from __future__ import annotations

import hashlib
import random
from heapq import heapify, heappop, heappush
from functools import partial
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
        # Created on first use: most events (a process per request) never
        # get a waiter, and the list would be allocated for nothing.
        self._waiters: list | None = None

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
            if self._waiters is None:
                self._waiters = [fn]
            else:
                self._waiters.append(fn)
        else:
            eng = self.engine
            heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), fn, self.value))


class Process(Event):
    """A running generator. It is itself an event that triggers on return.

    A process is resumed by :meth:`Engine.run` directly: heap entries and
    waiter lists hold the process object itself, and the run loop sends the
    value into the generator without a Python-level call in the common case
    (a timeout). :meth:`_handle` covers everything else.
    """

    __slots__ = ("_send", "name", "_target")

    def __init__(self, engine: "Engine", gen: Generator, name: str = ""):
        # Event.__init__ inlined: a process is created per request in hot models.
        self.engine = engine
        self.value = _PENDING
        self._waiters = None
        self._send = gen.send
        self.name = name
        self._target = None
        # Start at once: the generator runs to its first yield before the
        # caller continues. Deterministic, and saves a heap entry per process.
        try:
            cmd = gen.send(None)
        except StopIteration as stop:
            self._finish(stop.value)
            return
        if cmd.__class__ is float and cmd >= 0.0:
            heappush(engine._heap, (engine.now + cmd, NORMAL, engine._next_seq(), self, None))
        else:
            self._handle(cmd)

    def _resume(self, value: Any) -> None:
        """Send ``value`` into the generator and act on what it yields."""
        try:
            cmd = self._send(value)
        except StopIteration as stop:
            self._finish(stop.value)
            return
        self._handle(cmd)

    def _finish(self, value: Any) -> None:
        """The generator returned: trigger the process with its value."""
        self._target = None
        self.succeed(value)

    def _handle(self, cmd: Any) -> None:
        """Act on a yielded value; loops while it can go straight on."""
        send = self._send
        while True:
            cls = cmd.__class__
            if cls is float or cls is int:
                if cmd < 0:
                    raise ValueError(f"negative timeout {cmd!r} in process {self.name!r}")
                eng = self.engine
                heappush(eng._heap, (eng.now + cmd, NORMAL, eng._next_seq(), self, None))
                return
            v = cmd.value
            if v is _PENDING:
                # An event that has not triggered yet: wait for it.
                self._target = cmd
                if cmd._waiters is None:
                    cmd._waiters = [self]
                else:
                    cmd._waiters.append(self)
                return
            if v is _ACQUIRE:
                # A resource yielded directly: take a server or queue for one.
                users = cmd.users
                now = self.engine.now
                cmd.requests += 1
                if users < cmd.capacity:
                    cmd.busy_area += (now - cmd._t_last) * users
                    cmd._t_last = now
                    cmd.users = users + 1
                else:
                    cmd.queued_requests += 1
                    if cmd._fifo:
                        cmd._queue.append((now, self, None))
                    else:
                        cmd._enqueue(0, (now, self, None))
                    return
                v = None
            # Go straight on with the value (an event that already triggered).
            try:
                cmd = send(v)
            except StopIteration as stop:
                self._finish(stop.value)
                return

    def interrupt(self, cause: Any = None) -> None:
        """Throw :class:`Interrupt` into the process at the current time."""
        if self.triggered:
            return
        target = self._target
        eng = self.engine
        if target is not None and target.value is _PENDING and target._waiters:
            try:
                target._waiters.remove(self)
            except ValueError:
                pass
        else:
            # Waiting on a timeout (or a wake-up already queued): drop it.
            # Interrupts are rare, so a linear scan keeps the hot path lean.
            kept = [e for e in eng._heap if e[3] is not self]
            if len(kept) != len(eng._heap):
                eng._heap[:] = kept
                heapify(eng._heap)
        self._target = None

        def _throw(_arg: Any, self=self) -> None:
            try:
                cmd = self._send.__self__.throw(Interrupt(cause))
            except StopIteration as stop:
                self.succeed(stop.value)
                return
            self._handle(cmd)

        heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), _throw, None))


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

    ``callback`` is a :class:`Process` (resumed by the loop itself) or any
    callable taking one argument.

    Parameters
    ----------
    seed : int
        Run seed. Every named random stream derives from it.
    """

    __slots__ = ("now", "seed", "_heap", "_next_seq", "_streams", "_np_streams",
                 "events_run", "__dict__")

    def __init__(self, seed: int = 1):
        self.now = 0.0
        self.seed = int(seed)
        self._heap: list = []
        self._next_seq = count().__next__
        self._streams: dict[str, random.Random] = {}
        self._np_streams: dict[str, np.random.Generator] = {}
        self.events_run = 0
        # ``process`` as a C-level partial: processes are created per request
        # in hot models, and this saves a Python call each time.
        self.process = partial(Process, self)  # type: ignore[method-assign]

    # -- scheduling ---------------------------------------------------------
    def schedule(self, delay: float, fn: Callable[[Any], object], arg: Any = None,
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
        if fn.__class__ is Process:
            fn._resume(arg)
        else:
            fn(arg)

    def run(self, until: float | None = None) -> float:
        """Run events until the heap is empty or the next is after ``until``.

        Returns the simulated time reached.
        """
        heap = self._heap
        pop = heappop
        push = heappush
        nseq = self._next_seq
        proc_cls = Process
        n = 0
        horizon = float("inf") if until is None else until
        # The loop resumes processes itself: the common case (a process that
        # yields the next timeout) costs one generator send and one push.
        while heap:
            t, p, sq, fn, arg = pop(heap)
            if t > horizon:
                push(heap, (t, p, sq, fn, arg))   # not due yet: put it back
                break
            self.now = t
            n += 1
            if fn.__class__ is proc_cls:
                try:
                    cmd = fn._send(arg)
                except StopIteration as stop:
                    # Process ended: trigger it (inlined _finish).
                    fn._target = None
                    fn.value = v = stop.value
                    waiters = fn._waiters
                    fn._waiters = None
                    if waiters:
                        for w in waiters:
                            push(heap, (t, URGENT, nseq(), w, v))
                    continue
                if cmd.__class__ is float and cmd >= 0.0:
                    push(heap, (t + cmd, NORMAL, nseq(), fn, None))
                else:
                    fn._handle(cmd)
            else:
                fn(arg)
        if until is not None and self.now < until:
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
