"""The Export menu in the window: every format written, a failure is one message,
the deck builds on a worker, the published table fills without blocking."""
import csv
import xml.dom.minidom

import pytest
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QFileDialog, QInputDialog

from models.studies import calibration


@pytest.fixture
def ran(window, qtbot):
    """db2_io run with a cold cache (every chart has data), Charts tab in front."""
    window.open_case_or_file("db2_io")
    cu = window.editor.scenario.of_category("control_unit")[0]
    window.editor.set_property(cu.id, "cache", "cold")
    with qtbot.waitSignal(window.run_done, timeout=60_000):
        window.run()
    window.show_view("charts")
    QGuiApplication.processEvents()
    return window


@pytest.fixture
def save_to(monkeypatch):
    """Answer every save dialog with the next path of a list."""
    paths = []

    def answer(*_args, **_kw):
        return str(paths.pop(0)), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", answer)
    return paths


@pytest.fixture
def alerts(ran, monkeypatch):
    seen = []
    monkeypatch.setattr(ran, "alert", lambda title, text: seen.append((title, text)))
    return seen


def test_chart_png_at_1x_2x_and_a_chosen_size(ran, save_to, alerts, tmp_path, monkeypatch):
    chart = ran.current_chart()
    save_to += [tmp_path / "a.png", tmp_path / "b.png", tmp_path / "c.png"]
    ran.exports.a.png.trigger()
    ran.exports.a.png2.trigger()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("800x450", True))
    ran.exports.a.png_size.trigger()
    one, two, exact = (QImage(str(tmp_path / n)) for n in ("a.png", "b.png", "c.png"))
    assert alerts == []
    assert abs(one.width() - chart.width()) <= 2 and one.height() > 300
    assert (two.width(), two.height()) == pytest.approx((2 * one.width(), 2 * one.height()), abs=2)
    assert (exact.width(), exact.height()) == (800, 450)


def test_svg_csv_tables_and_clipboard(ran, save_to, alerts, tmp_path):
    save_to += [tmp_path / "c.svg", tmp_path / "c.csv", tmp_path / "t.csv", tmp_path / "t.png"]
    a = ran.exports.a
    for act in (a.svg, a.csv, a.tables_csv, a.tables_png):
        act.trigger()
    assert alerts == []
    assert xml.dom.minidom.parse(str(tmp_path / "c.svg")).documentElement.tagName == "svg"
    rows = list(csv.reader(open(tmp_path / "c.csv")))
    assert len(rows) - 1 == sum(len(s.x) for s in ran.current_chart().data.series)
    tables = list(csv.reader(open(tmp_path / "t.csv")))
    titles = [r[0] for r in tables if len(r) == 1]
    assert titles == ["Metrics"] + [t.title for t in ran.last_result.reports]
    # Metrics by title, values without binary float noise (issue 20).
    io_ms = ran.last_result.metrics["io_ms"]
    row = next(r for r in tables if r[:1] == ["I/O response time"])
    assert float(row[1]) == pytest.approx(io_ms, rel=1e-9) and len(row[1]) <= 12 and row[2] == "ms"
    img = QImage(str(tmp_path / "t.png"))
    assert img.height() > img.width() / 4 and not img.isNull()
    a.copy.trigger()
    assert not QGuiApplication.clipboard().image().isNull()


def test_compare_exports_give_both_halves_labelled_in_png_svg_and_csv(ran, save_to, alerts,
                                                                     tmp_path):
    """With the Compare tab in front, each chart export holds run A and run B,
    each under its run's label (the SVG gave only the left half)."""
    from models import experiments
    cold = ran.last_result
    warm = experiments.run_experiment("db2_io", {}, trace=True)
    cv = ran.study.compare_view
    cv.set_results(cold, warm, "Run #1: cache cold", "Run #2: cache resident")
    ran.show_view("compare")
    QGuiApplication.processEvents()
    save_to += [tmp_path / "c.png", tmp_path / "c.svg", tmp_path / "c.csv"]
    a = ran.exports.a
    for act in (a.png, a.svg, a.csv):
        act.trigger()
    assert alerts == []
    # The picture is 16:9, each half laid out at its half (was a strip at screen
    # size), in the SVG as in the PNG.
    png = QImage(str(tmp_path / "c.png"))
    assert (png.width(), png.height()) == (1280, 720)
    svg = xml.dom.minidom.parse(str(tmp_path / "c.svg")).documentElement
    assert (float(svg.getAttribute("width")), float(svg.getAttribute("height"))) == (1280, 720)
    text = (tmp_path / "c.svg").read_text(encoding="utf-8")
    assert "Run #1: cache cold" in text and "Run #2: cache resident" in text
    rows = list(csv.reader(open(tmp_path / "c.csv", encoding="utf-8")))
    assert ["Run #1: cache cold"] in rows and ["Run #2: cache resident"] in rows


def test_failed_export_is_one_message_and_writes_nothing(ran, save_to, alerts, tmp_path, qtbot):
    save_to += [tmp_path / "gone" / "x.png", tmp_path / "gone" / "x.pptx"]
    ran.exports.a.png2.trigger()
    assert len(alerts) == 1 and "cannot write" in alerts[0][1] and "gone" in alerts[0][1]
    with qtbot.waitSignal(ran.exports.deck_runner.done, timeout=60_000):
        ran.exports.a.slides.trigger()         # fails on the worker, after the table
    assert len(alerts) == 2 and alerts[1][0] == "Slides not saved" and "x.pptx" in alerts[1][1]
    left = {p.name for p in tmp_path.rglob("*")} - {"settings.ini"}
    assert {n for n in left if not n.startswith("history.sqlite3")} == set()
    assert ran.isVisible() and not ran.task_progress.isVisible()   # the app keeps running


def test_no_chart_to_export_says_so_once(window, save_to, monkeypatch):
    seen = []
    monkeypatch.setattr(window, "alert", lambda title, text: seen.append(title))
    window.exports.a.svg.trigger()
    assert seen == ["No chart"]


def test_slides_build_on_a_worker_with_every_part(ran, save_to, alerts, tmp_path, qtbot):
    from pptx import Presentation
    save_to.append(tmp_path / "deck.pptx")
    with qtbot.waitSignal(ran.exports.deck_runner.done, timeout=60_000):
        ran.exports.a.slides.trigger()
        assert ran.task_progress.isVisible()       # progress shown while it builds
    assert alerts == [] and not ran.task_progress.isVisible()
    prs = Presentation(str(tmp_path / "deck.pptx"))
    titles = [s.shapes.title.text for s in prs.slides]
    charts = list(ran.charts_view().charts().values())
    assert titles[0] == ran.editor.scenario.title or titles[0] == "One DB2 I/O"
    assert titles[1] == "The scenario"
    assert titles[2:2 + len(charts)] == [c.data.title for c in charts]
    assert titles[-1].startswith("Published vs model")
    table = [sh for sh in prs.slides[-1].shapes if sh.has_table][0].table
    n = sum(t["experiment"] == "db2_io" for t in calibration.load_targets())
    assert len(table.rows) == n + 1


def test_slides_after_an_edit_say_they_have_no_charts(ran, save_to, alerts, tmp_path, qtbot):
    from pptx import Presentation
    chp = ran.editor.scenario.of_category("channel")[0]
    ran.editor.delete([chp.id])                         # the run is now of another drawing
    save_to.append(tmp_path / "stale.pptx")
    with qtbot.waitSignal(ran.exports.deck_runner.done, timeout=60_000):
        ran.exports.a.slides.trigger()
    titles = [s.shapes.title.text for s in Presentation(str(tmp_path / "stale.pptx")).slides]
    assert titles[1] == "The scenario" and titles[2].startswith("Published vs model")
    said = ran.status.text()
    assert said.startswith("Saved slides") and "no chart slides" in said \
        and "before your last edit" in said


def test_published_table_fills_on_a_worker_without_blocking(ran, qtbot):
    dialog = ran.study.published
    got = []
    dialog.rows_ready.connect(lambda name, rows: got.append(name))
    with qtbot.waitSignal(dialog.runner.done, timeout=60_000):
        ran.published_button.click()
        assert dialog.isVisible() and dialog.table.rowCount() == 0   # returned at once
        assert dialog.progress.isVisible()
    ids = [t["id"] for t in calibration.load_targets() if t["experiment"] == "db2_io"]
    assert got == ["db2_io"] and [r[0] for r in dialog.table.rows] == ids
    assert dialog.table.rowCount() == len(ids) and not dialog.progress.isVisible()


def test_save_dialogs_name_files_by_the_case_and_remember_the_folder(ran, tmp_path,
                                                                     monkeypatch):
    """The suggested name is the case's title, and the next dialog opens in
    the folder chosen last (the chart, then the slides)."""
    from app.names import file_stem

    asked = []
    folder = tmp_path / "talk"
    folder.mkdir()

    def answer(_parent, _title, suggested, _filter):
        asked.append(suggested)
        return str(folder / "x.png"), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", answer)
    ran.exports.a.png.trigger()
    stem = file_stem(ran.document.title())
    assert f"{ran.document.scenario.experiment}-" not in asked[0]     # not the internal key
    assert asked[0].endswith(f"{stem}-{ran.current_chart().data.key}.png")
    monkeypatch.setattr(ran.exports, "_deck_job", lambda *a: None)
    ran.exports._ask("Slides (PowerPoint)", f"{stem}.pptx", "PowerPoint (*.pptx)")
    assert asked[1] == str(folder / f"{stem}.pptx")


def test_file_stem_from_a_case_title():
    from app.names import file_stem

    assert file_stem("HDD → SSD, before: random reads on HDD 15K") == \
        "HDD-to-SSD-before-random-reads-on-HDD-15K"
    assert file_stem("") == "zperflab"
