"""Every case study, run in the window: a number shown in two places is one number.

For each built-in case study the window opens it, runs it, and then compares
what it shows:

* the results tables in the dock with the CSV of Export ▸ Results tables
  (every cell, as the dock formats it);
* every bar of the response and utilisation charts with the same
  component's figure in the dock's tables;
* the replay's header (the run it names, the pages of the I/O in front)
  with the results headline and the run's page count.
"""
from __future__ import annotations

from collections import Counter

import pytest

from models import experiments
from tests.ui.case_runs import CASES
from ui.docks.results import format_number


@pytest.fixture(scope="module")
def shown(case_runs):
    """Per case: the run, the dock's tables as shown, the CSV, the charts, the
    replay (read right after the case's run in the shared window, before
    anything else is done there: tests/ui/case_runs.py)."""
    return {case: run["consistency"] for case, run in case_runs.items()}


def _as_shown(text: str) -> str:
    """A CSV cell as the dock would show it."""
    try:
        return format_number(float(text))
    except ValueError:
        return text


def _number(text: str) -> str:
    return text.split(" ")[0]          # the dock's metric cell is "value unit"


@pytest.mark.parametrize("case", CASES)
def test_the_csv_holds_what_the_results_dock_shows(shown, case):
    s = shown[case]
    blocks, block = [], []
    for row in s["csv"]:
        if not row:
            blocks.append(block)
            block = []
        else:
            block.append(row)
    blocks.append(block)
    metrics, reports = blocks[0], blocks[1:]
    dock_metrics = {row[0]: _number(row[1]) for row in s["dock"][0][1:]}
    csv_metrics = {row[0]: _as_shown(row[1]) for row in metrics[2:]}
    assert dock_metrics == csv_metrics
    # A narrow report is shown turned (its columns as rows), so the header
    # and the cells are compared together.
    for dock, block in zip(s["dock"][1:], reports):
        csv_cells = Counter(_as_shown(c) for row in block[1:] for c in row)
        dock_cells = Counter(c for row in dock for c in row)
        assert csv_cells == dock_cells, (case, block[0][0])
    assert len(s["dock"]) == 1 + len(s["result"].reports)


def _component_cells(dock) -> dict[str, set[str]]:
    """Component name → every cell the dock shows for it (its row, or its column
    of a turned table, or its rows of 'Components as drawn')."""
    out: dict[str, set[str]] = {}
    for table in dock[1:]:
        head, rows = table[0], table[1:]
        for row in rows:
            out.setdefault(row[0], set()).update(row[1:])
        for c, name in enumerate(head[1:], 1):
            out.setdefault(name, set()).update(row[c] for row in rows)
    return out


def _agrees(y: float, shown: set[str]) -> bool:
    """True if one of the cells shows ``y``: as the dock formats it, or as the
    model's report rounded it (to the cell's own decimals)."""
    if format_number(y) in shown:
        return True
    for text in shown:
        try:
            v = float(text.replace(",", ""))
        except ValueError:
            continue
        if v == 0:
            continue                  # "0" says nothing about a small figure
        decimals = len(text.split(".")[1]) if "." in text else 0
        if abs(y - v) <= 0.5 * 10 ** -decimals * (1 + 1e-9):
            return True
    return False


@pytest.mark.parametrize("case", CASES)
def test_every_component_bar_is_the_figure_the_dock_shows(shown, case):
    s = shown[case]
    cells = _component_cells(s["dock"])
    checked = 0
    for key in ("response", "utilisation"):
        chart = s["charts"].get(key)
        if chart is None:
            continue
        for i, name in enumerate(chart.categories):
            assert name in cells, (case, key, name)
            for series in chart.series:
                y = float(series.y[i])
                if key == "response" and y == 0:
                    continue                   # a phase the table leaves at 0 or blank
                assert _agrees(y, cells[name]), (case, key, name, series.name, y, cells[name])
                checked += 1
    if any(k in s["charts"] for k in ("response", "utilisation")):
        assert checked > 0


@pytest.mark.parametrize("case", CASES)
def test_the_replay_header_names_this_run_and_its_io_pages(shown, case):
    s = shown[case]
    title = experiments.get(case).title
    assert title in s["headline"]
    if s["result"].trace is not None and len(s["result"].trace):
        assert title in s["note"], (case, s["note"])
    for listed, own in s["pages"]:
        assert listed <= own, case


def _badge(pct: float) -> str:
    """How a card's corner writes a busy percentage: whole numbers, and
    never 0 % or 100 % for a share that is not."""
    if 0 < pct < 1:
        return "<1 %"
    if 99 < pct < 100:
        return "99 %"
    return f"{pct:.0f} %"


@pytest.mark.parametrize("case", CASES)
def test_canvas_badges_show_the_results_tables_busy_figures(shown, case):
    """Right after a run every card's badge is its component's busy figure
    in the dock's "Components as drawn" table (whole run), and the canvas
    says that is what it shows."""
    s = shown[case]
    table = next(t for t in s["dock"] if t[0] == ["component", "figure", "value"])
    busy = {row[0]: row[2] for row in table[1:] if row[1] in ("busy %", "utilisation %")}
    assert busy or case == "library_space"
    # Both are the run's one figure, each rounded once: the table to its
    # own precision, the badge to a whole number (20.501 reads "20.5"
    # and "21 %"; rounding the table's "20.5" again would give "20 %").
    comps = s["result"].components
    value = {label: next(comps[label][k] for k in ("busy_pct", "utilization_pct")
                         if k in comps[label]) for label in busy}
    for label, v in value.items():
        assert _agrees(v, {busy[label]}), (case, label, v, busy[label])
    assert s["badges"] == {label: _badge(v) for label, v in value.items()}
    assert s["canvas_note"] == ("whole run: busy as in the results table" if busy else "")
