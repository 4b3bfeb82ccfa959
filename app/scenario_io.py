"""Scenario files: versioned JSON, read strictly and written atomically.

A file is one JSON object ``{"format": "zperflab-scenario", "version": 1,
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

from models import experiments
from models.scenario import Scenario, ScenarioError

FORMAT = "zperflab-scenario"
#: Version written by this code; files with a higher number are refused.
VERSION = 1
#: Where the built-in case studies are.
CASES_DIR = Path(__file__).resolve().parent.parent / "resources" / "scenarios"
SUFFIX = ".zpl.json"


class ScenarioFileError(Exception):
    """A scenario file that cannot be read or written. ``str()`` is one line."""


def to_document(scenario: Scenario) -> dict:
    """The JSON object written to a file."""
    return {"format": FORMAT, "version": VERSION, **scenario.to_dict()}


def from_document(doc: object, where: str = "the file") -> Scenario:
    """Check the format and version, then build the scenario.

    Raises
    ------
    ScenarioFileError
        Not a scenario, a newer version, or bad content.
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ScenarioFileError(f"{where} is not a zPerfLab scenario (no \"format\": \"{FORMAT}\")")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ScenarioFileError(f"{where} has a bad version number: {version!r}")
    if version > VERSION:
        raise ScenarioFileError(
            f"{where} was written by a newer zPerfLab (format version {version}; "
            f"this one reads up to {VERSION}): update zPerfLab to open it")
    body = {k: v for k, v in doc.items() if k not in ("format", "version")}
    try:
        return Scenario.from_dict(body)
    except (ScenarioError, KeyError) as exc:
        raise ScenarioFileError(f"{where}: {exc}") from None


def load(path: str | os.PathLike) -> Scenario:
    """Read a scenario file; :class:`ScenarioFileError` if it cannot be used."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioFileError(f"cannot read {path}: {_reason(exc)}") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ScenarioFileError(f"{path.name} is not valid JSON (corrupt file?): {exc}") from None
    return from_document(doc, path.name)


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
    return [n for n in experiments.registry() if (CASES_DIR / f"{n}.json").exists()]


def load_case(name: str) -> Scenario:
    """The built-in case study for experiment ``name``."""
    path = CASES_DIR / f"{name}.json"
    if not path.exists():
        raise ScenarioFileError(f"no built-in case study called '{name}'; "
                                f"known: {', '.join(case_names())}")
    return load(path)


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)
