"""Every built-in case study, run once in one window, read by two test modules.

``test_consistency_cases.py`` (a number shown in two places is one number)
and ``test_names_cases.py`` (no internal name on any tab, CSV or slide) both
need each case study opened and run in a window; one run of each serves
both (about 15 s of the suite). After each run the window is read in a fixed
order:

1. :func:`consistency_reads`: the results dock's tables, the CSV, the charts'
   data, the replay's header and its I/O pages. It only reads: nothing is
   brought forward, selected or seeked, so it sees the window exactly as the
   run left it (as its own fixture did when it ran the cases itself).
2. :func:`names_reads`: every component selected in turn, every tab brought
   forward, the replay seeked, the CSV and the slide deck written.

The session fixture ``case_runs`` (``tests/ui/conftest.py``) holds the
result: ``case_runs[case]["consistency"]`` and ``case_runs[case]["names"]``.
The window runs with a private settings file and data folder, so its runs
never land in (or read) the user's run history.
"""
from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QRect
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QGroupBox, QLabel,
                               QLineEdit, QTabBar, QTableWidget, QWidget)

from app import export
from models import experiments

CASES = tuple(experiments.registry())
#: Cases whose slide deck is written and read: all (the 11 decks take about
#: 35 s, most of it the published-vs-model table running each case's targets).
DECK_CASES = CASES


def run_every_case(tmp_path_factory, cases=CASES, deck_cases=DECK_CASES) -> dict[str, dict]:
    """Open and run each case in one window; per case what both modules read."""
    from ui.main_window import MainWindow
    out: dict[str, dict] = {}
    with pytest.MonkeyPatch.context() as mp:
        private = tmp_path_factory.mktemp("case_runs_user")
        mp.setenv("ZPERFLAB_DATA_DIR", str(private / "data"))
        mp.setenv("ZPERFLAB_SETTINGS", str(private / "settings.ini"))
        win = MainWindow()
        win.resize(1280, 800)
        win.show()
        try:
            for case in cases:
                assert win.open_case_or_file(case) is None
                win.run_and_wait()
                result = win.document.result
                assert result is not None and result.experiment == case, case
                consistency = consistency_reads(win, result, tmp_path_factory.mktemp(case))
                names = names_reads(win, tmp_path_factory.mktemp(case), case in deck_cases)
                out[case] = dict(consistency=consistency, names=names)
        finally:
            win.shutdown()
            win.close()
    return out


# ---- test_consistency_cases.py ------------------------------------------------
def consistency_reads(win, result, folder) -> dict:
    """The run, the dock's tables as shown, the CSV, the charts, the replay."""
    QApplication.processEvents()
    win.results.build_folded()      # as a user unfolding every long report
    dock = [table_cells(t) for t in win.results.widget().findChildren(QTableWidget)]
    path = folder / "tables.csv"
    export.save_tables_csv(export.result_tables(result), path)
    rows = list(csv.reader(path.open(encoding="utf-8")))
    # Through the window, as a user opening the tabs sees them (a big run is
    # drawn on them when they open).
    charts = {k: c.data for k, c in win.charts_view().charts().items()}
    replay = win.replay_view()
    pages = replay_pages(replay)
    sc = win.editor.scenario
    badges = {sc.nodes[nid].label: win.scene.activity_for(nid).badge for nid in sc.nodes
              if win.scene.activity_for(nid) is not None}
    return dict(result=result, dock=dock, csv=rows, charts=charts,
                headline=win.results.headline.text(), note=replay.note.text(), pages=pages,
                badges=badges, canvas_note=win.scene.activity_note)


def table_cells(table: QTableWidget) -> list[list[str]]:
    head = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    return [head] + [[table.item(r, c).text() if table.item(r, c) else ""
                      for c in range(table.columnCount())] for r in range(table.rowCount())]


def replay_pages(replay) -> list[tuple[int, int]]:
    """(pages listed in the track view, pages of that I/O) at a few I/O starts."""
    track = getattr(replay, "views", {}).get("Track reads")
    data = replay.data
    if track is None or data is None:
        return []
    vols = [v for v in data.component_names("VOL") if len(data.rows_of(v, "io_start"))]
    if not vols:
        return []
    starts = data.rows_of(vols[0], "io_start")
    out = []
    for row in starts[len(starts) // 2: len(starts) // 2 + 5]:
        state = track.compute(data, float(data.t[row]) + 1e-9)
        io_row = next((r for r in starts if int(data.a[r]) == state.io_id), None)
        if io_row is not None:
            out.append((len(state.pages), int(data.b[io_row])))
    return out


# ---- test_names_cases.py ------------------------------------------------------
def names_reads(win, folder, with_deck: bool) -> dict:
    """What the screen (every tab, every component selected), the painted
    animation views, the CSV and (``with_deck``) the slides say."""
    texts = []
    win.show_canvas()
    for node_id in list(win.editor.scenario.nodes):
        win.scene.select_nodes([node_id])
        win.inspector_dock.raise_()
        QApplication.processEvents()
        texts += widget_texts(win)
    win.results_dock.raise_()
    texts += widget_texts(win) + chart_texts(win)
    painted = []
    for tab in ("charts", "animation", "history", "sweep", "compare"):
        win.show_view(tab)
        QApplication.processEvents()
        texts += widget_texts(win)
        if tab == "animation":
            painted = animation_texts(win)
    path = export.save_tables_csv(export.result_tables(win.document.result),
                                  folder / "tables.csv")
    cells = [c for row in csv.reader(path.open(encoding="utf-8")) for c in row]
    deck = []
    if with_deck:
        deck = deck_texts(win.exports.write_to(str(folder / "deck.pptx")))
    return dict(screen=texts, csv=cells, deck=deck, painted=painted)


def widget_texts(root: QWidget) -> list[str]:
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


def animation_texts(win) -> list[str]:
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


def chart_texts(win) -> list[str]:
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


def deck_texts(path) -> list[str]:
    from pptx import Presentation
    words = []
    for slide in Presentation(str(path)).slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                words.append(shape.text_frame.text)
            if shape.has_table:
                words += [c.text for row in shape.table.rows for c in row.cells]
    return words
