"""Runs an experiment off the GUI thread, with progress and cancel (QtCore only).

:class:`RunWorker` lives on a :class:`QThread`; it calls
:func:`models.experiments.run_experiment` — the same path as the command line
— and reports back through queued signals, so the window keeps repainting
during a full-scale run. :meth:`RunWorker.cancel` sets the
``threading.Event`` the model checks at every progress report.

:class:`TaskRunner` does the same for any other long job of the window (the
published-vs-model table, an A/B comparison, the slide deck): a function
``job(progress, cancel)`` runs on its own thread and its value, failure or
cancellation comes back as a signal.
"""
from __future__ import annotations

import threading
import traceback
from typing import Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot

from app import settings
from models import experiments
from models.engine import Trace
from models.core.params import ParamError
from models.core.run import Cancelled, NotImplementedYet


#: A drawn shop's run gets preliminary figures first when its workloads
#: draw at least this many I/Os (the Large shop's second: 200,000)...
PRELIMINARY_MIN_IOS = 100_000
#: ... from a slice of about this many I/Os (at least 10 ms, at most a tenth of the run).
PRELIMINARY_IOS = 10_000


def preliminary_slice(name: str, overrides: dict,
                      scenario: object) -> tuple[float, float] | None:
    """Simulated seconds after which ``name``'s run gives its figures so far
    (preliminary), and the whole run's seconds; or ``None``.

    Only a drawing of one's own (``custom``) whose open I/O workloads draw
    at least :data:`PRELIMINARY_MIN_IOS` over the run gets them: after about
    :data:`PRELIMINARY_IOS` I/Os, so they show within a second while the
    run goes on.
    """
    if name != "custom":
        return None
    from models.drawing.config import from_scenario
    from models.workloads.system import workload_values
    _exp, sc, params = experiments.prepare(name, overrides, scenario)
    values = workload_values(from_scenario(sc), params).values()
    rate = sum(v["io_rate"] for v in values if "io_rate" in v and v.get("arrival") != "closed")
    end = max((v["duration_s"] for v in values if "duration_s" in v), default=0.0)
    if rate * end < PRELIMINARY_MIN_IOS:
        return None
    return round(max(0.01, min(end / 10, PRELIMINARY_IOS / rate)), 3), end


class RunWorker(QObject):
    """Runs one experiment when :attr:`start_requested` is emitted.

    Signals (all delivered to the GUI thread): ``progressed(float)``,
    ``previewed(object, float, float)`` with a long run's figures so far
    (:func:`preliminary_slice`), the simulated seconds they cover and the
    whole run's,
    ``succeeded(object)`` with the immutable RunResult, ``failed(str)`` with a
    one-line message, ``cancelled()``, and ``done()`` after any of the three.
    """

    progressed = Signal(float)
    #: The phase of the run that starts ("warming the caches"), as the model says it.
    phased = Signal(str)
    previewed = Signal(object, float, float)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    done = Signal()
    start_requested = Signal(str, dict, int, object)

    def __init__(self) -> None:
        super().__init__()
        self._cancel = threading.Event()
        self.start_requested.connect(self._run)

    def cancel(self) -> None:
        """Ask the running model to stop at its next progress report."""
        self._cancel.set()

    def arm(self) -> None:
        """Clear the cancel flag for the next run (before it is requested: a
        cancel that arrives between Run and the thread picking the run up
        must stop that run, not be forgotten)."""
        self._cancel.clear()

    @Slot(str, dict, int, object)
    def _run(self, name: str, overrides: dict, seed: int, scenario: object = None) -> None:
        try:
            plan = preliminary_slice(name, overrides, scenario)
            early, after = None, 0.0
            if plan is not None:
                after, whole = plan

                def early(first, seconds: float) -> None:
                    self.previewed.emit(first, seconds, whole)
            # A bounded ring: full-scale runs keep their newest rows only.
            trace = Trace(limit=settings.trace_rows())
            result = experiments.run_experiment(name, overrides, seed=seed, trace=trace,
                                                progress=self.progressed.emit, cancel=self._cancel,
                                                scenario=scenario, phase=self.phased.emit,
                                                early=early, early_after_s=after)
        except Cancelled:
            self.cancelled.emit()
        except NotImplementedYet:
            title = experiments.get(name).title
            self.failed.emit(f"'{title}' ({name}) is not implemented yet: its model is still "
                             "being built. Try another case study.")
        except (ParamError, settings.SettingsError) as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # a model bug must reach the user, not kill the thread
            traceback.print_exc()
            self.failed.emit(f"the model failed: {type(exc).__name__}: {exc}")
        else:
            self.succeeded.emit(result)
        self.done.emit()


class RunThread(QObject):
    """Owns the worker thread; one run at a time."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker_thread = QThread(self)
        self.worker_thread.setObjectName("zperflab-run")
        self.worker = RunWorker()
        self.worker.moveToThread(self.worker_thread)
        self.worker.done.connect(self._on_worker_done)
        self.running = False
        self.worker_thread.start()

    def start(self, name: str, overrides: dict, seed: int, scenario: object = None) -> None:
        """Run ``name`` on ``scenario`` (a scenario dict or document; ``None``:
        the built-in case study) with ``overrides`` on top."""
        if self.running:
            raise RuntimeError("a run is already in progress")
        self.running = True
        self.worker.arm()
        self.worker.start_requested.emit(name, dict(overrides), int(seed), scenario)

    def cancel(self) -> None:
        self.worker.cancel()

    def _on_worker_done(self) -> None:
        self.running = False

    def stop(self) -> None:
        """Cancel any run and end the thread (window closing)."""
        self.worker.cancel()
        self.worker_thread.quit()
        self.worker_thread.wait(10_000)


#: Failures that are the user's to fix, shown as their own one-line message.
EXPECTED_ERRORS: tuple[type[Exception], ...] = (ParamError, NotImplementedYet, OSError)


class _TaskWorker(QObject):
    progressed = Signal(float)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    done = Signal()
    start_requested = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.cancel_event = threading.Event()
        self.expected: tuple[type[Exception], ...] = EXPECTED_ERRORS
        self.start_requested.connect(self._run)

    @Slot(object)
    def _run(self, job: Callable) -> None:
        try:
            value = job(self.progressed.emit, self.cancel_event)
        except Cancelled:
            self.cancelled.emit()
        except self.expected as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # a bug must reach the user, not kill the thread
            traceback.print_exc()
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.succeeded.emit(value)
        self.done.emit()


class TaskRunner(QObject):
    """Runs ``job(progress, cancel)`` on its own thread, one job at a time.

    ``progress(fraction)`` may be called from the job; ``cancel`` is a
    ``threading.Event`` the job checks (raising :class:`models.core.run.Cancelled`).
    Signals, delivered on the GUI thread: ``progressed(float)``,
    ``succeeded(object)`` with the job's value, ``failed(str)`` (one line),
    ``cancelled()`` and ``done()`` after any of them.

    Parameters
    ----------
    name : str
        Thread name (shows in debuggers).
    expected : tuple of exception types
        Failures reported as their own message, without a traceback.
    """

    progressed = Signal(float)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    done = Signal()

    def __init__(self, name: str, parent: QObject | None = None,
                 expected: tuple[type[Exception], ...] = ()) -> None:
        super().__init__(parent)
        self.worker_thread = QThread(self)
        self.worker_thread.setObjectName(f"zperflab-{name}")
        self.worker = _TaskWorker()
        self.worker.expected = EXPECTED_ERRORS + tuple(expected)
        self.worker.moveToThread(self.worker_thread)
        for sig in ("progressed", "succeeded", "failed", "cancelled"):
            getattr(self.worker, sig).connect(getattr(self, sig))
        self.worker.done.connect(self._on_worker_done)
        self.running = False
        self.worker_thread.start()

    def start(self, job: Callable) -> bool:
        """Start ``job``; False (nothing started) if a job is still running."""
        if self.running:
            return False
        self.running = True
        self.worker.cancel_event.clear()     # here, not on the thread: see RunWorker.arm
        self.worker.start_requested.emit(job)
        return True

    def cancel(self) -> None:
        """Ask the running job to stop at its next check."""
        self.worker.cancel_event.set()

    def _on_worker_done(self) -> None:
        self.running = False
        self.done.emit()

    def stop(self) -> None:
        """Cancel any job and end the thread (window closing)."""
        self.cancel()
        self.worker_thread.quit()
        self.worker_thread.wait(10_000)
