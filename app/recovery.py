"""Autosave and crash recovery of the canvas (no Qt).

While the canvas has unsaved changes the window writes it every minute
(:data:`INTERVAL_S`) to ``<data dir>/recovery/autosave-PID.zpl.json``
through the atomic writer, and removes the file when the changes are saved
or discarded and when the window closes normally. A file whose process is
gone is what a crash or a kill left behind: the next start finds it with
:func:`orphans` and offers to restore it.

One file per process, so two windows open at once never overwrite each
other's recovery, and a running instance's file is never offered to another.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from app import atomic, history
from models.drawing import documents
from models.drawing.scenario import Scenario

#: Seconds between autosaves while there are unsaved changes.
INTERVAL_S = 60.0
#: Overrides :data:`INTERVAL_S` (tests use a fraction of a second).
ENV_INTERVAL = "ZPERFLAB_AUTOSAVE_S"
_PREFIX, _SUFFIX = "autosave-", ".zpl.json"


@dataclass(frozen=True)
class Recovered:
    """What an autosave file holds."""

    file: Path
    scenario: Scenario
    source: str | None   # the scenario's own file, if it had one
    saved: float         # time of the autosave (epoch seconds)

    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved))


def interval_s() -> float:
    """Seconds between autosaves (``$ZPERFLAB_AUTOSAVE_S`` when set and sane)."""
    try:
        value = float(os.environ.get(ENV_INTERVAL, INTERVAL_S))
    except ValueError:
        return INTERVAL_S
    return value if 0.05 <= value <= 86400 else INTERVAL_S


def folder() -> Path:
    return history.data_dir() / "recovery"


def own_file() -> Path:
    return folder() / f"{_PREFIX}{os.getpid()}{_SUFFIX}"


def save(document: dict, source: str | None) -> Path:
    """Write this process's recovery file (atomically).

    Raises
    ------
    atomic.WriteError
        The data folder cannot be written.
    """
    folder().mkdir(parents=True, exist_ok=True)
    data = json.dumps({"source": source, "saved": time.time(), "document": document},
                      ensure_ascii=True).encode("ascii")
    return atomic.write(own_file(), data)


def discard(file: Path | None = None) -> None:
    """Remove a recovery file (this process's by default)."""
    try:
        os.unlink(file or own_file())
    except FileNotFoundError:
        pass


def orphans() -> list[Path]:
    """Recovery files left by processes that are gone, newest first."""
    try:
        files = [p for p in folder().iterdir()
                 if p.name.startswith(_PREFIX) and p.name.endswith(_SUFFIX)]
    except OSError:
        return []
    out = []
    for p in files:
        pid = p.name[len(_PREFIX):-len(_SUFFIX)]
        if pid.isascii() and pid.isdigit() and len(pid) < 10 and not atomic._alive(int(pid)):
            out.append(p)
    return sorted(out, key=lambda p: p.stat().st_mtime, reverse=True)


def read(file: Path) -> Recovered:
    """The scenario in a recovery file.

    Raises
    ------
    documents.ScenarioFileError
        The file is damaged or cannot be read (one line).
    """
    try:
        data = documents.read_json_file(file, "recovery file")
    except (OSError, documents.InputError) as exc:
        raise documents.ScenarioFileError(f"the recovery file {file.name} cannot be read: "
                                          f"{exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("document"), dict):
        raise documents.ScenarioFileError(f"the recovery file {file.name} is damaged")
    source = data.get("source") if isinstance(data.get("source"), str) else None
    saved = data.get("saved") if isinstance(data.get("saved"), (int, float)) else 0.0
    scenario = documents.from_document(data["document"], "the recovered scenario")
    return Recovered(file, scenario, source, float(saved))
