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

import csv
import re
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QRect
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QGroupBox, QLabel,
                               QLineEdit, QTabBar, QTableWidget, QWidget)

from app import export
from models import experiments
from models.cpu.services import CAUSES

CASES = tuple(experiments.registry())
DEVICE_NAME = re.compile(r"\b(VOL|DRV)\d+\b")
TARGET_ID = re.compile(r"\b[A-Z]\d+\.\w+\.\w+\b")
#: Cases whose slide deck is checked: all (the 11 decks add about 10 s to the module).
DECK_CASES = CASES


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


def _texts(root: QWidget) -> list[str]:
    out = [root.windowTitle()]
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root):
            continue
        if isinstance(w, (QLabel, QAbstractButton)):
            out.append(w.text())
        elif isinstance(w, QLineEdit):
            out += [w.text(), w.placeholderText()]
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


#: The trace's switch causes as the model records them, matched case by case
#: ("timer", "adabas_call"; the titles are "STIMER (timer)", "Adabas call").
CAUSE_RE = re.compile(r"(?<![\w.(])(%s)(?![\w)])" % "|".join(map(re.escape, CAUSES)))


def painted_texts(widget: QWidget) -> list[str]:
    """Every string ``widget`` and its children paint, as the paint engine records it."""
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(widget.size())
    gen.setViewBox(QRect(0, 0, widget.width(), widget.height()))
    widget.render(gen)
    root = ET.fromstring(bytes(buf.data()))
    return ["".join(e.itertext()) for e in root.iter() if e.tag.endswith("}text")]


def _animation_texts(win) -> list[str]:
    """What every animation view paints at the start, middle and end of the replay."""
    from ui.animation.replay_view import ReplayView
    replay = win.findChild(ReplayView)
    if replay is None or replay.data is None:
        return []
    out = []
    d = replay.data
    for i in range(replay.tabs.count()):
        replay.tabs.setCurrentIndex(i)
        for t in (d.t0, d.t0 + 0.5 * (d.t1 - d.t0), d.t1):
            replay.controller.seek(t)
            QApplication.processEvents()
            out += painted_texts(replay.tabs.widget(i))
    replay.tabs.setCurrentIndex(0)
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


def _leaks(texts) -> dict[str, str]:
    found = {}
    for text in texts:
        text = str(text)
        for m in (*RAW_RE.finditer(text), *DEVICE_NAME.finditer(text), *TARGET_ID.finditer(text)):
            found.setdefault(m.group(0), text[:120])
    return found


def _deck_texts(path) -> list[str]:
    from pptx import Presentation
    words = []
    for slide in Presentation(str(path)).slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                words.append(shape.text_frame.text)
            if shape.has_table:
                words += [c.text for row in shape.table.rows for c in row.cells]
    return words


@pytest.fixture(scope="module")
def seen(qapp, tmp_path_factory):
    """Per case: what the screen, the CSV and (for some) the slides say."""
    from ui.main_window import MainWindow
    win = MainWindow()
    win.resize(1280, 800)
    win.show()
    out = {}
    try:
        for case in CASES:
            assert win.open_case_or_file(case) is None
            win.run_and_wait()
            assert win.document.result is not None, case
            texts = []
            win.show_canvas()
            for node_id in list(win.editor.scenario.nodes):
                win.scene.select_nodes([node_id])
                win.inspector_dock.raise_()
                QApplication.processEvents()
                texts += _texts(win)
            win.results_dock.raise_()
            texts += _texts(win) + _chart_texts(win)
            painted = []
            for tab in ("charts", "animation", "history", "sweep", "compare"):
                win.show_view(tab)
                QApplication.processEvents()
                texts += _texts(win)
                if tab == "animation":
                    painted = _animation_texts(win)
            folder = tmp_path_factory.mktemp(case)
            path = export.save_tables_csv(export.result_tables(win.document.result),
                                          folder / "tables.csv")
            cells = [c for row in csv.reader(path.open(encoding="utf-8")) for c in row]
            deck = []
            if case in DECK_CASES:
                deck = _deck_texts(win.exports.write_to(str(folder / "deck.pptx")))
            out[case] = dict(screen=texts, csv=cells, deck=deck, painted=painted)
    finally:
        win.shutdown()
        win.close()
    return out


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
