"""Compare's export of a baseline and a what-if: a 16:9 picture of the pair,
the groups in one order on both sides, RMF's bars named beside each run, and
a before/after deck (issue 40, items 3 and 4)."""
import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog
from pptx import Presentation

from models.core.run import RunResult


def run(window, qtbot):
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        assert window.run()


def groups(order: list[str], resp: dict[str, float]) -> RunResult:
    """A run of storage groups ``order`` (in that order), each with response ``resp``."""
    comps = {g: {"io_rate": 100.0, "resp_ms": resp[g], "iosq_ms": 0.0, "pend_ms": 0.1,
                 "disc_ms": resp[g] - 0.2, "conn_ms": 0.1, "busy_pct": 5.0} for g in order}
    return RunResult("custom", {}, 1, {"io_ms": 0.5}, components=comps)


def test_both_sides_show_the_groups_in_one_order(window):
    cv = window.study.compare_view
    resp = {"SGDB2": 0.6, "SGTSO": 0.25, "SGIMS": 0.4}
    cv.set_results(groups(["SGDB2", "SGTSO", "SGIMS"], resp),
                   groups(["SGTSO", "SGIMS", "SGDB2"], {**resp, "SGDB2": 0.21}), "A", "B")
    left, right = (side.charts()["response"].data for side in (cv.left, cv.right))
    assert right.categories == left.categories == ("SGDB2", "SGTSO", "SGIMS")
    totals = sum(s.y for s in right.series)
    assert np.allclose(totals, [0.21, 0.25, 0.4])       # each value moved with its group


@pytest.fixture
def sysa_pair(window, qtbot):
    """rmf_sysa run as imported, then with SGDB2 on SSD (Properties' change of
    kind), both compared from History and run again with RMF beside them."""
    win = window
    assert win.open_case_or_file("rmf_sysa") is None
    run(win, qtbot)
    sgdb2 = next(nid for nid, n in win.editor.scenario.nodes.items() if n.label == "SGDB2")
    assert win.editor.change_kind(sgdb2, "drive", "SSD") is None
    run(win, qtbot)
    history = win.study.history
    assert history.flush(10)
    whatif, base = history.runs()[:2]
    win.study.compare_records(base, whatif)
    cv = win.study.compare_view
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=120_000):
        cv.run_button.click()          # "Run before and after": traces and RMF's figures
    return win, cv, base, whatif


def test_rmf_stands_beside_each_run_named_and_the_picture_is_16_by_9(sysa_pair, tmp_path,
                                                                      monkeypatch):
    win, cv, base, whatif = sysa_pair
    assert cv.label_a.text() == f"Run #{base.id}: baseline as imported"
    assert cv.label_b.text() == f"Run #{whatif.id}: what-if: SGDB2 on SSD"
    right = cv.right.charts()["measured_rate"].data
    assert [s.name for s in right.series] == ["measured (RMF)", "what-if: SGDB2 on SSD"]
    assert right.title == "Measured vs what-if (SGDB2 on SSD): I/O rate"
    left = cv.left.charts()["measured_rate"].data
    assert [s.name for s in left.series] == ["measured (RMF)", "baseline as imported"]
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "pair.png"), ""))
    cv.left.tabs.setCurrentWidget(cv.left.charts()["measured_response"])
    win.exports.a.png.trigger()
    image = QImage(str(tmp_path / "pair.png"))
    assert (image.width(), image.height()) == (1280, 720)
    # Each half fills its height: the right one came out at screen size in a
    # corner when the tab's layout put it back while the left was drawn.
    for x0 in (0, 640):
        low = [image.pixelColor(x, y).lightness() for x in range(x0, x0 + 640, 4)
               for y in range(600, 700, 4)]
        assert min(low) < 128          # bars, axis or tick labels down there


def test_slides_from_compare_are_the_before_after_deck(sysa_pair, qtbot, tmp_path,
                                                       monkeypatch):
    win, cv, base, whatif = sysa_pair
    path = tmp_path / "pair.pptx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    with qtbot.waitSignal(win.exports.deck_runner.done, timeout=120_000):
        assert win.exports.slides()
    slides = list(Presentation(str(path)).slides)
    titles = [s.shapes.title.text for s in slides]
    assert "I/O response time by component: before and after" in titles
    assert "Measured vs baseline and what-if: I/O rate" in titles
    subtitle = slides[0].placeholders[1].text_frame.text
    assert "baseline as imported" in subtitle and "what-if: SGDB2 on SSD" in subtitle
    pair = slides[titles.index("I/O response time by component: before and after")]
    assert [sh.image.size for sh in pair.shapes if sh.shape_type == 13] == [(1920, 1080)]
