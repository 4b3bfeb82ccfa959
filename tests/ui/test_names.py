"""No internal name reaches the screen, a slide or a CSV header (issue 20, finding 8).

After each case study runs, every visible text of the window (labels,
buttons, tabs, table cells, combo items, chart titles, axes and legends) is
scanned for the experiment's raw metric and parameter keys (those with an
underscore: "records" is also a word) and for VOLn/DRVn device names. The
slide deck's texts and the CSV headers are scanned too.

What another module still produces is listed in ``KNOWN`` with the reason, so
the test passes today and fails as soon as something new leaks.
"""
from __future__ import annotations

import csv
import io
import re

import pytest
from PySide6.QtWidgets import (QAbstractButton, QComboBox, QGroupBox, QLabel, QTabBar,
                               QTableWidget, QWidget)

from models import experiments

CASES = ("program_fetch", "library_space", "natural_ziip", "spool_dump", "db2_io")
DEVICE_NAME = re.compile(r"\b(VOL|DRV)\d+\b")

#: (case, raw text) still shown, and why; each is a file outside this change.
KNOWN: dict[tuple[str, str], str] = {}

#: Experiments whose parameters and metrics still lack a ``label`` (their
#: titles would be the key in words: "Pct read", "Dasd ios per tran"), and why.
UNLABELLED: dict[str, str] = {}
#: Parameters declared once for several experiments in models/experiments/common.py.
SHARED: set[str] = set()   # common.py labels its shared parameters too


def _texts(root: QWidget) -> list[str]:
    out = [root.windowTitle()]
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root):
            continue
        if isinstance(w, QLabel):
            out.append(w.text())
        elif isinstance(w, QAbstractButton):
            out.append(w.text())
        elif isinstance(w, QGroupBox):
            out.append(w.title())
        elif isinstance(w, QTabBar):
            out += [w.tabText(i) for i in range(w.count())]
        elif isinstance(w, QComboBox):
            out += [w.itemText(i) for i in range(w.count())]
        elif isinstance(w, QTableWidget):
            out += [w.horizontalHeaderItem(c).text() for c in range(w.columnCount())
                    if w.horizontalHeaderItem(c)]
            out += [w.item(r, c).text() for r in range(w.rowCount())
                    for c in range(w.columnCount()) if w.item(r, c)]
    return out


def _chart_texts(win) -> list[str]:
    out = []
    for chart in win.views["charts"].charts().values():
        item = chart.getPlotItem()
        out.append(item.titleLabel.text)
        out += [item.getAxis(s).labelText for s in ("left", "bottom")]
        out += [str(c) for c in chart.data.categories]
        if item.legend is not None:
            out += [label.text for _, label in item.legend.items]
        out += [str(h) for h in chart.data.csv_rows()[0]]
    return out


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


@pytest.mark.parametrize("case", CASES)
def test_no_raw_key_or_device_name_on_screen_after_a_run(window, qtbot, case):
    win = window
    assert win.open_case_or_file(case) is None
    win.run_and_wait()
    assert win.last_result is not None
    texts = _texts(win) + _chart_texts(win)
    for tab in ("charts", "animation"):
        win.show_view(tab)
        texts += _texts(win)
    assert _leaks(case, texts) == set()


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
    from models.params import ParamError
    schema = experiments.get("program_fetch").schema
    with pytest.raises(ParamError) as err:
        schema.resolve({"blksize": "big"})
    assert "'blksize'" in str(err.value)                 # the command line's word
    assert err.value.human.startswith("bad value for Block size: big")
