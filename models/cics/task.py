"""A CICS task (one transaction) and the record/CI lock tables tasks queue on.

A :class:`LockTable` serves CICS record enqueues and VSAM CI exclusive
control under LSR, and the coupling facility lock structure under RLS. A
request that would close a cycle of waiters is refused (a deadlock): the
caller backs the unit of work out and retries it, as CICS does after an
AFCF/AFCW abend and restart. The victim restarts once the task it collided
with has finished, so retries cannot livelock.
"""
from __future__ import annotations

from collections import deque

from models.engine import Event

#: Request type codes, in the order of ``REQUEST_TYPES``.
READ, READ_UPDATE, UPDATE, ADD, DELETE, BROWSE = range(6)
REQUEST_TYPES = ("read", "read_update", "update", "add", "delete", "browse")
#: Types that lock a record (read for update, and the three that change data).
LOCKING = frozenset((READ_UPDATE, UPDATE, ADD, DELETE))
#: Types that write a CI.
WRITING = frozenset((UPDATE, ADD, DELETE))


class Task:
    """The state of one running transaction."""

    __slots__ = ("tid", "region", "tcb", "home_tcb", "locks", "blocked_on",
                 "pending_ru", "browse_next", "log_seq", "fr_seq", "updated",
                 "cf_locks", "reported_wait", "true_wait", "log_time",
                 "lock_time", "shipped", "cf_calls", "victim_of", "done",
                 "finished")

    def __init__(self, tid: int, region, tcb):
        self.tid = tid
        self.region = region
        self.tcb = tcb            # the TCB it runs on now (QR resource) or None
        self.home_tcb = tcb
        self.locks: list = []     # (table, key) held
        self.blocked_on: Task | None = None
        self.pending_ru: list = []     # records read for update, not yet rewritten
        self.browse_next = -1
        self.log_seq = 0          # last DFHLOG record this task buffered
        self.fr_seq = 0           # last forward-recovery record buffered
        self.updated = False
        self.cf_locks = 0         # CF lock structure entries held (RLS)
        self.reported_wait = 0.0  # file wait as CICS monitoring reports it
        self.true_wait = 0.0      # the same, had CICS recorded every case
        self.log_time = 0.0
        self.lock_time = 0.0
        self.shipped = False
        self.cf_calls = 0         # CF requests this task issued
        self.victim_of: Task | None = None   # whose lock closed a deadlock cycle
        self.done: Event | None = None       # triggered when the task ends
        self.finished = False

    def end(self) -> None:
        """Mark the task finished and wake deadlock victims waiting on it."""
        self.finished = True
        if self.done is not None:
            self.done.succeed()

    def wait_until_done(self, other: "Task", engine):
        """A deadlock victim waits for ``other`` to finish before retrying."""
        if other.finished:
            return
        if other.done is None:
            other.done = Event(engine)
        yield from self.wait_for(other.done)

    def suspend(self, delay: float):
        """Wait ``delay`` off the TCB (I/O): release it, then queue for it again."""
        tcb = self.tcb
        if tcb is not None:
            tcb.release()
            yield delay
            yield tcb
        else:
            yield delay

    def wait_for(self, event: Event):
        """Wait for ``event`` off the TCB (a lock, a log write)."""
        tcb = self.tcb
        if tcb is not None:
            tcb.release()
            yield event
            yield tcb
        else:
            yield event


class LockTable:
    """Exclusive locks on keys, FIFO waiters, deadlock detection.

    Parameters
    ----------
    engine : Engine
    name : str
        Shown in reports.
    """

    def __init__(self, engine, name: str):
        self.engine = engine
        self.name = name
        self.owner: dict = {}
        self.waiters: dict = {}
        self.requests = 0
        self.contentions = 0
        self.deadlocks = 0

    def acquire(self, key, task: Task):
        """Take ``key`` for ``task``.

        Returns
        -------
        None, Event or False
            ``None`` when granted at once (or already held), an event to wait
            for when another task holds it, ``False`` when waiting would
            deadlock.
        """
        self.requests += 1
        owner = self.owner.get(key)
        if owner is None:
            self.owner[key] = task
            task.locks.append((self, key))
            return None
        if owner is task:
            return None
        t = owner
        while t is not None:
            if t is task:
                self.deadlocks += 1
                task.victim_of = owner
                return False
            t = t.blocked_on
        self.contentions += 1
        ev = Event(self.engine)
        q = self.waiters.get(key)
        if q is None:
            q = self.waiters[key] = deque()
        q.append((task, ev))
        task.blocked_on = owner
        return ev

    def held_by(self, key, task: Task) -> bool:
        return self.owner.get(key) is task

    def release(self, key, task: Task) -> None:
        """Free ``key`` (held by ``task``); the first waiter gets it."""
        task.locks.remove((self, key))
        self._hand_on(key)

    def _hand_on(self, key) -> None:
        q = self.waiters.get(key)
        if not q:
            del self.owner[key]
            return
        nxt, ev = q.popleft()
        if not q:
            del self.waiters[key]
        self.owner[key] = nxt
        nxt.locks.append((self, key))
        nxt.blocked_on = None
        for other, _ev in q:
            other.blocked_on = nxt
        ev.succeed()


def release_all(task: Task) -> int:
    """Free every lock ``task`` holds (syncpoint or backout); returns how many."""
    held, task.locks = task.locks, []
    for table, key in held:
        table._hand_on(key)
    task.pending_ru.clear()
    return len(held)
