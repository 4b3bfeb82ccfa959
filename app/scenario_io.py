"""Scenario files: versioned JSON, read strictly and written atomically.

A file is one JSON object ``{"format": "zperflab-scenario", "version": 2,
...}`` with the fields of :meth:`models.scenario.Scenario.to_dict` (see
docs/scenario-format.md). :func:`load` either returns a whole scenario or
raises :class:`ScenarioFileError` with one clear line: a corrupt file, a file
from a newer zPerfLab or a bad value opens nothing half-way. :func:`save`
writes a temporary file in the same folder and ``os.replace``-s it over the
target, so a failed save leaves the old file as it was.

Built-in case studies live in ``resources/scenarios/<experiment>.json``.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from models import documents, experiments
from models.documents import FORMAT, VERSION, ScenarioFileError, from_document, to_document
from models.resources import SCENARIOS as CASES_DIR
from models.scenario import Scenario

SUFFIX = ".zpl.json"
__all__ = ["FORMAT", "VERSION", "ScenarioFileError", "from_document", "to_document", "load",
           "save", "case_names", "load_case", "CASES_DIR", "SUFFIX"]


def load(path: str | os.PathLike, notes: list | None = None) -> Scenario:
    """Read a scenario file; :class:`ScenarioFileError` if it cannot be used.

    ``notes`` receives a line for the user when an older file was migrated
    (:func:`models.documents.from_document`).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioFileError(f"cannot read {path}: {_reason(exc)}") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ScenarioFileError(f"{path.name} is not valid JSON (corrupt file?): {exc}") from None
    return from_document(doc, path.name, notes)


def save(scenario: Scenario, path: str | os.PathLike) -> None:
    """Write ``scenario`` to ``path`` atomically.

    The text goes to a temporary file in the same folder, is flushed to disk,
    then replaces ``path`` in one step; on any failure the temporary file is
    removed and the old file stays untouched.

    Raises
    ------
    ScenarioFileError
        The folder is not writable, the disk is full, …
    """
    path = Path(path)
    text = json.dumps(to_document(scenario), indent=1, ensure_ascii=False) + "\n"
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise ScenarioFileError(f"could not save {path}: {_reason(exc)}; "
                                "the previous file (if any) is unchanged") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def case_names() -> list[str]:
    """Experiments that have a built-in case study, in registry order."""
    return documents.case_names(experiments.registry())


def load_case(name: str) -> Scenario:
    """The built-in case study for experiment ``name``."""
    if name not in case_names():
        raise ScenarioFileError(f"no built-in case study called '{name}'; "
                                f"known: {', '.join(case_names())}")
    return documents.load_case(name)


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)
