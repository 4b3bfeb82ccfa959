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
"""
from __future__ import annotations

import multiprocessing
import os
import threading
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable

from models.sweep import (DEFAULT_RUNNER, SweepCancelled, SweepResult, SweepSpec,  # noqa: F401
                          point_metrics)

#: In a pool process: the sweep's shared cancel event (set by :func:`_init_worker`).
_CANCEL = None


def _init_worker(cancel) -> None:
    global _CANCEL
    _CANCEL = cancel


def run_point(runner: str, experiment: str, overrides: dict, seed: int,
              scenario: dict | None = None) -> dict:
    """Run one point (in a worker process); returns its metrics as floats.

    Raises ``models.run.Cancelled`` when the sweep is cancelled mid-point.
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
    out: list[list[dict]] = [[{} for _ in spec.values] for _ in spec.variants]
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    pool = ProcessPoolExecutor(max_workers=workers or default_workers(), mp_context=ctx,
                               initializer=_init_worker, initargs=(stop,))
    try:
        pending = {pool.submit(run_point, spec.runner, spec.experiment, over, spec.seed,
                               spec.scenario): (v, i)
                   for v, i, over in points}
        done_count = 0
        while pending:
            done, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            if cancel is not None and cancel.is_set():
                raise SweepCancelled("sweep cancelled")
            for fut in done:
                v, i = pending.pop(fut)
                out[v][i] = fut.result()
                done_count += 1
                if progress is not None:
                    progress(done_count, len(points))
    finally:
        # Stop the points still running too, and wait for them, so a
        # cancelled or failed sweep leaves no core busy.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    return SweepResult(spec, tuple(tuple(row) for row in out))


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
            from models.params import ParamError
            from models.run import NotImplementedYet
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
