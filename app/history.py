"""Run history: every run's experiment, parameters, seed and metrics in sqlite.

The database lives in the user's data directory (``QStandardPaths``
AppDataLocation, or ``$ZPERFLAB_DATA_DIR`` when set, which tests use; with
only ``$ZPERFLAB_SETTINGS`` set — a private settings file — the history lives
beside that file, so a private profile never writes the user's history) as
``history.sqlite3``. It runs in WAL mode so the history panel can read
while a run is being recorded; one :class:`History` object owns the only
writing connection and serialises writes with a lock. The schema version is
``PRAGMA user_version`` and :data:`MIGRATIONS` upgrades older files in place.

``zperflab history`` (:func:`cmd_history`) lists the runs.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.run import RunResult

DB_NAME = "history.sqlite3"
ENV_DIR = "ZPERFLAB_DATA_DIR"

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
)
SCHEMA_VERSION = len(MIGRATIONS)


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

    def as_result(self) -> RunResult:
        """The stored run as a RunResult (metrics only: no trace or reports)."""
        return RunResult(self.experiment, self.params, self.seed, self.metrics,
                         notes=(f"from run history #{self.id}",))

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
    """

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else data_dir() / DB_NAME
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._lock = threading.Lock()
            self._migrate()
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"cannot open run history {self.path}: {exc}") from None

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise HistoryError(f"run history {self.path} is schema {version}, newer than "
                               f"this zPerfLab ({SCHEMA_VERSION})")
        with self._lock, self._db:
            for v in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[v]:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {v + 1}")

    @property
    def version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def add(self, result: RunResult, scenario: str = "", label: str = "") -> int:
        """Store ``result``; returns its id."""
        row = (time.time(), result.experiment, json.dumps(dict(result.params), sort_keys=True),
               int(result.seed), json.dumps({k: float(v) for k, v in result.metrics.items()}),
               scenario, label)
        try:
            with self._lock, self._db:
                cur = self._db.execute(
                    "INSERT INTO runs (created, experiment, params, seed, metrics, scenario, label)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot record run in {self.path}: {exc}") from None
        return int(cur.lastrowid)

    def runs(self, experiment: str | None = None, limit: int = 1000) -> list[RunRecord]:
        """Stored runs, newest first, optionally of one experiment."""
        sql = "SELECT id, created, experiment, scenario, label, params, seed, metrics FROM runs"
        args: tuple[Any, ...] = ()
        if experiment:
            sql += " WHERE experiment = ?"
            args = (experiment,)
        sql += " ORDER BY created DESC, id DESC LIMIT ?"
        return [_record(r) for r in self._db.execute(sql, (*args, int(limit)))]

    def get(self, run_id: int) -> RunRecord:
        """The run with ``run_id``; KeyError if there is none."""
        row = self._db.execute("SELECT id, created, experiment, scenario, label, params, seed,"
                               " metrics FROM runs WHERE id = ?", (int(run_id),)).fetchone()
        if row is None:
            raise KeyError(f"no run #{run_id} in the history")
        return _record(row)

    def restore(self, record: RunRecord) -> int:
        """Put a deleted run back with its id and time stamp (undo of a delete)."""
        row = (record.id, record.created, record.experiment, json.dumps(record.params, sort_keys=True),
               int(record.seed), json.dumps(record.metrics), record.scenario, record.label)
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT INTO runs (id, created, experiment, params, seed, metrics, scenario,"
                    " label) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot restore run #{record.id} in {self.path}: {exc}") from None
        return record.id

    def delete(self, run_id: int) -> bool:
        """Delete a run; True if it existed."""
        try:
            with self._lock, self._db:
                cur = self._db.execute("DELETE FROM runs WHERE id = ?", (int(run_id),))
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot delete run #{run_id} from {self.path}: {exc}") from None
        return cur.rowcount > 0


def _record(row: tuple) -> RunRecord:
    rid, created, exp, scenario, label, params, seed, metrics = row
    return RunRecord(rid, created, exp, scenario, label, json.loads(params), seed,
                     json.loads(metrics))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``zperflab history`` options."""
    p.add_argument("--experiment", help="only runs of this experiment")
    p.add_argument("--limit", type=int, default=50, help="newest N runs (default 50)")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=cmd_history)


def cmd_history(args: argparse.Namespace) -> int:
    """List stored runs, newest first."""
    try:
        records = History().runs(args.experiment, args.limit)
    except HistoryError as exc:
        print(f"zperflab: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{"id": r.id, "created": r.when(), "experiment": r.experiment,
                           "scenario": r.scenario, "label": r.label, "params": r.params,
                           "seed": r.seed, "metrics": r.metrics} for r in records], indent=1))
        return 0
    if not records:
        print("no runs recorded yet")
    for r in records:
        shown = ", ".join(f"{k}={v:.4g}" for k, v in list(r.metrics.items())[:3])
        print(f"#{r.id:<5} {r.when()}  {r.experiment:22} seed {r.seed:<4} {shown}")
    return 0
