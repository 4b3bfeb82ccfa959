"""The built-in what-if studies: before/after pairs of canvases.

Each study is a folder ``resources/whatif/<name>/`` holding ``before.json``
and ``after.json`` (scenario files, format version 2, experiment
``custom``) and ``study.json``: ``title``, ``about`` (one paragraph: what
changes and what it shows), ``metric`` (the figure that shows it) and
``expect`` (``lower`` or ``higher``: its direction after the change).
Both sides run through :func:`models.experiments.run_experiment` with
``scenario=`` the drawing, like any other run.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from models.drawing import documents
from models.core.resources import RESOURCES
from models.drawing.scenario import Scenario

WHATIF = RESOURCES / "whatif"
#: The order the menu and the start page list them in.
ORDER = ("hdd_to_ssd", "ficon_to_zhpf", "one_to_two_channels", "hyperpav_aliases",
         "stripe_four_volumes", "add_ziip")


@dataclass(frozen=True)
class Study:
    """One what-if study (see the module docstring)."""

    name: str
    title: str
    about: str
    metric: str
    expect: str

    def load(self) -> tuple[Scenario, Scenario]:
        """Fresh copies of the before and after drawings.

        Raises
        ------
        documents.ScenarioFileError
            A damaged study file.
        """
        return _load(self.name, "before"), _load(self.name, "after")

    def documents(self) -> tuple[dict, dict]:
        """The before and after drawings as scenario dicts (for a run)."""
        before, after = self.load()
        return before.to_dict(), after.to_dict()


def names() -> list[str]:
    """Studies present in ``resources/whatif``, in :data:`ORDER` then by name."""
    found = sorted(p.name for p in WHATIF.iterdir() if (p / "study.json").exists()) \
        if WHATIF.is_dir() else []
    return [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]


def study(name: str) -> Study:
    """The study called ``name``; :class:`documents.ScenarioFileError` if none."""
    if name not in names():
        raise documents.ScenarioFileError(f"no what-if study called '{name}'; known: "
                                          f"{', '.join(names())}")
    try:
        meta = json.loads((WHATIF / name / "study.json").read_text(encoding="utf-8"))
        return Study(name, str(meta["title"]), str(meta["about"]), str(meta["metric"]),
                     str(meta["expect"]))
    except (OSError, ValueError, KeyError) as exc:
        raise documents.ScenarioFileError(f"what-if study '{name}' cannot be read: "
                                          f"{exc}") from None


def studies() -> list[Study]:
    """Every built-in study, in menu order."""
    return [study(n) for n in names()]


def _load(name: str, side: str) -> Scenario:
    path = WHATIF / name / f"{side}.json"
    try:
        doc = documents.read_json_file(path, "scenario")
    except (OSError, documents.InputError) as exc:
        raise documents.ScenarioFileError(f"what-if study '{name}' ({side}): {exc}") from None
    return documents.from_document(doc, f"what-if '{name}' ({side})")
