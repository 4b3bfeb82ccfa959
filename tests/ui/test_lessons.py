"""Every step of every lesson reaches the state it names, in the window."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app import lessons
from ui.lessons.driver import drawing

ALL = lessons.load_all()


@pytest.mark.parametrize("lesson", ALL, ids=[x.name for x in ALL])
def test_walk_every_step(window, qtbot, lesson):
    """Next through the lesson: each step's drawing, run, view, moment and highlight."""
    parts = window.lessons
    assert parts.start(lesson.name) is None
    player = parts.player
    for i, step in enumerate(lesson.steps):
        if i:
            player.next()
        state = player.state()
        assert state["step"] == i
        assert state["problem"] == "", (lesson.name, i, state["problem"])
        # The drawing is the step's (its edits applied with undo commands).
        assert state["drawing"] == drawing(lesson.document_at(i)), (lesson.name, i)
        assert state["title"] == lesson.document_at(i)["title"], (lesson.name, i)
        ran = lesson.run_needed(i) is not None
        assert state["ran"] == ran, (lesson.name, i)
        assert window.tab_name() == lesson.view_at(i)
        moment = lesson.moment_at(i)
        if moment is not None and (step.moment or step.run):
            t = lessons.find_moment(player.result.trace, moment)
            assert t is not None and state["moment_t"] == pytest.approx(t)
            assert player.driver.controller().t == pytest.approx(t)
        if step.play is not None:
            assert player.driver.controller().playing
        shown = [s for s in lesson.steps[:i + 1] if s.kind == "step"][-1]
        hl = shown.highlight
        if hl:
            assert state["highlight"] == next(iter(hl.values())), (lesson.name, i)
        assert parts.panel.where.text() == f"Step {i + 1} of {len(lesson.steps)}"
    assert lesson.steps[-1].kind == "answer"
    assert parts.panel.caption.text().startswith("<b>Answer.</b>")


def test_undo_reset_back_and_keys(window, qtbot):
    """A step's edits undo; Reset step puts them back; Back restores the earlier
    drawing; Space and the arrows step while no text field has the keys."""
    lesson = lessons.get("db2_io")
    parts = window.lessons
    parts.start("db2_io")
    player = parts.player
    assert window.editor.scenario.nodes  # the case is open
    cu = next(n for n in window.editor.scenario.nodes.values() if n.label == "DS8000 CU")
    assert cu.properties.get("cache") == "cold"          # the featured case opens cold
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert player.index == 1
    kinds = {n.label: n.kind for n in window.editor.scenario.nodes.values()}
    assert kinds["CHPID 40"] == "chan_ficon"
    window.editor.undo_stack.undo()                      # Undo works on a lesson's edit
    kinds = {n.label: n.kind for n in window.editor.scenario.nodes.values()}
    assert kinds["CHPID 40"] == "chan_zhpf"
    player.reset_step()
    assert player.state()["drawing"] == drawing(lesson.document_at(1))
    qtbot.keyClick(window, Qt.Key.Key_Left)
    assert player.index == 0
    assert player.state()["drawing"] == drawing(lesson.document_at(0))
    qtbot.keyClick(window, Qt.Key.Key_Right)
    assert player.index == 1
    player.go(len(lesson.steps) - 2)                     # jump to the question
    assert "Question." in parts.panel.caption.text()


def test_presentation_keys(window, qtbot):
    """F11 mode: docks hidden, Space/arrows step, Escape leaves and restores."""
    parts = window.lessons
    parts.start("natural_ziip")
    window.show()
    was_visible = window.docks["inspector"].isVisible() or window.docks["palette"].isVisible()
    parts.presentation.set_on(True, full_screen=False)
    assert parts.presentation.on
    assert not window.menuBar().isVisible()
    assert not any(d.isVisible() for d in window.docks.values())
    assert parts.dock.isVisible()
    import re

    caption_pt = int(re.search(r"#lessonCaption \{ font-size: (\d+)pt", parts.panel.styleSheet())[1])
    assert caption_pt >= 16                       # the caption band reads from the back
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert parts.player.index == 1
    qtbot.keyClick(window, Qt.Key.Key_Left)
    assert parts.player.index == 0
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not parts.presentation.on
    assert window.menuBar().isVisible()
    if was_visible:
        assert any(d.isVisible() for d in window.docks.values())


def test_empty_canvas_hint(window, qtbot):
    """'Drag a workload here' on an empty canvas, gone once a component is there."""
    from PySide6.QtGui import QImage, QPainter

    from ui.canvas import view as canvas_view

    window.new_scenario()
    window.show()
    calls = []
    real = canvas_view.QPainter.drawText

    def spy(painter, *args):
        calls.append(args[-1])
        return real(painter, *args)
    image = QImage(400, 300, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        canvas_view.QPainter.drawText = spy
        canvas_view._draw_empty_hint(window.view, painter)
        assert any(canvas_view.EMPTY_HINT in str(c) for c in calls)
        calls.clear()
        window.editor.add_component("wl_db2", 0, 0)
        canvas_view._draw_empty_hint(window.view, painter)
        assert not calls
    finally:
        canvas_view.QPainter.drawText = real
        painter.end()


def test_first_five_minutes_start_page_to_question(window, qtbot):
    """Start page → Start the tour → Next until the question, then the answer."""
    window.show_start_page()
    assert window.start_page.lesson_buttons  # a Lesson button beside the cases
    window.start_page.tour_button.click()
    player = window.lessons.player
    tour = lessons.load_all()[0]
    assert player.lesson.name == tour.name and player.index == 0
    assert window.lessons.dock.isVisible()
    while player.lesson.steps[player.index].kind != "question":
        qtbot.keyClick(window, Qt.Key.Key_Space)
    assert "Question." in window.lessons.panel.caption.text()
    assert "<b>Answer.</b>" not in window.lessons.panel.caption.text()
    qtbot.keyClick(window, Qt.Key.Key_Space)
    # The answer's figures are the runs the class watched, written as the
    # results table writes them.
    from app import lesson_figures
    from app.names import format_number

    shown = window.lessons.panel.caption.text()
    assert lesson_figures.step_text(tour, player.index, player.results) in shown
    zhpf = player.results[tour.run_steps()[-1]].metrics["io_ms"]
    assert f"{format_number(zhpf)} ms" in shown and "{" not in shown


def test_pointer_spot_follows_the_mouse(window, qtbot):
    """In presentation mode a disc is drawn where the mouse is."""
    from PySide6.QtCore import QPoint

    parts = window.lessons
    window.show()
    parts.presentation.set_on(True, full_screen=False)
    spot = parts.presentation.spot
    assert spot.isVisible()
    target = window.centralWidget()
    qtbot.mouseMove(target, QPoint(200, 150))
    expected = spot.mapFromGlobal(target.mapToGlobal(QPoint(200, 150)))
    assert (round(spot.pos_.x()), round(spot.pos_.y())) == (expected.x(), expected.y())
    parts.presentation.set_on(False)
    assert not spot.isVisible()


def test_long_lesson_title_wraps_whole_at_1024(window, qtbot):
    """At projector width the band's title reads whole, wrapped onto a second
    line rather than cut off or elided; the step list gives its room up."""
    parts = window.lessons
    parts.start("db2_io")
    window.show()
    parts.presentation.set_on(True, full_screen=False)
    window.resize(1024, 768)
    qtbot.wait(50)
    title = parts.panel.title
    full = ALL[0].title
    assert title.toolTip() == full and title.shown_text() == full and title.wordWrap()
    one_line = title.fontMetrics().horizontalAdvance(full)
    assert one_line > title.contentsRect().width()        # it needs the second line …
    assert title.heightForWidth(title.width()) <= title.height() + 1   # … and has it
    assert not parts.panel.jump.isVisible() and parts.panel.where.text() == "Step 1 of 6"
    parts.presentation.set_on(False)


def test_a_what_if_lessons_run_is_named_by_its_study(window):
    """The results headline of a what-if lesson's run names the study's
    drawing, not only "Your own system"."""
    parts = window.lessons
    assert parts.start("whatif_add_ziip", 1) is None
    title = parts.player.lesson.scenario_at(1).title
    assert title and "zIIP" in title
    assert title in window.results.headline.text()


@pytest.mark.parametrize("name", ["whatif_hdd_to_ssd", "whatif_add_ziip"])
def test_a_what_if_lessons_after_run_is_named_by_the_after_drawing(window, name):
    """Step 3 shows the after drawing's run: the results headline names the
    after drawing, never the before drawing the lesson opened."""
    from models.studies import whatif

    before, after = whatif.study(name.removeprefix("whatif_")).documents()
    parts = window.lessons
    assert parts.start(name, 2) is None
    head = window.results.headline.text()
    assert after["title"] in head and before["title"] not in head
    assert window.editor.scenario.title == after["title"]
    parts.player.back()                      # Back: the before drawing, named so
    assert before["title"] in window.results.headline.text()


@pytest.mark.parametrize("name", ["whatif_hdd_to_ssd"])
def test_next_into_a_what_if_lessons_after_step_names_the_after_drawing(window, name):
    """The same when the class presses Next (the step's edits as undo commands)."""
    from models.studies import whatif

    before, after = whatif.study(name.removeprefix("whatif_")).documents()
    parts = window.lessons
    assert parts.start(name, 1) is None
    assert before["title"] in window.results.headline.text()
    parts.player.next()
    head = window.results.headline.text()
    assert after["title"] in head and before["title"] not in head
    window.editor.undo_stack.undo()          # the step's edits and its title, in one Undo
    assert window.editor.scenario.title == before["title"]


def test_a_step_that_runs_sptape_is_titled_sptape_in_window_and_history(window):
    """spool_dump step 2 runs SPTAPE: the window and the run's history entry
    say SPTAPE, not the case's "SPXTAPE dump"; Next (SPXTAPE again) and Back
    follow."""
    parts = window.lessons
    assert parts.start("spool_dump", 1) is None
    assert "SPTAPE dump" in window.windowTitle() and "SPXTAPE" not in window.windowTitle()
    assert window.study.history.runs()[0].label == "SPTAPE dump of the z/VM spool"
    parts.player.next()
    assert "SPXTAPE dump" in window.windowTitle()
    assert window.study.history.runs()[0].label == "SPXTAPE dump of the z/VM spool"
    parts.player.back()
    assert "SPTAPE dump" in window.windowTitle() and "SPXTAPE" not in window.windowTitle()


def test_back_from_a_step_that_only_titles_the_drawing_restores_the_title(window):
    """A step may title the drawing without changing it: Back gives the
    earlier title back, though the drawing is the same."""
    doc = {"format": "zperflab-lesson", "version": 1, "name": "t", "title": "T",
           "teaches": "x", "case": "db2_io",
           "steps": [{"caption": "a"}, {"caption": "b", "title": "The same I/O, named"}],
           "question": "q?", "answer": "a"}
    player = window.lessons.player
    player.start(lessons.from_document(doc, "t.json"))
    opened = window.editor.scenario.title
    player.next()
    assert window.editor.scenario.title == "The same I/O, named"
    player.back()
    assert window.editor.scenario.title == opened != "The same I/O, named"


#: The Cache staging legend's colours as captions name them, and the legend's
#: term for each (ui/animation/style.py: STAGE_COLOURS, STAGE_NAMES; the
#: green outline is "hit just now").
LEGEND_WORDS = {"blue": "record", "yellow": "partial track", "purple": "full track",
                "green": "hit"}


def test_a_captions_colour_is_the_legends_colour_for_what_it_names():
    """"(yellow)" after "a partial track", never "(purple)" after a staging
    from a record onward: the clause a colour follows names what the legend
    gives that colour."""
    import re

    from ui.animation import style

    assert style.STAGE_COLOURS == (style.SKY, style.YELLOW, style.PURPLE)
    assert [n.removesuffix(" staged") for n in style.STAGE_NAMES] == \
        ["record", "partial track", "full track"]
    wrong = []
    for lesson in ALL:
        for i, step in enumerate(lesson.steps):
            for m in re.finditer(r"\((blue|yellow|purple|green)\b", step.caption):
                clause = re.split(r"[.;:,(]", step.caption[:m.start()])[-1]
                if LEGEND_WORDS[m[1]] not in clause:
                    wrong.append(f"{lesson.name} step {i + 1}: {clause.strip()!r} ({m[1]})")
    assert wrong == []


def test_the_calibrate_step_calibrates_as_the_class_would_and_undoes(window, qtbot):
    """rmf_calibrate step 2 goes through File ▸ Calibrate to RMF (one Undo takes
    it back) and the panel then lists the quantities by name."""
    from models.rmf.calibrate import title

    parts = window.lessons
    assert parts.start("rmf_calibrate") is None
    parts.player.next()
    sc = window.editor.scenario
    done = sc.imported["calibrated"]
    assert done == lessons.get("rmf_calibrate").document_at(1)["imported"]["calibrated"]
    text = window.rmf_import.panel.text.toPlainText()
    assert all(f"{title(e)} of {e['component']}" in text for e in done)
    assert parts.player.driver.highlighted() == "Imported from RMF"
    window.editor.undo_stack.undo()
    assert "calibrated" not in window.editor.scenario.imported
