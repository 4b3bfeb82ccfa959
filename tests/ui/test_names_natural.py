"""Natural on a zIIP: one name per thing in the results table, the CSV, the
chart and the canvas.

The CPU time table names who the CPU was charged to; the session's own work
carries its workload card's label (renamed here, so the label cannot match
by chance), the rest are named as a reader writes them, never "NATURAL",
"ZOS", "SWITCH". The causes of the switches carry the titles the chart gives
them ("STIMER (timer)", not "timer"), with the chart's counts.
"""
from __future__ import annotations

import csv

from PySide6.QtWidgets import QApplication, QTableWidget

from app import export
from tests.ui.case_runs import table_cells

#: Who else the session's CPU is charged to: none of them is drawn.
NOT_DRAWN = {"Adabas", "SRB/TCB switches", "z/OS services"}


def _csv_tables(path) -> dict[str, list[list[str]]]:
    """The CSV's tables by title: header and rows."""
    tables, rows = {}, list(csv.reader(path.open(encoding="utf-8")))
    i = 0
    while i < len(rows):
        if rows[i] and len(rows[i]) == 1 and i + 1 < len(rows):
            j = i + 1
            while j < len(rows) and rows[j]:
                j += 1
            tables[rows[i][0]] = rows[i + 1:j]
            i = j
        i += 1
    return tables


def _count(cell: str) -> int:
    """A count as the dock ("10,000") or the CSV ("10000") writes it."""
    return int(float(cell.replace(",", "")))


def _dock_table(window, first_column: str) -> list[list[str]]:
    window.results.build_folded()   # as a user unfolding every long report
    for table in window.results.widget().findChildren(QTableWidget):
        cells = table_cells(table)
        if cells[0][0].casefold() == first_column:
            return cells[1:]
    raise AssertionError(f"no table with a {first_column!r} column in the results dock")


def test_components_and_causes_carry_their_drawn_and_charted_names(window, tmp_path):
    assert window.open_case_or_file("natural_ziip") is None
    sc = window.editor.scenario
    natural = next(n for n in sc.nodes.values() if n.kind == "wl_natural")
    sc.set_label(natural.id, "Payroll batch")
    window.run_and_wait()
    QApplication.processEvents()
    result = window.document.result
    drawn = {n.label for n in sc.nodes.values()}
    path = export.save_tables_csv(export.result_tables(result), tmp_path / "tables.csv")
    in_csv = _csv_tables(path)

    dock = {row[0] for row in _dock_table(window, "component")}
    csv_names = {row[0] for row in in_csv["CPU time by component"][1:]}
    assert dock == csv_names
    assert "Payroll batch" in dock
    assert dock - drawn == NOT_DRAWN
    # The CPU of the switches is named as the animation's tab names them.
    replay = window.views["animation"]
    tabs = {replay.tabs.tabText(i) for i in range(replay.tabs.count())}
    assert "SRB/TCB switches" in dock & tabs

    (chart,) = [c.data for c in window.views["charts"].charts().values()
                if c.data.title == "SRB→TCB switches by cause"]
    charted = {name: int(y) for name, y in zip(chart.categories, chart.series[0].y)}
    assert {r[0]: _count(r[1]) for r in _dock_table(window, "cause")} == charted
    assert {r[0]: _count(r[1]) for r in in_csv["SRB→TCB switches by cause"][1:]} == charted
    assert set(charted) == {"Adabas call", "STIMER (timer)"}
