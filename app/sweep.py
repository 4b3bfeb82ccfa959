"""Parameter sweeps: run one experiment over a range of one parameter, for
several variants (e.g. sampling 1–99 % for FICON/zHPF × 10K/15K/SSD), on all
cores.

Points run in a ``concurrent.futures.ProcessPoolExecutor`` with the
``spawn`` context (no forked Qt state), each calling
``models.experiments.run_experiment`` with the sweep's one seed, so a curve
is the same whatever the pool size or completion order. :class:`SweepWorker`
runs a sweep off the GUI thread with progress and cancel (QtCore only).

Cancel reaches the points already running, not only those still queued: the
pool's processes share one ``multiprocessing`` event, given to each point as
``run_experiment``'s ``cancel``, so a model stops at its next progress report
(``RunContext.progress`` raises ``Cancelled``) and the cores are free when
:func:`run_sweep` returns. A pool process also ends by itself when the
sweep's process dies, even by ``kill -9`` (:func:`_leave_with_parent`).

:func:`run_points` is the engine under both the Sweep tab and ``zperflab
sweep``: any list of ``(overrides, seed)`` points, on the local pool or —
:func:`run_points_dask` — on an existing Dask distributed cluster through
``dask.distributed.Client(address)`` (Dask's own scheduler and workers; the
workers need zperflab installed). A cancelled run raises
:class:`SweepCancelled` carrying the points that finished.

Finished points are kept whatever fails: each runner fills the caller's
``out`` list as points arrive, and a failure of the machinery (a pool
process killed, the Dask scheduler gone, no Dask worker left for
:data:`DASK_NO_WORKER_S`) raises :class:`SweepStopped`, one line, with the
finished points. Dask's own scheduler resubmits a dead worker's points to
the survivors, and the drawing they share (a task of its own, where a
scattered copy could not be rebuilt); results are fetched as they finish, since a worker takes
its results with it when it dies.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence

from models.studies.sweep import (DEFAULT_RUNNER, SweepCancelled, SweepResult, SweepSpec,  # noqa: F401
                          point_metrics)

#: In a pool process: the sweep's shared cancel event (set by :func:`_init_worker`).
_CANCEL = None
#: How long to wait for a Dask scheduler to answer.
DASK_CONNECT_S = 20
#: A Dask scheduler greets a new connection at once; silence this long means
#: the address is some other service.
DASK_GREETING_S = 5.0
#: A Dask sweep with no worker for this long stops (its points would wait for ever).
DASK_NO_WORKER_S = 60.0
#: How often a Dask sweep asks the scheduler how many workers it has.
DASK_CHECK_S = 1.0


def _init_worker(cancel) -> None:
    global _CANCEL
    _CANCEL = cancel
    # Ctrl-C at a terminal reaches the whole process group: the parent turns
    # it into the cancel event, so a point stops at its next progress report
    # instead of dying with a traceback and breaking the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _leave_with_parent()


def _leave_with_parent() -> None:
    """End this pool process as soon as the sweep's process ends, however it
    ends (``kill -9`` included).

    Otherwise it would wait on the pool's queue for ever (it holds both ends
    of that pipe, so it never sees the parent go), and the resource tracker
    with it. ``parent_process().join()`` waits on the pipe the parent spawned
    this process through, whose far end only the parent holds: it returns
    when the parent is gone, at once if it already is. Unlike Linux's
    ``PR_SET_PDEATHSIG`` this works on every platform, cannot miss a parent
    that died before it was set, and is not fired by the end of the *thread*
    that started the pool (the GUI runs sweeps from a QThread).
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(1)         # nobody is left to take the point's result
    threading.Thread(target=watch, name="zperflab-parent-watch", daemon=True).start()


def run_point(runner: str, experiment: str, overrides: dict, seed: int,
              scenario: dict | None = None) -> dict:
    """Run one point (in a worker process); returns its metrics as floats.

    Raises ``models.core.run.Cancelled`` when the sweep is cancelled mid-point.
    """
    return point_metrics(runner, experiment, overrides, seed, _CANCEL, scenario)


def default_workers() -> int:
    """All cores."""
    return max(1, os.cpu_count() or 1)


def run_sweep(spec: SweepSpec, workers: int | None = None,
              progress: Callable[[int, int], None] | None = None,
              cancel: threading.Event | None = None) -> SweepResult:
    """Run every point of ``spec`` on a process pool.

    Raises
    ------
    SweepCancelled
        ``cancel`` was set; queued points are dropped and running points
        stop at their model's next progress report (this call returns once
        they have).
    ParamError, NotImplementedYet
        From the first point that fails (the rest are cancelled).
    """
    points = spec.points()
    metrics = run_points(spec.runner, spec.experiment, [(over, spec.seed) for _, _, over in points],
                         spec.scenario, workers, progress, cancel)
    out: list[list[dict]] = [[{} for _ in spec.values] for _ in spec.variants]
    for (v, i, _over), m in zip(points, metrics):
        out[v][i] = m
    return SweepResult(spec, tuple(tuple(row) for row in out))


def run_points(runner: str, experiment: str, points: Sequence[tuple[dict, int]],
               scenario: dict | None = None, workers: int | None = None,
               progress: Callable[[int, int], None] | None = None,
               cancel: threading.Event | None = None,
               out: list | None = None) -> list[dict]:
    """Run ``(overrides, seed)`` points on a local process pool; their metrics
    in point order.

    ``out``, when given, is filled in place as points finish (``None`` for
    the rest), so a caller keeps them whatever this call raises.

    Raises
    ------
    SweepCancelled
        ``cancel`` was set; ``partial`` holds the finished points' metrics
        (``None`` for the rest). Running points stop at their model's next
        progress report, and this call returns once they have.
    SweepStopped
        A pool process died (killed, or out of memory); ``partial`` as above.
    ParamError, NotImplementedYet
        From the first point that fails (the rest are cancelled).
    """
    out = _slots(out, len(points))
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    pool = ProcessPoolExecutor(max_workers=workers or default_workers(), mp_context=ctx,
                               initializer=_init_worker, initargs=(stop,))
    try:
        pending = {pool.submit(run_point, runner, experiment, over, seed, scenario): n
                   for n, (over, seed) in enumerate(points)}
        done_count = 0
        while pending:
            try:
                done, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:       # a second Ctrl-C: stop now, keep what finished
                _keep_finished(pending, out)
                raise SweepCancelled("sweep interrupted", out) from None
            if cancel is not None and cancel.is_set():
                _keep_finished(pending, out)
                raise SweepCancelled("sweep cancelled", out)
            for fut in done:
                n = pending.pop(fut)
                try:
                    out[n] = fut.result()
                except BrokenProcessPool:
                    _keep_finished(pending, out)
                    raise SweepStopped("a sweep process died (killed, or out of memory)",
                                       out) from None
                done_count += 1
                if progress is not None:
                    progress(done_count, len(points))
    finally:
        # Stop the points still running too, and wait for them, so a
        # cancelled or failed sweep leaves no core busy.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    return out


def _slots(out: list | None, n: int) -> list:
    if out is None:
        return [None] * n
    out[:] = [None] * n
    return out


def _keep_finished(pending: dict, out: list) -> None:
    """Points that finished in the same instant as the cancel still count."""
    for fut, n in pending.items():
        if fut.done() and not fut.cancelled() and fut.exception() is None:
            out[n] = fut.result()


def run_points_dask(address: Any, runner: str, experiment: str,
                    points: Sequence[tuple[dict, int]], scenario: dict | None = None,
                    progress: Callable[[int, int], None] | None = None,
                    cancel: threading.Event | None = None,
                    out: list | None = None) -> list[dict]:
    """Run the same points as :func:`run_points` on an existing Dask
    distributed cluster: ``dask.distributed.Client(address)`` (a scheduler
    address such as ``tcp://host:8786``, or a cluster object), one task per
    point, each :func:`models.studies.sweep.point_metrics` — the same numbers as the
    local pool, whatever the workers. ``out`` as in :func:`run_points`.

    Cancel drops the queued tasks; tasks already running on a worker cannot
    be interrupted there and are left to finish and be discarded. A worker
    that dies has its points run again by the others (Dask's scheduler does
    that); with no worker at all for :data:`DASK_NO_WORKER_S` the sweep stops.

    Raises
    ------
    SweepCancelled
        As :func:`run_points`.
    SweepStopped
        The scheduler went away, no worker was left for
        :data:`DASK_NO_WORKER_S`, or a point kept killing its workers;
        ``partial`` holds the points that finished.
    ClusterError
        Dask is not installed, or the address is not a Dask scheduler that
        answers.
    ParamError, NotImplementedYet
        From the first point that fails.
    """
    try:
        from dask.distributed import Client
    except ImportError:
        raise ClusterError("--dask needs Dask: pip install 'zperflab[cluster]'") from None
    if isinstance(address, str):
        _check_dask_address(address)
    quiet = _quiet_dask_logs()
    try:
        client = Client(address, timeout=DASK_CONNECT_S, set_as_default=False)
    except Exception as exc:  # noqa: BLE001  any failure to connect is one line, never a trace
        _restore_logs(quiet)
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: "
                           f"{type(exc).__name__}: {exc}") from None
    out = _slots(out, len(points))
    try:
        # The drawing goes once, as a task the points depend on (its result is
        # None for an experiment's own case study): when the worker holding it
        # dies, the scheduler runs it again, as it runs a dead worker's points
        # again. A scattered copy could not be rebuilt, and its loss cancelled
        # every point of a --scenario sweep.
        drawing = client.submit(_the_drawing, scenario, pure=False)
        futures = [client.submit(point_metrics, runner, experiment, over, seed, None, drawing,
                                 pure=False) for over, seed in points]
        _gather_as_finished(client, address, futures, out, progress, cancel)
    finally:
        try:
            client.close(timeout=5)
        except (OSError, TimeoutError, RuntimeError):
            pass            # the scheduler is gone already: nothing left to close
        _restore_logs(quiet)
    return out


def _the_drawing(scenario: dict | None) -> dict | None:
    """On a Dask worker: the sweep's drawing, for its points to take."""
    return scenario


def _gather_as_finished(client, address, futures: list, out: list, progress, cancel) -> None:
    """Fetch each point's result as it finishes; watch the scheduler and workers."""
    pending = dict(zip(futures, range(len(futures))))
    done_count, checked = 0, 0.0
    workers_seen = time.monotonic()
    while pending:
        if cancel is not None and cancel.is_set():
            if client.status == "running":
                client.cancel(list(pending))
            raise SweepCancelled("sweep cancelled", out)
        finished = [f for f in pending if f.done()]
        for fut in finished:
            n = pending.pop(fut)
            if fut.status == "error":
                _point_failed(fut.exception(), out)
            try:
                # A finished point's result lives on the worker that ran it: if
                # that worker died, fetching it would wait for ever.
                value = fut.result(timeout=max(1.0, DASK_CHECK_S))
            except TimeoutError:
                pending[fut] = n          # fetched again once a worker has it
                continue
            except OSError:               # the connection closed under the fetch
                raise SweepStopped(f"lost the Dask scheduler at {address}", out) from None
            except CancelledError as exc:     # not by us (we raise before cancelling)
                raise SweepStopped(_cancelled_why(client, address, exc), out) from None
            out[n] = value
            done_count += 1
            if progress is not None:
                progress(done_count, len(futures))
        now = time.monotonic()
        if now - checked >= DASK_CHECK_S:
            checked = now
            if client.status != "running":
                raise SweepStopped(f"lost the Dask scheduler at {address}", out)
            if _dask_workers(client):
                workers_seen = now
            elif now - workers_seen > DASK_NO_WORKER_S:
                raise SweepStopped(f"the Dask cluster at {address} has had no worker for "
                                   f"{DASK_NO_WORKER_S:.0f} s", out)
        if not finished:
            time.sleep(0.05)


def _cancelled_why(client, address, exc: CancelledError) -> str:
    """Why Dask cancelled a point: the scheduler is gone, or it dropped the
    point while it is still there (then say so, not that it was lost)."""
    reason = getattr(exc, "reason", None) or "no reason given"
    if reason == "scheduler-connection-lost" or client.status != "running":
        return f"lost the Dask scheduler at {address}"
    return f"the Dask scheduler at {address} cancelled a point ({reason})"


def _dask_workers(client) -> int:
    """How many workers the scheduler has (0 if it does not answer in time)."""
    try:
        return len(client.nthreads(callback_timeout=max(1.0, DASK_CHECK_S)))
    except (OSError, TimeoutError, AttributeError):
        return 0


def _point_failed(exc: BaseException, out: list) -> None:
    """A point's error: the model's own (re-raised as is) or the cluster's."""
    from models.core.params import ParamError
    from models.core.run import NotImplementedYet
    if isinstance(exc, (ParamError, NotImplementedYet)):
        raise exc
    if type(exc).__name__ == "KilledWorker":
        raise SweepStopped("a point kept stopping its Dask workers (each one died running "
                           "it: out of memory?)", out)
    raise exc


def _check_dask_address(address: str) -> None:
    """Fail fast, in one line, unless a TCP ``address`` greets like a Dask scheduler.

    A scheduler sends its handshake as soon as a connection opens; another
    service (a web server) sends nothing, or something else, and Dask's own
    client would wait, then misread it (a 3 EiB allocation).
    """
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        return
    host, _, port_text = rest.rpartition(":")
    host = host.strip("[]")
    if not host or not (port_text.isascii() and port_text.isdigit()):
        raise ClusterError(f"--dask {address}: give the scheduler as tcp://HOST:PORT")
    try:
        sock = socket.create_connection((host, int(port_text)), timeout=DASK_CONNECT_S)
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    greeting = b""
    with sock:
        sock.settimeout(DASK_GREETING_S)
        try:
            while len(greeting) < 512 and not _greets_like_dask(greeting):
                part = sock.recv(512)
                if not part:
                    break
                greeting += part
        except OSError:
            pass                    # silence or a reset: judged below
    if not _greets_like_dask(greeting):
        raise ClusterError(f"{address} is not a Dask scheduler (it did not greet as one "
                           f"within {DASK_GREETING_S:.0f} s); the scheduler's port is "
                           "usually 8786")


def _greets_like_dask(data: bytes) -> bool:
    return b"compression" in data and b"python" in data


def _quiet_dask_logs() -> dict:
    """Dask logs a lost scheduler or worker itself; the sweep says it in one line."""
    levels = {}
    for name in ("distributed", "distributed.client", "distributed.comm"):
        log = logging.getLogger(name)
        levels[name] = log.level
        log.setLevel(logging.CRITICAL)
    return levels


def _restore_logs(levels: dict) -> None:
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


class SweepStopped(SweepCancelled):
    """The machinery under a sweep failed part-way: one line; ``partial`` as
    :class:`SweepCancelled`."""


class ClusterError(Exception):
    """The Dask cluster cannot be used (one line)."""


def _qt_worker_class() -> type:
    from PySide6.QtCore import QObject, Signal, Slot

    class SweepWorker(QObject):
        """Runs a sweep when :meth:`run` is called (move it to a QThread first).

        Signals: ``progressed(done, total)``, ``finished(SweepResult)``,
        ``failed(str)`` (one line), ``cancelled()``.
        """

        progressed = Signal(int, int)
        finished = Signal(object)
        failed = Signal(str)
        cancelled = Signal()

        def __init__(self, spec: SweepSpec, workers: int | None = None):
            super().__init__()
            self.spec = spec
            self.workers = workers
            self._cancel = threading.Event()

        def cancel(self) -> None:
            """Ask the sweep to stop (thread-safe)."""
            self._cancel.set()

        @Slot()
        def run(self) -> None:
            from models.core.params import ParamError
            from models.core.run import NotImplementedYet
            try:
                result = run_sweep(self.spec, self.workers, self.progressed.emit, self._cancel)
            except SweepStopped as exc:         # the machinery, not the user
                self.failed.emit(str(exc))
            except SweepCancelled:
                self.cancelled.emit()
            except (ParamError, NotImplementedYet) as exc:
                self.failed.emit(str(exc))
            except Exception as exc:  # a model bug must reach the view, not hang it
                traceback.print_exc()
                self.failed.emit(f"a point failed: {type(exc).__name__}: {exc}")
            else:
                self.finished.emit(result)

    return SweepWorker


def __getattr__(name: str) -> Any:
    # SweepWorker needs QtCore; build it on first use so the command line
    # and the models tests can import this module with Qt blocked.
    if name == "SweepWorker":
        cls = _qt_worker_class()
        globals()["SweepWorker"] = cls
        return cls
    raise AttributeError(name)
