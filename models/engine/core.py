"""Event heap, processes, one-shot events and resources.

The heap orders entries by ``(time, priority, seq)``. ``seq`` is a global
counter, so two entries at the same time and priority always run in the
order they were scheduled: the same seed and parameters give the same run,
event for event.

Processes are generators. They ``yield``:

* a number: a timeout of that many time units (the engine's unit is the
  second, by convention of every zPerfLab model);
* an :class:`Event` (a resource request, another process, a hand-made event):
  the process resumes when it triggers, receiving its value;
* a :class:`Resource`: shorthand for "give me one server" (no request
  object; release with ``resource.release()``).

One source, two ways to run it. Interpreted, the heap is a ``heapq`` list of
``(time, priority, seq, callback, argument)`` tuples and :meth:`Engine.run`
resumes processes itself with as few look-ups as Python allows. Compiled by
Cython in pure-Python mode (``core.pxd`` declares the types; ``packaging/
setup.sh`` builds it), the classes are extension types with C doubles for
times, the heap is a C array of ``(time, priority, seq, slot)`` structs whose
slot indexes the callback and argument, and processes are resumed with
``PyIter_Send`` (no ``StopIteration`` per finished process); a finished
process nothing else holds is kept, emptied, for the next ``process``. The
branches ``if cython.compiled:`` hold the compiled-only parts; both order
events by the same key, so both run the same events in the same order
(``tests/models/test_engine_compiled.py`` checks it).
"""
from __future__ import annotations

import gc
import hashlib
import random
from collections import deque
from functools import partial
from heapq import heapify, heappop, heappush
from itertools import count
from typing import Any, Callable, Generator

import numpy as np

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    # (an assignment, not a class statement: core.pxd cimports ``cython``)
    from types import SimpleNamespace as _Namespace
    cython = _Namespace(compiled=False)  # type: ignore[assignment]

#: Priority of events that must run before ordinary ones at the same instant
#: (resuming a process whose event has just triggered).
URGENT = 0
NORMAL = 1
# The same, C integers compiled (core.pxd): the run loop's pushes take them
# without a module look-up.
_URGENT = URGENT
_NORMAL = NORMAL

_PENDING = object()
#: The ``value`` of a resource: yielding a resource acquires one of its servers.
_ACQUIRE = object()
_INF = float("inf")
#: A FIFO resource's queue operations, called on the deque without a method
#: look-up per queued request (compiled: C globals).
_deque_append = deque.append
_deque_popleft = deque.popleft

#: True when this module is the compiled extension.
COMPILED = bool(cython.compiled)

if not cython.compiled:
    # Declared in core.pxd for the compiled branches only (the C heap's
    # struct, libc's allocator, the generator send, the reference count);
    # never used interpreted.
    _Entry: Any = None
    Py_REFCNT: Any = None
    _gen_send: Any = None
    free: Any = None
    realloc: Any = None


class Interrupt(Exception):
    """Thrown into a process by :meth:`Process.interrupt`."""

    def __init__(self, cause: Any = None):
        super().__init__(cause)
        self.cause = cause


def stream_seed(seed: int, name: str) -> int:
    """A 64-bit seed for the random stream ``name`` under run seed ``seed``.

    Derived by hashing, so streams are independent of each other and of the
    order in which components ask for them: adding a component never changes
    another component's random numbers.
    """
    digest = hashlib.sha256(f"{int(seed)}/{name}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _before(a, b):
    """Compiled heap order: ``a`` runs before ``b`` (time, priority, seq)."""
    if a.t != b.t:
        return a.t < b.t
    if a.prio != b.prio:
        return a.prio < b.prio
    return a.seq < b.seq


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
        self._streams: dict[str, random.Random] = {}
        self._np_streams: dict[str, np.random.Generator] = {}
        self.events_run = 0
        self._heap: list = []
        if cython.compiled:
            # The C heap's arrays (and ``_n``, ``_cap``, ``_nfree``, ``_seq``)
            # start empty, at zero: the first push grows them.
            self._fns: list = []
            self._args: list = []
            self._n = self._cap = self._nfree = 0
            self._seq = 0
            # Finished processes no one else holds, emptied, for ``process``
            # to fill again: no allocation and deallocation per request.
            self._spare: list = []
        else:
            self._next_seq = count().__next__
            # ``process`` as a C-level partial: processes are created per
            # request in hot models, and this saves a Python call each time.
            self.process = partial(Process, self)  # type: ignore[method-assign]

    def __dealloc__(self):
        if cython.compiled:
            free(self._h)
            free(self._free)

    # -- the compiled heap ----------------------------------------------------
    def _grow(self):
        """Compiled: double the heap's C arrays and the slots beside them."""
        if cython.compiled:
            old: cython.Py_ssize_t = self._cap
            new: cython.Py_ssize_t = 2 * old if old else 64
            h = realloc(self._h, new * cython.sizeof(_Entry))
            if h == cython.NULL:
                raise MemoryError()
            self._h = cython.cast(cython.pointer(_Entry), h)
            f = realloc(self._free, new * cython.sizeof(cython.Py_ssize_t))
            if f == cython.NULL:
                raise MemoryError()
            self._free = cython.cast(cython.pointer(cython.Py_ssize_t), f)
            self._fns.extend([None] * (new - old))
            self._args.extend([None] * (new - old))
            i: cython.Py_ssize_t
            for i in range(new - 1, old - 1, -1):
                self._free[self._nfree] = i
                self._nfree += 1
            self._cap = new

    def _push(self, t, prio, fn, arg):
        """Put ``fn(arg)`` on the heap at time ``t`` and ``prio``."""
        if cython.compiled:
            if self._nfree == 0:
                self._grow()
            self._nfree -= 1
            slot: cython.Py_ssize_t = self._free[self._nfree]
            self._fns[slot] = fn
            if arg is not None:     # a free slot's argument is None already
                self._args[slot] = arg
            e: _Entry = _Entry(t=t, prio=prio, seq=self._seq, slot=slot)
            self._seq += 1
            h = self._h
            i: cython.Py_ssize_t = self._n
            parent: cython.Py_ssize_t
            self._n += 1
            while i > 0:
                parent = (i - 1) >> 1
                if _before(e, h[parent]):
                    h[i] = h[parent]
                    i = parent
                else:
                    break
            h[i] = e
        else:
            heappush(self._heap, (t, prio, self._next_seq(), fn, arg))

    def _sift_down(self, i, n):
        """Compiled: move entry ``i`` down to its place among the first ``n``."""
        if cython.compiled:
            h = self._h
            item: _Entry = h[i]
            c: cython.Py_ssize_t
            while True:
                c = 2 * i + 1
                if c >= n:
                    break
                if c + 1 < n and _before(h[c + 1], h[c]):
                    c += 1
                if _before(h[c], item):
                    h[i] = h[c]
                    i = c
                else:
                    break
            h[i] = item

    def _pop(self):
        """Compiled: take the first entry off the heap; returns its slot."""
        if cython.compiled:
            h = self._h
            slot: cython.Py_ssize_t = h[0].slot
            self._n -= 1
            if self._n > 0:
                h[0] = h[self._n]
                self._sift_down(0, self._n)
            return slot
        return 0

    def _release_slot(self, slot):
        """Compiled: forget a popped entry's callback and argument."""
        if cython.compiled:
            self._fns[slot] = None
            self._args[slot] = None
            self._free[self._nfree] = slot
            self._nfree += 1

    def _drop(self, proc):
        """Remove every heap entry that would resume ``proc`` (interrupts: rare)."""
        if cython.compiled:
            h = self._h
            kept: cython.Py_ssize_t = 0
            i: cython.Py_ssize_t
            for i in range(self._n):
                if self._fns[h[i].slot] is proc:
                    self._release_slot(h[i].slot)
                else:
                    h[kept] = h[i]
                    kept += 1
            if kept != self._n:
                self._n = kept
                for i in range(kept // 2 - 1, -1, -1):
                    self._sift_down(i, kept)
        else:
            kept = [e for e in self._heap if e[3] is not proc]
            if len(kept) != len(self._heap):
                self._heap[:] = kept
                heapify(self._heap)

    # -- scheduling ---------------------------------------------------------
    def schedule(self, delay: float, fn: Callable[[Any], object], arg: Any = None,
                 priority: int = NORMAL) -> None:
        """Call ``fn(arg)`` after ``delay`` time units."""
        if delay < 0:
            raise ValueError(f"cannot schedule {delay!r} in the past")
        self._push(self.now + delay, priority, fn, arg)

    def process(self, gen: Generator, name: str = "") -> Process:
        """Start a generator as a process (it runs to its first yield now)."""
        if cython.compiled:
            # A spare process or straight to the allocator, and the C start:
            # no argument parsing by ``__init__`` per request.
            spare = self._spare
            p: Process = spare.pop() if spare else Process.__new__(Process)
            p._start(self, gen, name)
            return p
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
        if cython.compiled:
            return self._h[0].t if self._n else _INF
        return self._heap[0][0] if self._heap else _INF

    def step(self) -> None:
        """Run exactly one event."""
        if cython.compiled:
            if self._n == 0:
                raise IndexError("step from an empty heap")
            self.now = self._h[0].t
            slot: cython.Py_ssize_t = self._pop()
            fn = self._fns[slot]
            arg = self._args[slot]
            self._release_slot(slot)
        else:
            t, _p, _s, fn, arg = heappop(self._heap)
            self.now = t
        self.events_run += 1
        if type(fn) is Process:
            p: Process = fn
            p._resume(arg)
        else:
            fn(arg)

    def run(self, until: float | None = None) -> float:
        """Run events until the heap is empty or the next is after ``until``.

        Returns the simulated time reached. The cyclic garbage collector is
        paused while it runs (see models/engine/gcpause.py): every run, of
        any model, gives the same figures and skips the collector's walks.
        """
        gc_was = gc.isenabled()
        if gc_was:
            gc.disable()
        try:
            return self._run(until)
        finally:
            if gc_was:
                gc.enable()

    def _run(self, until: Any) -> float:
        """:meth:`run` with the collector paused."""
        horizon = _INF if until is None else until
        if cython.compiled:
            n: cython.longlong = 0
            h_t: cython.double = horizon
            slot: cython.Py_ssize_t
            p: Process
            fns: list = self._fns
            args: list = self._args
            spare: list = self._spare
            # An entry is read, popped and its slot freed before its callback
            # runs: the callback may push (and grow the arrays; the lists
            # grow in place).
            while self._n > 0:
                t: cython.double = self._h[0].t
                if t > h_t:
                    break
                slot = self._pop()
                fn = fns[slot]
                arg = args[slot]
                fns[slot] = None
                if arg is not None:
                    args[slot] = None
                self._free[self._nfree] = slot
                self._nfree += 1
                self.now = t
                n += 1
                if type(fn) is Process:
                    p = cython.cast(Process, fn)    # checked just above
                    p._resume(arg)
                    if p.value is not _PENDING and Py_REFCNT(p) == 2 and len(spare) < 256:
                        # It ended and only ``fn`` and ``p`` hold it (typed
                        # locals own their references): keep it for the next
                        # ``process`` call, emptied now (its generator and
                        # value freed as its deallocation would free them).
                        p.engine = None
                        p._gen = None
                        p.value = _PENDING
                        spare.append(p)
                elif isinstance(fn, Step):
                    cython.cast(Step, fn).fire(arg)
                else:
                    fn(arg)
        else:
            heap = self._heap
            pop = heappop
            push = heappush
            nseq = self._next_seq
            proc_cls = Process
            n = 0
            # The loop resumes processes itself: the common case (a process
            # that yields the next timeout) costs one generator send and one push.
            while heap:
                t, p_, sq, fn, arg = pop(heap)
                if t > horizon:
                    push(heap, (t, p_, sq, fn, arg))   # not due yet: put it back
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


class Step:
    """Something the engine resumes itself, without a process: scheduled as
    a callback (``engine._push(t, priority, step, arg)``), its
    :meth:`fire` is called when the event comes. Compiled, the run loop
    calls it through C (an I/O request, models/io/volume.py, is one)."""

    __slots__ = ()

    def fire(self, arg: Any) -> None:
        raise NotImplementedError

    def __call__(self, arg: Any) -> None:
        """A callback as any other (``schedule``, the interpreted run loop)."""
        self.fire(arg)


class Event:
    """A one-shot event. Processes that yield it resume when it triggers."""

    __slots__ = ("engine", "value", "_waiters")

    def __init__(self, engine: Engine):
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
        waiters = self._waiters
        self._waiters = None
        if waiters:
            eng: Engine = self.engine
            for fn in waiters:
                eng._push(eng.now, _URGENT, fn, value)
        return self

    def add_callback(self, fn: Callable[[Any], None]) -> None:
        """Call ``fn(value)`` when the event triggers (at once if it has)."""
        if self.value is _PENDING:
            if self._waiters is None:
                self._waiters = [fn]
            else:
                self._waiters.append(fn)
        else:
            eng: Engine = self.engine
            eng._push(eng.now, _URGENT, fn, self.value)


class Process(Event):
    """A running generator. It is itself an event that triggers on return.

    A process is resumed by :meth:`Engine.run` directly: heap entries and
    waiter lists hold the process object itself, and the run loop sends the
    value into the generator without a Python-level call in the common case
    (a timeout). :meth:`_handle` covers everything else.
    """

    # ``_t_queued``: set compiled only (core.pxd), when the process is queued
    # on a FIFO resource, which then holds the process itself.
    __slots__ = ("_gen", "_send", "name", "_target", "_t_queued")
    _t_queued: float

    def __init__(self, engine: Engine, gen: Generator, name: str = ""):
        if cython.compiled:
            self._start(engine, gen, name)
            return
        # Event.__init__ inlined: a process is created per request in hot models.
        self.engine = engine
        self.value = _PENDING
        self._waiters = None
        self._gen = gen
        self.name = name
        self._target: Any = None
        # Start at once: the generator runs to its first yield before the
        # caller continues. Deterministic, and saves a heap entry per process.
        self._send: Any = gen.send
        try:
            cmd = gen.send(None)
        except StopIteration as stop:
            self._finish(stop.value)
            return
        if cmd.__class__ is float and cmd >= 0.0:
            heappush(engine._heap, (engine.now + cmd, NORMAL, engine._next_seq(), self, None))
        else:
            self._handle(cmd)

    def _start(self, engine, gen, name):
        """Compiled: fill a new process and run it to its first yield."""
        if cython.compiled:
            # ``_waiters`` and ``_target`` are None from the allocator.
            self.engine = engine
            self.value = _PENDING
            self._gen = gen
            self.name = name
            self._resume(None)

    def _resume(self, value: Any) -> None:
        """Send ``value`` into the generator and act on what it yields."""
        if cython.compiled:
            done: cython.bint = False
            cmd = _gen_send(self._gen, value, cython.address(done))
            if done:
                self._finish(cmd)
                return
            if type(cmd) is float:
                d: cython.double = cmd
                if d >= 0.0:
                    eng: Engine = self.engine
                    eng._push(eng.now + d, _NORMAL, self, None)
                    return
            self._handle(cmd)
            return
        try:
            cmd = self._send(value)
        except StopIteration as stop:
            self._finish(stop.value)
            return
        self._handle(cmd)

    def _finish(self, value: Any) -> None:
        """The generator returned: trigger the process with its value."""
        self._target = None
        if cython.compiled:
            # Most processes end unawaited: nothing to wake (succeed inlined).
            if self._waiters is None and self.value is _PENDING:
                self.value = value
                return
        self.succeed(value)

    def _handle(self, cmd: Any) -> None:
        """Act on a yielded value; loops while it can go straight on."""
        eng: Engine = self.engine
        while True:
            cls = type(cmd)
            if cython.compiled:
                if cls is float:
                    d: cython.double = cmd
                    if d >= 0.0:
                        eng._push(eng.now + d, _NORMAL, self, None)
                        return
            if cls is float or cls is int:
                if cmd < 0:
                    raise ValueError(f"negative timeout {cmd!r} in process {self.name!r}")
                if cython.compiled:
                    eng._push(eng.now + cmd, _NORMAL, self, None)
                else:   # the heap push inlined: a Python call less per timeout
                    heappush(eng._heap, (eng.now + cmd, NORMAL, eng._next_seq(), self, None))
                return
            if cython.compiled:
                if isinstance(cmd, Event):
                    ev: Event = cmd
                    v = ev.value
                    if v is _PENDING:
                        # An event that has not triggered yet: wait for it.
                        self._target = ev
                        if ev._waiters is None:
                            ev._waiters = [self]
                        else:
                            ev._waiters.append(self)
                        return
                elif isinstance(cmd, Resource):
                    res: Resource = cmd
                    if not res._acquire(self):
                        return
                    v = None
                else:
                    v = cmd.value
            else:
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
                    # A resource yielded directly: take a server or queue for
                    # one (Resource._acquire inlined: a Python call less).
                    users = cmd.users
                    now = eng.now
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
            if cython.compiled:
                done: cython.bint = False
                cmd = _gen_send(self._gen, v, cython.address(done))
                if done:
                    self._finish(cmd)
                    return
            else:
                try:
                    cmd = self._send(v)
                except StopIteration as stop:
                    self._finish(stop.value)
                    return

    def interrupt(self, cause: Any = None) -> None:
        """Throw :class:`Interrupt` into the process at the current time."""
        if self.value is not _PENDING:
            return
        target = self._target
        eng: Engine = self.engine
        if target is not None and target.value is _PENDING and target._waiters:
            try:
                target._waiters.remove(self)
            except ValueError:
                pass
        else:
            # Waiting on a timeout (or a wake-up already queued): drop it.
            # Interrupts are rare, so a linear scan keeps the hot path lean.
            eng._drop(self)
        self._target = None
        eng._push(eng.now, _URGENT, partial(_throw, self, cause), None)


def _throw(proc: Process, cause: Any, _arg: Any) -> None:
    """Resume ``proc`` by raising :class:`Interrupt` in it."""
    try:
        cmd = proc._gen.throw(Interrupt(cause))
    except StopIteration as stop:
        proc.succeed(stop.value)
        return
    proc._handle(cmd)


class Request(Event):
    """A request for one server of a resource; triggers when granted."""

    __slots__ = ("resource", "priority", "t_request", "t_grant")

    def __init__(self, resource: Resource, priority: int = 0):
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
    #: the queue (see :meth:`_acquire`).
    value = _ACQUIRE

    def __init__(self, engine: Engine, capacity: Any = 1, name: str = ""):
        if capacity < 1:
            raise ValueError("a resource needs at least one server")
        if capacity != int(capacity):
            raise ValueError(f"a resource has a whole number of servers, not {capacity!r}")
        self.engine = engine
        # An int either way (3.0 from a parameter file is 3): the compiled
        # engine holds it as a C long.
        self.capacity = int(capacity)
        self.name = name
        self.users = 0
        #: Plain FIFO queue (a deque appended to directly).
        self._fifo = True
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
        waiting = sum(now - _queued_at(entry) for entry in self._queue)
        t = now if elapsed is None else elapsed
        return (self.wait_total + waiting) / t if t > 0 else 0.0

    def mean_wait(self) -> float:
        """Mean queueing delay of the requests granted so far."""
        granted = self.requests - len(self._queue)
        return self.wait_total / granted if granted else 0.0

    # -- protocol -----------------------------------------------------------
    def _acquire(self, proc: Process) -> bool:
        """``proc`` yielded the resource: take a server (True) or queue (False)."""
        users: cython.long = self.users
        now: cython.double = self.engine.now
        self.requests += 1
        if users < self.capacity:
            self.busy_area += (now - self._t_last) * users
            self._t_last = now
            self.users = users + 1
            return True
        self.queued_requests += 1
        if self._fifo:
            if cython.compiled:
                # The process itself, its time queued in a C field: no tuple
                # and no float object per queued request.
                proc._t_queued = now
                _deque_append(self._queue, proc)
            else:
                self._queue.append((now, proc, None))
        else:
            self._enqueue(0, (now, proc, None))
        return False

    def try_take(self) -> bool:
        """Take a free server now, as yielding the resource does when one is
        free (the same statistics), without a trip through the process loop;
        False, changing nothing, when none is free (then yield the resource)."""
        return self._take()

    def _take(self) -> bool:
        """:meth:`try_take`, for compiled callers a C call: ``try_take`` is
        ``cpdef`` on a type with a ``__dict__``, so each call of it looks
        for an override by name (the look-up's one-entry cache misses as a
        thousand volumes' resources take turns)."""
        users: cython.long = self.users
        if users >= self.capacity:
            return False
        now: cython.double = self.engine.now
        self.requests += 1
        self.busy_area += (now - self._t_last) * users
        self._t_last = now
        self.users = users + 1
        return True

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
            if cython.compiled and self._fifo:
                _deque_append(self._queue, req)     # queued since req.t_request
            else:
                self._enqueue(priority, (req.t_request, None, req))
        return req

    def release(self, req: Request | None = None) -> None:
        """Give a server back; the next queued request (if any) gets it.

        Releasing a request that is still queued withdraws it.
        """
        if req is not None and req.value is _PENDING:
            self._withdraw(req)
            return
        self._give()

    def _give(self) -> None:
        """:meth:`release` of a server taken (no request to withdraw); for
        compiled callers a C call (see :meth:`_take`)."""
        if self._queue:
            if cython.compiled:
                if self._fifo:
                    # Compiled FIFO entries: a queued Process or Request.
                    entry = _deque_popleft(self._queue)
                    if type(entry) is Process:
                        p: Process = entry
                        e: Engine = self.engine
                        self.wait_total += e.now - p._t_queued
                        e._push(e.now, _URGENT, p, None)
                    else:
                        r: Request = entry
                        self._grant(r.t_request, None, r)
                    return
            t_queued: cython.double
            t_queued, wake, waiting = self._queue.popleft() if self._fifo else self._dequeue()
            if waiting is None:
                # A process that yielded the resource itself: resume it now.
                eng: Engine = self.engine
                self.wait_total += eng.now - t_queued
                if cython.compiled:
                    eng._push(eng.now, _URGENT, wake, None)
                else:
                    heappush(eng._heap, (eng.now, URGENT, eng._next_seq(), wake, None))
            else:
                self._grant(t_queued, wake, waiting)
        else:
            now = self.engine.now
            self.busy_area += (now - self._t_last) * self.users
            self._t_last = now
            self.users -= 1

    def _grant(self, t_queued: float, wake: Any, req: Request | None) -> None:
        eng: Engine = self.engine
        now = eng.now
        self.wait_total += now - t_queued
        if req is None:
            eng._push(now, _URGENT, wake, None)
            return
        req.t_grant = now
        req.value = req
        waiters = req._waiters
        req._waiters = None
        for fn in waiters or ():
            eng._push(now, _URGENT, fn, req)

    def _enqueue(self, priority, entry):
        self._queue.append(entry)

    def _dequeue(self) -> tuple:
        return self._queue.popleft()

    def _withdraw(self, req: Request) -> None:
        self.requests -= 1
        self._queue = type(self._queue)(e for e in self._queue if _queued_req(e) is not req)


def _queued_at(entry) -> float:
    """When a resource queue's entry was queued.

    Entries are ``(time, wake-up, Request or None)`` tuples, or (compiled
    FIFO queues) the queued :class:`Process` or :class:`Request` itself."""
    if cython.compiled:
        if type(entry) is Process:
            p: Process = entry
            return p._t_queued
        if isinstance(entry, Request):
            r: Request = entry
            return r.t_request
    return entry[-3]


def _queued_req(entry):
    """The :class:`Request` of a resource queue's entry, or None."""
    if cython.compiled:
        if type(entry) is Process:
            return None
        if isinstance(entry, Request):
            return entry
    return entry[-1]


class PriorityResource(Resource):
    """A resource whose queue serves the lowest ``priority`` value first."""

    def __init__(self, engine: Engine, capacity: Any = 1, name: str = ""):
        super().__init__(engine, capacity, name)
        self._fifo = False
        self._queue = []
        self._order = 0

    def _enqueue(self, priority, entry):
        self._order += 1
        heappush(self._queue, (priority, self._order, *entry))

    def _dequeue(self) -> tuple:
        return heappop(self._queue)[2:]

    def _withdraw(self, req: Request) -> None:
        self.requests -= 1
        self._queue = [e for e in self._queue if e[-1] is not req]
        self._queue.sort()
