"""Run history: every run's experiment, parameters, seed and metrics in sqlite.

The database lives in the user's data directory (``QStandardPaths``
AppDataLocation, or ``$ZPERFLAB_DATA_DIR`` when set, which tests use; with
only ``$ZPERFLAB_SETTINGS`` set — a private settings file — the history lives
beside that file, so a private profile never writes the user's history) as
``history.sqlite3``. It runs in WAL mode so the history panel can read
while a run is being recorded. The schema version is ``PRAGMA user_version``
and :data:`MIGRATIONS` upgrades older files in place, inside ``BEGIN
IMMEDIATE`` so that two instances opening an old file at once migrate it
once.

The history never stops or blocks the app:

* a damaged file (not a database, a damaged page) is moved aside as
  ``history.sqlite3.damaged-DATE``, :attr:`History.notice` says so once,
  and a fresh history starts;
* a row that cannot be read (parameters that are not JSON, …) is skipped
  and counted in :attr:`History.skipped`;
* runs are recorded by a writer thread of the history's own
  (:meth:`History.add`): a history locked by another program never holds
  up the caller — the row waits on that thread and is written when the
  lock is released.

``zperflab history`` (:func:`cmd_history`) lists the runs.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.names import experiment_of, experiment_title, metrics_text
from app.run_names import RunName, from_changes
from models.core.params import shorten
from models.core.run import RunResult

DB_NAME = "history.sqlite3"
#: How many of a run's metrics a list of runs shows (the History tab's
#: tooltip has them all).
KEY_METRICS = 3
ENV_DIR = "ZPERFLAB_DATA_DIR"
#: The label of a run made by Compare starts so (its scenario's title is in
#: the stored drawing).
COMPARE_PREFIX = "compare: "

#: Schema steps; entry i upgrades a version-i file to version i+1.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the run table.
    ("""CREATE TABLE runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            created REAL NOT NULL,
            experiment TEXT NOT NULL,
            params TEXT NOT NULL,
            seed INTEGER NOT NULL,
            metrics TEXT NOT NULL)""",),
    # 2: the canvas scenario a run came from, a user label, lookup by experiment.
    ("ALTER TABLE runs ADD COLUMN scenario TEXT NOT NULL DEFAULT ''",
     "ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT ''",
     "CREATE INDEX runs_by_experiment ON runs (experiment, created)"),
    # 3: what the drawing changed from the case as opened (app.drawing_diff, JSON).
    ("ALTER TABLE runs ADD COLUMN changes TEXT NOT NULL DEFAULT '[]'",),
)
SCHEMA_VERSION = len(MIGRATIONS)
#: How long a read or delete waits for another program's write lock.
BUSY_TIMEOUT_S = 2.0
#: How long the writer thread keeps retrying a run while the file is locked.
RECORD_RETRY_S = 120.0
#: sqlite's words for a file that is not a (healthy) database.
_DAMAGED = ("not a database", "malformed", "corrupt", "disk image")


class HistoryError(RuntimeError):
    """The history database cannot be opened or written. ``str()`` is one line."""


@dataclass(frozen=True)
class RunRecord:
    """One stored run."""

    id: int
    created: float
    experiment: str
    scenario: str
    label: str
    params: dict
    seed: int
    metrics: dict
    #: The drawing's differences from the case as opened
    #: (``{"component", "property", "old", "new"}`` each; app.drawing_diff).
    changes: tuple = ()

    def as_result(self) -> RunResult:
        """The stored run as a RunResult (metrics only: no trace or reports)."""
        return RunResult(self.experiment, self.params, self.seed, self.metrics,
                         notes=(f"from run history #{self.id}",))

    def title(self) -> str:
        """The scenario's title as the run was made ("Imported from RMF: SYSA,
        …"), else its experiment's ("Your own system")."""
        label = self.label
        if label.startswith(COMPARE_PREFIX) and self.scenario:
            try:
                doc = json.loads(self.scenario)
            except (TypeError, ValueError, RecursionError):
                doc = None
            label = str(doc.get("title") or "") if isinstance(doc, dict) else ""
        return label or experiment_title(self.experiment)

    def run_name(self) -> RunName:
        """Baseline or what-if (:mod:`app.run_names`), from the changes recorded."""
        # The document's top-level key, as json.dumps writes it; within a
        # string the quotes would be escaped, so a label cannot pass for it.
        imported = '"imported": {' in self.scenario
        return from_changes(self.changes, imported, imported and self._calibrated())

    def _calibrated(self) -> bool:
        """Whether the stored drawing carries accepted calibrated quantities
        (read only when its text names some)."""
        from app.run_names import calibrated

        if '"calibrated": [{' not in self.scenario:
            return False
        try:
            return bool(calibrated(json.loads(self.scenario)))
        except (TypeError, ValueError, RecursionError):
            return False

    def when(self) -> str:
        """The time stamp as local ``YYYY-MM-DD HH:MM:SS``."""
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.created))


def data_dir() -> Path:
    """Where the history lives: ``$ZPERFLAB_DATA_DIR``, beside
    ``$ZPERFLAB_SETTINGS``, or AppDataLocation."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    private = os.environ.get("ZPERFLAB_SETTINGS")
    if private:
        return Path(private).resolve().parent
    from PySide6.QtCore import QCoreApplication, QStandardPaths  # only when needed
    if not QCoreApplication.applicationName() or QCoreApplication.instance() is None:
        # The command line has no QApplication; name it as app.gui does so
        # both find the same directory.
        QCoreApplication.setOrganizationName("zPerfLab")
        QCoreApplication.setApplicationName("zPerfLab")
    loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    if not loc:
        raise HistoryError(f"no user data directory; set {ENV_DIR}")
    return Path(loc)


class History:
    """The run history database.

    Parameters
    ----------
    path : str or Path or None
        Database file; default ``data_dir() / history.sqlite3``.

    Attributes
    ----------
    notice : str
        One line for the user when the file was damaged and moved aside
        (empty otherwise); say it once.
    skipped : set of int
        Ids of stored runs that could not be read and were left out.
    problems : list of str
        Runs the writer thread could not record (the file stayed locked,
        the disk was full), one line each.
    """

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else data_dir() / DB_NAME
        self.notice = ""
        self.skipped: set[int] = set()
        self.problems: list[str] = []
        self._lock = threading.Lock()
        self._queue: queue.Queue = queue.Queue()
        self._writer: threading.Thread | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = self._open()
            except sqlite3.DatabaseError as exc:
                if not _is_damage(exc):
                    raise
                self._move_aside(str(exc))
                self._db = self._open()
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"cannot open run history {self.path}: {exc}") from None

    # ---- opening -------------------------------------------------------------
    def _connect(self, timeout: float = BUSY_TIMEOUT_S) -> sqlite3.Connection:
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE).
        return sqlite3.connect(self.path, check_same_thread=False, timeout=timeout,
                               isolation_level=None)

    def _open(self) -> sqlite3.Connection:
        db = self._connect()
        try:
            self._wal(db)
            check = db.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                raise sqlite3.DatabaseError(f"database disk image is malformed ({check[0][0]})")
            self._migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _wal(db: sqlite3.Connection) -> None:
        """Switch to WAL. sqlite refuses the switch at once (no busy wait)
        while another instance is creating the same file: try again."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            try:
                db.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _move_aside(self, reason: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{self.path}{suffix}")
            if src.exists():
                os.replace(src, Path(f"{aside}{suffix}"))
        self.notice = (f"The run history was damaged ({shorten(reason, 80)}): it was moved to "
                       f"{aside.name} and a new, empty history was started.")

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise HistoryError(f"run history {self.path} is schema {version}, newer than "
                               f"this zPerfLab ({SCHEMA_VERSION})")
        if version == SCHEMA_VERSION:
            return
        # Another instance may be migrating the same file right now: take the
        # write lock first, then read the version again.
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for v in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[v]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {v + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    @property
    def version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def close(self, wait_s: float = 5.0) -> None:
        """Finish the queued writes (waiting at most ``wait_s``) and close."""
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(wait_s)
            self._writer = None
        self._db.close()

    # ---- writing -------------------------------------------------------------
    def add(self, result: RunResult, scenario: str = "", label: str = "",
            changes: list | tuple = ()) -> int | None:
        """Record ``result``; its id, or ``None`` while the file is locked.

        The row is written by the history's writer thread. If the database
        is free this returns the new id at once; if another program holds
        the write lock this returns ``None`` straight away and the thread
        writes the row when the lock is released (failures go to
        :attr:`problems`).

        Raises
        ------
        HistoryError
            The run cannot be stored at all (the file cannot be written).
        """
        try:
            row = (time.time(), _text(result.experiment),
                   json.dumps(dict(result.params), sort_keys=True), int(result.seed),
                   json.dumps({k: float(v) for k, v in result.metrics.items()}),
                   _text(scenario), _text(label), json.dumps(list(changes)))
        except (TypeError, ValueError, OverflowError) as exc:
            raise HistoryError(f"cannot record run: {shorten(str(exc), 120)}") from None
        if not -2 ** 63 <= row[3] < 2 ** 63:
            raise HistoryError(f"cannot record run: seed {shorten(str(row[3]), 30)} is out of range")
        job = _Job(row)
        self._start_writer()
        self._queue.put(job)
        if not job.answered.wait(30.0):
            return None
        if isinstance(job.outcome, Exception):
            raise job.outcome
        return job.outcome

    def pending(self) -> int:
        """Runs waiting on the writer thread (the file is locked)."""
        return self._queue.qsize()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued run is written; False on timeout."""
        marker = _Job(None)
        self._start_writer()
        self._queue.put(marker)
        return marker.done.wait(timeout)

    def _start_writer(self) -> None:
        with self._lock:
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, daemon=True,
                                                name="zperflab-history")
                self._writer.start()

    def _write_loop(self) -> None:
        db = None
        while True:
            job = self._queue.get()
            if job is None:
                break
            if job.row is None:                      # flush marker
                job.release(None)
                job.finish()
                continue
            try:
                if db is None:
                    db = self._connect(timeout=0.0)
                outcome: Any = self._write(db, job)
            except (sqlite3.Error, OverflowError, ValueError) as exc:
                outcome = HistoryError(f"cannot record run in {self.path}: {exc}")
            if not job.release(outcome) and isinstance(outcome, Exception):
                self.problems.append(str(outcome))
            job.finish()
        if db is not None:
            db.close()

    def _write(self, db: sqlite3.Connection, job: "_Job") -> int:
        """Insert ``job``'s row, waiting out another program's lock: the
        caller is released (with ``None``) at the first refusal."""
        deadline = time.monotonic() + RECORD_RETRY_S
        delay = 0.02
        while True:
            try:
                db.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as exc:
                text = str(exc)
                if time.monotonic() > deadline or ("locked" not in text and "busy" not in text):
                    raise
                job.release(None)
                time.sleep(delay)
                delay = min(0.5, delay * 2)
        try:
            cur = db.execute(
                "INSERT INTO runs (created, experiment, params, seed, metrics, scenario, label,"
                " changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", job.row)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return int(cur.lastrowid)

    def _transaction(self, what: str, sql: str, args: tuple) -> sqlite3.Cursor:
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    cur = self._db.execute(sql, args)
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot {what} in {self.path}: {exc}") from None
        return cur

    # ---- reading -------------------------------------------------------------
    def runs(self, experiment: str | None = None, limit: int = 1000) -> list[RunRecord]:
        """Stored runs, newest first, optionally of one experiment.

        Rows that cannot be read are left out and their ids added to
        :attr:`skipped`.
        """
        sql = ("SELECT id, created, experiment, scenario, label, params, seed, metrics, changes"
               " FROM runs")
        args: tuple[Any, ...] = ()
        if experiment:
            sql += " WHERE experiment = ?"
            args = (experiment,)
        sql += " ORDER BY created DESC, id DESC LIMIT ?"
        rows = self._read(sql, (*args, max(0, int(limit))))
        out = []
        for row in rows:
            rec = _record(row)
            if rec is None:
                self.skipped.add(row[0])
            else:
                out.append(rec)
        return out

    def get(self, run_id: int) -> RunRecord:
        """The run with ``run_id``; KeyError if there is none or it cannot be read."""
        rows = self._read("SELECT id, created, experiment, scenario, label, params, seed,"
                          " metrics, changes FROM runs WHERE id = ?", (int(run_id),))
        rec = _record(rows[0]) if rows else None
        if rec is None:
            if rows:
                self.skipped.add(int(run_id))
            raise KeyError(f"no run #{run_id} in the history")
        return rec

    def _read(self, sql: str, args: tuple) -> list[tuple]:
        try:
            with self._lock:
                return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot read run history {self.path}: {exc}") from None

    def skipped_message(self) -> str:
        """One line about the runs left out, or ``""``."""
        if not self.skipped:
            return ""
        ids = sorted(self.skipped)
        shown = ", ".join(f"#{i}" for i in ids[:5]) + (" …" if len(ids) > 5 else "")
        return (f"{len(ids)} stored run{'s' if len(ids) > 1 else ''} could not be read and "
                f"{'are' if len(ids) > 1 else 'is'} not shown ({shown}).")

    def restore(self, record: RunRecord) -> int:
        """Put a deleted run back with its id and time stamp (undo of a delete)."""
        row = (record.id, record.created, record.experiment, json.dumps(record.params, sort_keys=True),
               int(record.seed), json.dumps(record.metrics), record.scenario, record.label,
               json.dumps(list(record.changes)))
        self._transaction(f"restore run #{record.id}",
                          "INSERT INTO runs (id, created, experiment, params, seed, metrics,"
                          " scenario, label, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        return record.id

    def delete(self, run_id: int) -> bool:
        """Delete a run; True if it existed."""
        cur = self._transaction(f"delete run #{run_id}", "DELETE FROM runs WHERE id = ?",
                                (int(run_id),))
        return cur.rowcount > 0


class _Job:
    """One row for the writer thread (``None``: a flush marker)."""

    def __init__(self, row: tuple | None) -> None:
        self.row = row
        self.outcome: Any = None
        self.answered = threading.Event()     # the caller may go on
        self.done = threading.Event()         # written, failed or given up

    def release(self, outcome: Any) -> bool:
        """Let the caller go on with ``outcome``; False if it already went on."""
        if self.answered.is_set():
            return False
        self.outcome = outcome
        self.answered.set()
        return True

    def finish(self) -> None:
        self.done.set()


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    """A damaged file (not: locked, read-only, no such folder)."""
    text = str(exc).lower()
    return any(word in text for word in _DAMAGED)


def _text(value: str) -> str:
    """Text sqlite can store: a lone surrogate becomes its escape."""
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")


def _record(row: tuple) -> RunRecord | None:
    """A stored row as a RunRecord; ``None`` if it cannot be read."""
    try:
        rid, created, exp, scenario, label, params, seed, metrics, changes = row
        params, metrics = json.loads(params), json.loads(metrics)
        changes = _changes(changes)
        ok = (isinstance(params, dict) and isinstance(metrics, dict)
              and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                      for v in metrics.values())
              and isinstance(created, (int, float)) and isinstance(seed, int)
              and all(isinstance(t, str) for t in (exp, scenario, label)))
    except (TypeError, ValueError, RecursionError):
        return None
    if not ok:
        return None
    return RunRecord(rid, float(created), exp, scenario, label, params, seed, metrics, changes)


def _changes(text: str) -> tuple:
    """The stored changes; a damaged list reads as none (the run stays)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return ()
    if not isinstance(value, list):
        return ()
    keys = {"component", "property", "old", "new"}
    return tuple(c for c in value if isinstance(c, dict) and set(c) == keys
                 and all(isinstance(v, str) for v in c.values()))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``zperflab history`` options."""
    p.add_argument("--experiment", help="only runs of this experiment")
    p.add_argument("--limit", type=_positive, default=50, metavar="N",
                   help="newest N runs, 1–100000 (default 50)")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=cmd_history)


def _positive(text: str) -> int:
    """``--limit``: a whole number 1–100000 (argparse turns the error into status 2)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"must be a whole number 1–100000, not "
                                         f"'{shorten(text, 40)}'")
    return value


def cmd_history(args: argparse.Namespace) -> int:
    """List stored runs, newest first (damaged rows and files are reported on stderr)."""
    if args.experiment is not None:
        from models import experiments
        known = list(experiments.registry())
        if args.experiment not in known:
            print(f"zperflab: error: --experiment: no experiment called "
                  f"'{shorten(args.experiment, 60)}'; known: {', '.join(known)}", file=sys.stderr)
            return 2
    try:
        hist = History()
        try:
            records = hist.runs(args.experiment, args.limit)
        finally:
            hist.close()
    except HistoryError as exc:
        print(f"zperflab: error: {exc}", file=sys.stderr)
        return 2
    for line in (hist.notice, hist.skipped_message()):
        if line:
            print(f"zperflab: note: {line}", file=sys.stderr)
    if args.json:
        print(json.dumps([{"id": r.id, "created": r.when(), "experiment": r.experiment,
                           "scenario": r.scenario, "label": r.label, "params": r.params,
                           "seed": r.seed, "metrics": r.metrics, "changes": list(r.changes)}
                          for r in records], indent=1, ensure_ascii=False))
        return 0
    if not records:
        print(f"no runs of {experiment_title(args.experiment)} recorded yet" if args.experiment
              else "no runs recorded yet")
    for r in records:
        # Named as the History tab names them: the experiment's and the metrics' titles.
        shown = metrics_text(experiment_of(r.experiment), r.metrics, KEY_METRICS)
        title = shorten(r.title(), 60)
        name = r.run_name()
        if name.is_whatif or name.imported:       # "…SYSA… (what-if)"
            title += f" ({name.short})"
        print(f"#{r.id:<5} {r.when()}  {title}, seed {r.seed}: {shown}")
        if r.changes:
            from app.drawing_diff import describe
            print(f"       changed: {describe(list(r.changes))}")
    return 0
