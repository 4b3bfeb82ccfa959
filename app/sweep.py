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
:func:`run_sweep` returns.

:func:`run_points` is the engine under both the Sweep tab and ``zperflab
sweep``: any list of ``(overrides, seed)`` points, on the local pool or —
:func:`run_points_dask` — on an existing Dask distributed cluster through
``dask.distributed.Client(address)`` (Dask's own scheduler and workers; the
workers need zperflab installed). A cancelled run raises
:class:`SweepCancelled` carrying the points that finished.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, Sequence

from models.studies.sweep import (DEFAULT_RUNNER, SweepCancelled, SweepResult, SweepSpec,  # noqa: F401
                          point_metrics)

#: In a pool process: the sweep's shared cancel event (set by :func:`_init_worker`).
_CANCEL = None
#: How long to wait for a Dask scheduler to answer.
DASK_CONNECT_S = 20


def _init_worker(cancel) -> None:
    global _CANCEL
    _CANCEL = cancel
    # Ctrl-C at a terminal reaches the whole process group: the parent turns
    # it into the cancel event, so a point stops at its next progress report
    # instead of dying with a traceback and breaking the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
               cancel: threading.Event | None = None) -> list[dict]:
    """Run ``(overrides, seed)`` points on a local process pool; their metrics
    in point order.

    Raises
    ------
    SweepCancelled
        ``cancel`` was set; ``partial`` holds the finished points' metrics
        (``None`` for the rest). Running points stop at their model's next
        progress report, and this call returns once they have.
    ParamError, NotImplementedYet
        From the first point that fails (the rest are cancelled).
    """
    out: list[dict | None] = [None] * len(points)
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
                out[pending.pop(fut)] = fut.result()
                done_count += 1
                if progress is not None:
                    progress(done_count, len(points))
    finally:
        # Stop the points still running too, and wait for them, so a
        # cancelled or failed sweep leaves no core busy.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    return out


def _keep_finished(pending: dict, out: list) -> None:
    """Points that finished in the same instant as the cancel still count."""
    for fut, n in pending.items():
        if fut.done() and not fut.cancelled() and fut.exception() is None:
            out[n] = fut.result()


def run_points_dask(address: Any, runner: str, experiment: str,
                    points: Sequence[tuple[dict, int]], scenario: dict | None = None,
                    progress: Callable[[int, int], None] | None = None,
                    cancel: threading.Event | None = None) -> list[dict]:
    """Run the same points as :func:`run_points` on an existing Dask
    distributed cluster: ``dask.distributed.Client(address)`` (a scheduler
    address such as ``tcp://host:8786``, or a cluster object), one task per
    point, each :func:`models.studies.sweep.point_metrics` — the same numbers as the
    local pool, whatever the workers.

    Cancel drops the queued tasks; tasks already running on a worker cannot
    be interrupted there and are left to finish and be discarded.

    Raises
    ------
    SweepCancelled
        As :func:`run_points`.
    ClusterError
        Dask is not installed, or the scheduler cannot be reached.
    ParamError, NotImplementedYet
        From the first point that fails.
    """
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise ClusterError("--dask needs Dask: pip install 'zperflab[cluster]'") from None
    try:
        client = Client(address, timeout=DASK_CONNECT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: "
                           f"{type(exc).__name__}: {exc}") from None
    out: list[dict | None] = [None] * len(points)
    try:
        drawing = None if scenario is None else client.scatter(scenario, broadcast=True)
        futures = [client.submit(point_metrics, runner, experiment, over, seed, None, drawing,
                                 pure=False) for over, seed in points]
        index = {f.key: n for n, f in enumerate(futures)}
        finished = as_completed(futures, loop=client.loop)
        done_count = 0
        while not finished.is_empty():
            if cancel is not None and cancel.is_set():
                client.cancel([f for f in futures if not f.done()])
                raise SweepCancelled("sweep cancelled", out)
            batch = finished.next_batch(block=False)
            if not batch:
                time.sleep(0.05)
            for fut in batch:
                out[index[fut.key]] = fut.result()
                done_count += 1
                if progress is not None:
                    progress(done_count, len(points))
    finally:
        client.close()
    return out


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
