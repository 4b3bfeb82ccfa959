"""Scenario files: versioned JSON, read strictly and written atomically.

A file is one JSON object ``{"format": "zperflab-scenario", "version": 2,
...}`` with the fields of :meth:`models.drawing.scenario.Scenario.to_dict` (see
docs/scenario-format.md). :func:`load` either returns a whole scenario or
raises :class:`ScenarioFileError` with one clear line: a corrupt file, a file
from a newer zPerfLab or a bad value opens nothing half-way. :func:`save`
goes through the one atomic writer (:mod:`app.atomic`), so a failed save
leaves the old file as it was. Files are read only if they are regular
files of a sane size, and are checked against the published JSON Schema
(``resources/schema/scenario.schema.json``) before the model sees them.

Built-in case studies live in ``resources/scenarios/<experiment>.json``.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from app import atomic
from models import experiments
from models.drawing import documents
from models.drawing.documents import FORMAT, VERSION, ScenarioFileError, from_document, to_document
from models.core.params import shorten
from models.core.resources import SCENARIOS as CASES_DIR
from models.drawing.scenario import Scenario

SUFFIX = ".zpl.json"
__all__ = ["FORMAT", "VERSION", "ScenarioFileError", "from_document", "to_document", "load",
           "save", "case_names", "example_names", "load_case", "CASES_DIR", "SUFFIX"]


def load(path: str | os.PathLike, notes: list | None = None) -> Scenario:
    """Read a scenario file; :class:`ScenarioFileError` if it cannot be used.

    ``notes`` receives a line for the user when an older file was migrated
    (:func:`models.drawing.documents.from_document`).
    """
    if not os.path.exists(path) and str(path) in example_names():
        return load_case(str(path))          # a built-in example by name: large_shop
    path = Path(path)
    try:
        doc = documents.read_json_file(path, "scenario")
    except OSError as exc:
        raise ScenarioFileError(f"cannot read {shorten(str(path))}: {_reason(exc)}") from None
    except documents.InputError as exc:
        text = str(exc)
        raise ScenarioFileError(text if text.startswith(shorten(str(path))) else
                                f"{shorten(path.name)} {text}") from None
    return from_document(doc, shorten(path.name), notes)


def save(scenario: Scenario, path: str | os.PathLike) -> None:
    """Write ``scenario`` to ``path`` atomically (:func:`app.atomic.write`:
    a symlink stays a link, the file keeps its permissions, a failure leaves
    the old file untouched).

    Raises
    ------
    ScenarioFileError
        The folder is not writable, the disk is full, …
    """
    path = Path(path)
    try:
        data = (json.dumps(to_document(scenario), indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start:exc.end] if isinstance(exc.object, str) else ""
        raise ScenarioFileError(
            f"could not save {shorten(str(path))}: the scenario holds a lone surrogate "
            f"({shorten(bad)}), which is not a character; retype the text that shows it. "
            "The previous file (if any) is unchanged") from None
    try:
        atomic.write(path, data)
    except atomic.WriteError as exc:
        raise ScenarioFileError(f"could not save {shorten(str(path))}: {exc.reason}; "
                                "the previous file (if any) is unchanged") from None


def case_names() -> list[str]:
    """Experiments that have a built-in case study, in registry order."""
    return documents.case_names(experiments.registry())


def example_names() -> list[str]:
    """The built-in example drawings that are no experiment's case study."""
    return documents.example_names(experiments.registry())


def load_case(name: str) -> Scenario:
    """The built-in case study for experiment ``name``, or the example ``name``."""
    if name not in case_names() and name not in example_names():
        raise ScenarioFileError(f"no built-in case study called '{shorten(name)}'; "
                                f"known: {', '.join(case_names() + example_names())}")
    return documents.load_case(name)


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)
