"""No internal name on any tab, slide or CSV header, after every case study runs.

For every built-in case study one window opens it, runs it, and then every
tab is brought forward in turn (the canvas with each component selected, so
the inspector shows its fields and their choices; Charts; Animation;
History; Sweep; Compare) and its visible texts are read: labels, buttons,
tabs, combo items, table headers and cells, line-edit texts, chart titles,
axes, categories and legends. They must hold no parameter or metric key,
no experiment id, no raw choice value (all: the words with an underscore,
``adabas_read``), and no ``VOLn``/``DRVn``. The results CSV's texts and
the slide deck's texts are read as well.

The animation views paint their text (QPainter.drawText, no widgets): each
view the run offers is rendered at the start, the middle and the end of the
replay into a QSvgGenerator, and the ``<text>`` elements of that SVG are
read. This is the paint engine's own record of every string the view drew,
so it cannot drift from what is painted. Painted text is also checked for
the trace's own identifiers: switch causes (``adabas_call``, ``timer``).
"""
from __future__ import annotations

import re

import pytest

from models import experiments
from models.cpu.services import CAUSES
from tests.ui.case_runs import CASES, DECK_CASES

DEVICE_NAME = re.compile(r"\b(VOL|DRV)\d+\b")
TARGET_ID = re.compile(r"\b[A-Z]\d+\.\w+\.\w+\b")


def _raw_words() -> set[str]:
    words = set()
    for exp in experiments.registry().values():
        words.add(exp.name)
        for p in exp.schema.params:
            words.add(p.name)
            words.update(str(c) for c in p.choices)
        words.update(m.name for m in exp.metrics)
    return {w for w in words if "_" in w}


RAW = _raw_words()
RAW_RE = re.compile(r"(?<![\w.])(%s)(?!\w)" % "|".join(sorted(map(re.escape, RAW), key=len,
                                                                 reverse=True)))

#: The trace's switch causes as the model records them, matched case by case
#: ("timer", "adabas_call"; the titles are "STIMER (timer)", "Adabas call").
CAUSE_RE = re.compile(r"(?<![\w.(])(%s)(?![\w)])" % "|".join(map(re.escape, CAUSES)))


def _leaks(texts) -> dict[str, str]:
    found = {}
    for text in texts:
        text = str(text)
        for m in (*RAW_RE.finditer(text), *DEVICE_NAME.finditer(text), *TARGET_ID.finditer(text)):
            found.setdefault(m.group(0), text[:120])
    return found


@pytest.fixture(scope="module")
def seen(case_runs):
    """Per case: what the screen, the painted views, the CSV and the slides say
    (read after the case's run in the shared window: tests/ui/case_runs.py)."""
    return {case: run["names"] for case, run in case_runs.items()}


@pytest.mark.parametrize("case", CASES)
def test_no_internal_name_on_any_tab_after_the_run(seen, case):
    assert _leaks(seen[case]["screen"]) == {}


@pytest.mark.parametrize("case", CASES)
def test_no_internal_name_painted_by_the_animation_views(seen, case):
    painted = seen[case]["painted"]
    assert _leaks(painted) == {}
    causes = {}
    for text in painted:
        for m in CAUSE_RE.finditer(text):
            causes.setdefault(m.group(0), text)
    assert causes == {}


def test_the_animation_views_paint_switch_causes_by_title(seen):
    """The check above reads real painted text: the SRB/TCB view's causes are in it."""
    painted = seen["natural_ziip"]["painted"]
    assert "Switches by cause" in painted
    assert "Adabas call" in painted and "→ TCB for Adabas call" in painted


@pytest.mark.parametrize("case", CASES)
def test_no_internal_name_in_the_results_csv(seen, case):
    assert _leaks(seen[case]["csv"]) == {}


@pytest.mark.parametrize("case", DECK_CASES)
def test_no_internal_name_on_the_slides(seen, case):
    assert seen[case]["deck"], case
    assert _leaks(seen[case]["deck"]) == {}


def test_a_mix_is_shown_and_typed_in_words(window):
    assert window.open_case_or_file("vsam_rls") is None
    sc = window.editor.scenario
    holder = next(n for n in sc.nodes.values()
                  if any(p.kind == "mix" for p in sc.params_for(n.id)))
    key = next(p.name for p in sc.params_for(holder.id) if p.kind == "mix")
    window.scene.select_nodes([holder.id])
    field = window.inspector.fields[key]
    assert "Read update" in field.text() and "read_update" not in field.text()
    field.setText("Read 50 %, Read update 50 %")
    field.setModified(True)
    field.editingFinished.emit()
    assert sc.value_for(holder.id, sc.param(key)) == {"read": 50, "read_update": 50}


def test_every_switch_cause_has_a_title():
    from app.names import CAUSE_TITLES, cause_title
    assert set(CAUSES) <= set(CAUSE_TITLES)
    assert not any(CAUSE_RE.search(cause_title(c)) for c in CAUSES)
