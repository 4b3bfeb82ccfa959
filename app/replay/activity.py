"""What every component of a run is doing at replay time t (numpy only, no Qt).

:func:`activity_at` is the overlay API: the canvas, the Activity strip and
any other view ask it for the state of each traced component (busy engines,
I/Os and queues on volumes, drives seeking or reading, tape drives changing
cartridges, the SPXTAPE buffer level) at a replay time. Every answer is a few
binary searches in :class:`~app.replay.data.ReplayData`, so it is the same
whether the replay got to ``t`` by playing forward or by scrubbing back.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from app.replay.data import ReplayData
from models.engine import trace_vocab as V

#: Phases of ``io_phase`` rows (docs/trace.md).
PHASES = V.PHASES
#: ``io_phase`` rows looked at to find queued I/Os: more than the I/Os a
#: volume can have in flight, few enough to keep a frame cheap.
PHASE_WINDOW = 512

_cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Activity:
    """The state of one component at one time.

    ``role`` is engine, volume, drive, control unit, tape, buffer, coupling
    facility or other; ``state`` a short word (idle, busy, seeking, reading,
    changing…); ``text`` one line for a student; ``level`` 0–1 where a bar
    fits (buffer fill, cache hit ratio) else None; ``count`` a number to
    show on the item (I/Os in flight, queue length), else 0.
    """

    role: str
    state: str
    text: str
    level: float | None = None
    count: int = 0
    queued: int = 0


def replay_data(trace_or_data) -> ReplayData:
    """The :class:`ReplayData` of a trace (built once per trace and kept)."""
    if isinstance(trace_or_data, ReplayData):
        return trace_or_data
    data = _cache.get(trace_or_data)
    if data is None or len(data) != len(trace_or_data):
        data = _cache[trace_or_data] = ReplayData(trace_or_data)
    return data


def activity_at(trace, t: float) -> dict[str, Activity]:
    """The state of every traced component at time ``t``.

    Parameters
    ----------
    trace : models.engine.Trace or ReplayData
        A finished run's trace.
    t : float
        Replay time in seconds.

    Returns
    -------
    dict
        Component name → :class:`Activity`, in the trace's component order.
    """
    data = replay_data(trace)
    return {name: component_activity(data, name, t) for name in data.components}


def component_activity(data: ReplayData, name: str, t: float) -> Activity:
    """The state of component ``name`` at ``t`` (see :func:`activity_at`)."""
    fn = _ROLES.get(data.role_of(name))
    return fn(data, name, t) if fn is not None else _other(data, name, t)


def _engine(data: ReplayData, name: str, t: float) -> Activity:
    row = data.last_of(name, V.CPU_BUSY, t)
    used = data.total(name, V.CPU_BUSY, "b", t)
    if row >= 0 and t < data.t[row] + data.b[row] * 1e-6:
        return Activity("engine", "busy", f"running work {data.a[row]}; {used} µs used",
                        count=1)
    return Activity("engine", "idle", f"idle; {used} µs used")


def _volume(data: ReplayData, name: str, t: float) -> Activity:
    if not len(data.rows_of(name, V.IO_START)):
        if len(data.rows_of(name, V.VOLUME_READ)):
            return _spool_volume(data, name, t, V.VOLUME_READ, "read", "reading")
        if len(data.rows_of(name, V.VOLUME_WRITE)):
            return _spool_volume(data, name, t, V.VOLUME_WRITE, "written", "writing")
    active = data.count_of(name, V.IO_START, t) - data.count_of(name, V.IO_END, t)
    queued = _queued(data, name, t) if active > 0 else 0
    done = data.count_of(name, V.IO_END, t)
    if active <= 0:
        return Activity("volume", "idle", f"idle; {done} I/Os done")
    phase = _last_phase(data, name, t)
    text = f"{active} I/O{'s' if active > 1 else ''} active"
    if phase:
        text += f" ({phase})"
    if queued:
        text += f", {queued} queued"
    return Activity("volume", "busy", text + f"; {done} done", count=active, queued=queued)


def _spool_volume(data: ReplayData, name: str, t: float, kind: str, done: str,
                  state: str) -> Activity:
    """A spool volume: pages read (a dump) or written (a load) so far, as a
    share of all it reads or writes in the run."""
    pages = data.total(name, kind, "a", t)
    everything = data.total(name, kind, "a", data.t1)
    times = data.times_of(name, kind)
    busy = times[0] <= t < times[-1]
    return Activity("volume", state if busy else "idle",
                    f"{pages:,} of {everything:,} spool pages {done}",
                    level=pages / everything if everything else 0.0, count=int(busy))


def _last_phase(data: ReplayData, name: str, t: float) -> str:
    row = data.last_of(name, V.IO_PHASE, t)
    return PHASES[data.b[row]] if row >= 0 and 0 <= data.b[row] < 4 else ""


def _queued(data: ReplayData, name: str, t: float) -> int:
    """I/Os of ``name`` whose latest phase by ``t`` is IOSQ (still queued)."""
    n = data.count_of(name, V.IO_PHASE, t)
    if n == 0:
        return 0
    rows = data.rows_of(name, V.IO_PHASE)[max(0, n - PHASE_WINDOW):n]
    ids, phases = data.a[rows][::-1], data.b[rows][::-1]
    _, first = np.unique(ids, return_index=True)   # latest row per I/O id
    latest_ids, latest = ids[first], phases[first]
    ended = data.a[data.rows_of(name, V.IO_END)[:data.count_of(name, V.IO_END, t)]]
    open_ = ~np.isin(latest_ids, ended[-PHASE_WINDOW:])
    return int(np.count_nonzero(open_ & (latest == 0)))


def _drive(data: ReplayData, name: str, t: float) -> Activity:
    seek = data.last_of(name, V.SEEK, t)
    read = data.last_of(name, V.TRACK_READ, t)
    nxt = data.next_of(name, V.TRACK_READ, t)
    if seek >= 0 and read < seek and nxt >= 0:
        # Between a seek and the first record after it the arm moves and the
        # platter turns to the record: the trace does not split the two.
        return Activity("drive", "seeking", f"positioning: cylinder {data.a[seek]} → "
                        f"{data.b[seek]}, then rotation", count=1)
    next_seek = data.next_of(name, V.SEEK, t)
    seeks_first = 0 <= next_seek < nxt
    if read >= 0 and nxt >= 0 and data.a[nxt] == data.a[read] and not seeks_first:
        return Activity("drive", "reading", f"reading track {data.a[read]}, "
                        f"record {data.b[read]}", count=1)
    n = data.count_of(name, V.TRACK_READ, t)
    return Activity("drive", "idle", f"idle; {n} record{'' if n == 1 else 's'} read")


def _control_unit(data: ReplayData, name: str, t: float) -> Activity:
    # A record the same disconnect also waits for counts as a hit, as in the
    # run's statistics (one miss per disconnect; docs/trace.md).
    hits = data.count_of(name, V.CACHE_HIT, t) + data.count_of(name, V.CACHE_WAIT, t)
    misses = data.count_of(name, V.CACHE_MISS, t)
    if hits + misses == 0:
        return Activity("control unit", "idle", "no read requests yet")
    ratio = hits / (hits + misses)
    staged = data.count_of(name, V.STAGE, t)
    return Activity("control unit", "busy", f"hits {hits}, misses {misses}, "
                    f"hit ratio {ratio:.2f}; {staged} stages", level=ratio)


def _tape(data: ReplayData, name: str, t: float) -> Activity:
    start = data.last_of(name, V.TAPE_CHANGE_START, t)
    end = data.last_of(name, V.TAPE_CHANGE_END, t)
    mb = (data.total(name, V.TAPE_WRITE, "a", t) + data.total(name, V.TAPE_READ, "a", t)) / 1e6
    if start > end:
        return Activity("tape", "changing", f"changing cartridge {data.a[start]} "
                        f"(rewind, unload, mount); {mb:.1f} MB so far", count=1)
    last = max(data.last_of(name, V.TAPE_WRITE, t), data.last_of(name, V.TAPE_READ, t))
    nxt = max(data.next_of(name, V.TAPE_WRITE, t), data.next_of(name, V.TAPE_READ, t))
    state = "busy" if last >= 0 and nxt >= 0 else "idle"
    return Activity("tape", state, f"{'moving data' if state == 'busy' else 'idle'}; "
                    f"{mb:.1f} MB so far", count=int(state == "busy"))


def _buffer(data: ReplayData, name: str, t: float) -> Activity:
    row = data.last_of(name, V.BUFFER_LEVEL, t)
    if row < 0:
        return Activity("buffer", "idle", "empty", level=0.0)
    pages, cap = int(data.a[row]), int(data.b[row])
    level = pages / cap if cap > 0 else 0.0
    return Activity("buffer", "busy" if pages else "idle",
                    f"{pages} of {cap} pages buffered ({100 * level:.0f} %)", level=level,
                    count=pages)


def _coupling(data: ReplayData, name: str, t: float) -> Activity:
    reqs = data.count_of(name, V.CF_REQUEST, t)
    waits = data.count_of(name, V.LOCK_WAIT, t)
    row = data.last_of(name, V.CF_REQUEST, t)
    busy = row >= 0 and t < data.t[row] + data.b[row] * 1e-6
    return Activity("coupling facility", "busy" if busy else "idle",
                    f"{reqs} requests, {waits} lock waits", count=int(busy))


def _other(data: ReplayData, name: str, t: float) -> Activity:
    cid = data.components.index(name)
    n = data.upto(t)
    mine = np.flatnonzero(data.comp[max(0, n - 4096):n] == cid)
    if not len(mine):
        return Activity("other", "idle", "no recent events")
    row = max(0, n - 4096) + int(mine[-1])
    return Activity("other", "busy", f"last: {data.kinds[data.kind[row]]} at "
                    f"{data.t[row] * 1e3:.3f} ms")


def _channel(data: ReplayData, name: str, t: float) -> Activity:
    """A channel path: doing an I/O's channel work (``channel_busy`` rows) or idle."""
    row = data.last_of(name, V.CHANNEL_BUSY, t)
    done = data.count_of(name, V.CHANNEL_BUSY, t)
    if row >= 0 and t < data.t[row] + data.b[row] * 1e-6:
        return Activity("channel", "busy", f"working for I/O {data.a[row]}; "
                                           f"{done} stretches so far", count=1)
    return Activity("channel", "idle", f"idle; {done} stretches so far")


_ROLES = {V.ZIIP: _engine, V.CP: _engine, V.VOL: _volume, V.DRV: _drive, V.CHP: _channel,
          V.CU: _control_unit, V.TAPE: _tape, V.BUF: _buffer, V.CF: _coupling}
