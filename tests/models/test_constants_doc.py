"""docs/model-constants.md lists the model's constants as they are: every
constant bench/sensitivity.py can move has a row, and every constant a row
names still exists in models/ (issue 32 removed `DENSE_TRACK_SHARE`; a
page that still lists it as a live constant misleads whoever tunes the
model)."""
from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "model-constants.md").read_text(encoding="utf-8")

sys.path.insert(0, str(ROOT / "bench"))
try:
    import sensitivity as bench
finally:
    sys.path.pop(0)

#: The per-model tables (the sensitivity tables and the open points follow).
TABLES = DOC[:DOC.index("## Open points")]
#: A module-level constant's name: upper case, digits, underscores.
CONSTANT = re.compile(r"^(?:[a-z_]+\.)?([A-Z][A-Z0-9_]{2,})$")


def _defined_constants() -> set[str]:
    names = set()
    for path in (ROOT / "models").rglob("*.py"):
        names.update(re.findall(r"^([A-Z][A-Z0-9_]+)\s*(?::[^=\n]*)?=", path.read_text(encoding="utf-8"),
                                re.MULTILINE))
    return names


def _first_cells(text: str) -> list[str]:
    return [line.split("|")[1] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| constant")]


def test_every_registered_constant_has_a_row():
    missing = [g.attribute for g in bench.REGISTRY
               if "[" not in g.attribute and "." not in g.attribute
               and f"`{g.attribute}`" not in TABLES and f".{g.attribute}`" not in TABLES]
    assert missing == [], missing


def test_every_constant_a_row_names_exists_in_the_models():
    defined = _defined_constants()
    stale = []
    for cell in _first_cells(TABLES):
        for token in re.findall(r"`([^`]+)`", cell):
            m = CONSTANT.match(token)
            if m and m.group(1) not in defined:
                stale.append(token)
    assert stale == [], stale


def test_every_constant_in_the_sensitivity_tables_is_still_a_model_attribute():
    """The summary table's first column names module.attribute as the bench
    moved it: each must still be there (the bench can no longer run it
    otherwise, so its row is a figure of a model that is gone)."""
    section = DOC[DOC.index("## Sensitivity at"):]
    stale = []
    for cell in _first_cells(section):
        m = re.fullmatch(r"\s*`(models(?:\.[a-z_0-9]+)+)\.([A-Z][A-Z0-9_]+)`\s*", cell)
        if m and not hasattr(importlib.import_module(m.group(1)), m.group(2)):
            stale.append(f"{m.group(1)}.{m.group(2)}")
    assert stale == [], stale
