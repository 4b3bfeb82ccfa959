"""No internal name reaches the screen, a slide or a CSV header (issue 20, finding 8).

Every parameter and metric has a title; a refused value is told by title;
the CSV and the deck of one case carry no raw key, no float noise and no
target id. The window's texts, painted animation text, CSVs and decks of
every case study are scanned in ``test_names_cases.py``.

What another module still produces is listed in ``KNOWN`` with the reason, so
the test passes today and fails as soon as something new leaks.
"""
from __future__ import annotations

import csv
import io
import re

import pytest

from models import experiments

DEVICE_NAME = re.compile(r"\b(VOL|DRV)\d+\b")

#: (case, raw text) still shown, and why; each is a file outside this change.
KNOWN: dict[tuple[str, str], str] = {}

#: Experiments whose parameters and metrics still lack a ``label`` (their
#: titles would be the key in words: "Pct read", "Dasd ios per tran"), and why.
UNLABELLED: dict[str, str] = {}
#: Parameters declared once for several experiments in models/experiments/common.py.
SHARED: set[str] = set()   # common.py labels its shared parameters too


def _keys(case: str) -> set[str]:
    exp = experiments.get(case)
    keys = {p.name for p in exp.schema.params} | {m.name for m in exp.metrics} | {exp.name}
    return {k for k in keys if "_" in k}


def _leaks(case: str, texts: list[str]) -> set[str]:
    found = set()
    for text in texts:
        for key in _keys(case):
            if re.search(rf"(?<![\w.]){re.escape(key)}(?![\w])", text):
                found.add(key)
        found |= {m.group(0) for m in DEVICE_NAME.finditer(text)}
    return {f for f in found if (case, f) not in KNOWN}


def test_no_raw_key_in_the_results_csv_or_the_slides(window, qtbot, tmp_path):
    from app import export, pptx_export
    from ui.charts.published import DISPLAY_HEADER, display_rows, published_rows
    win = window
    assert win.open_case_or_file("program_fetch") is None
    win.run_and_wait()
    path = export.save_tables_csv(export.result_tables(win.last_result), tmp_path / "t.csv")
    rows = list(csv.reader(io.StringIO(path.read_text())))
    texts = [c for r in rows for c in r if not _is_number(c)]
    assert _leaks("program_fetch", texts) == set()
    assert not any("0000000" in c or "9999999" in c for r in rows for c in r)   # no float noise
    slides = win.exports._chart_slides()
    table_rows = display_rows(published_rows("program_fetch"))
    deck = pptx_export.build_deck(tmp_path / "d.pptx", "Program fetch", "seed 1",
                                  charts=slides, table=(DISPLAY_HEADER, table_rows))
    from pptx import Presentation
    words = [shape.text_frame.text for s in Presentation(str(deck)).slides
             for shape in s.shapes if shape.has_text_frame]
    words += [c.text for s in Presentation(str(deck)).slides for shape in s.shapes
              if shape.has_table for row in shape.table.rows for c in row.cells]
    assert _leaks("program_fetch", words) == set()
    assert not any(re.match(r"^[A-Z]\d+\.\w+\.\w+", w) for w in words)   # no target ids


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", ""))
        return True
    except ValueError:
        return False


def test_every_parameter_and_metric_has_a_title_a_person_reads():
    missing = []
    for name, exp in experiments.registry().items():
        if name in UNLABELLED:
            continue
        missing += [f"{name}: parameter {p.name}" for p in exp.schema.params
                    if not p.label and p.name not in SHARED]
        missing += [f"{name}: metric {m.name}" for m in exp.metrics if not m.label]
    assert missing == []


def test_a_refused_value_can_be_told_by_title():
    from models.core.params import ParamError
    schema = experiments.get("program_fetch").schema
    with pytest.raises(ParamError) as err:
        schema.resolve({"blksize": "big"})
    assert "'blksize'" in str(err.value)                 # the command line's word
    assert err.value.human.startswith("bad value for Block size: big")
