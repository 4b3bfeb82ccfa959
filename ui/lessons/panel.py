"""The lesson player and its caption band.

:class:`LessonPlayer` takes the window from step to step: a step entered
with Next applies its edits as undo commands (so Undo works); a step
entered any other way (Back, a jump, Reset step) puts that step's drawing
back on the canvas. Then it runs when the step shows a run the canvas does
not have yet, brings the view and its part forward, moves the replay to the
step's moment (and plays it), highlights, and shows the caption.

:class:`LessonPanel` is the caption band (a dock at the bottom): the
caption, "step 3 of 6", Back, Next, Reset step and a list to jump to any
step. Space or → is Next, ← is Back, whenever the keyboard is not in a
text field; the student can still work on the canvas.
"""
from __future__ import annotations

import weakref

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QPainter
from PySide6.QtWidgets import (QAbstractSpinBox, QApplication, QComboBox, QDockWidget,
                               QHBoxLayout, QLabel, QLineEdit, QMenu, QPlainTextEdit,
                               QPushButton, QSizePolicy, QTextEdit, QVBoxLayout,
                               QWidget)

from app import lesson_figures
from app import lessons as lessons_mod
from ui.lessons.driver import AppDriver, drawing
from ui.lessons.step_list import StepList, step_title


class ElidedLabel(QLabel):
    """A one-line label that ends in '…' when it is narrower than its text;
    the whole text is its tooltip. :meth:`set_wrap` makes it wrap instead
    (presentation mode: a title the room reads whole)."""

    _wrap = False

    def set_wrap(self, wrap: bool) -> None:
        self._wrap = wrap
        self.setWordWrap(wrap)
        self.updateGeometry()
        self.update()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        self.setToolTip(text)

    def shown_text(self) -> str:
        """The text as painted at the label's current width."""
        if self._wrap:
            return self.text()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if self._wrap:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()) | int(Qt.AlignmentFlag.AlignVCenter),
                         self.shown_text())


class LessonPlayer(QObject):
    """Steps through one lesson on a window."""

    #: The step index now shown (after it has been reached).
    step_changed = Signal(int)
    #: A lesson was started (or stopped: None).
    lesson_changed = Signal(object)
    #: What the Next button says while a step is still being shown ("" when idle).
    pending_changed = Signal(str)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.driver = AppDriver(window)
        self.lesson: lessons_mod.Lesson | None = None
        self.index = -1
        self._result: weakref.ref | None = None
        self._run_drawing: dict | None = None
        self.moment_t: float | None = None
        self.problem = ""
        self._busy = False
        #: The runs the lesson has shown, by run step (the captions' figures).
        self.results: dict = {}
        #: Next pressed while a step was still running: done when it ends.
        self._queued = False
        window.run_finished.connect(self._on_window_run_finished)

    def _on_window_run_finished(self, result) -> None:
        self.result = result

    @property
    def result(self):
        """The last run the window finished, while the window still holds it.

        Held weakly: the player never keeps a run the window no longer shows
        (a scenario opened since dropped it; issue #29).
        """
        return self._result() if self._result is not None else None

    @result.setter
    def result(self, result) -> None:
        self._result = weakref.ref(result) if result is not None else None

    # ---- control --------------------------------------------------------
    def start(self, lesson: lessons_mod.Lesson, step: int = 0) -> None:
        self.lesson = lesson
        self.index = -1
        self.results = {}
        self.lesson_changed.emit(lesson)
        self.go(step)

    def stop(self) -> None:
        self.driver.clear_highlight()
        self.lesson = None
        self.index = -1
        self.lesson_changed.emit(None)

    def next(self) -> None:
        """The next step; pressed while a step still runs, it waits for it
        (once: more presses are refused, and the band says so)."""
        if self._busy:
            if not self._queued:
                self._queued = True
                self.pending_changed.emit("Next queued…")
            else:
                self.window.say("Still running this step: Next is already queued.")
                self.pending_changed.emit("Queued: wait")
            return
        if self.lesson is not None and self.index + 1 < len(self.lesson.steps):
            self.go(self.index + 1)

    def back(self) -> None:
        if self._busy:
            self.window.say("Still running this step: Back waits until it is shown.")
            return
        if self.lesson is not None and self.index > 0:
            self.go(self.index - 1)

    def reset_step(self) -> None:
        """Put the step's drawing, run, moment and highlight back."""
        if self.lesson is not None:
            self.go(self.index, fresh=True)

    def go(self, index: int, fresh: bool = False) -> None:
        """Show step ``index``: Next from the step before applies its edits as
        undo commands; anything else restores the step's drawing."""
        lesson = self.lesson
        if lesson is None or self._busy or not 0 <= index < len(lesson.steps):
            return
        self._busy = True
        self.pending_changed.emit("Running…" if lesson.run_needed(index) is not None else "")
        try:
            self._enter(lesson, index, forward=(index == self.index + 1 and not fresh))
        finally:
            self._busy = False
        self.step_changed.emit(index)
        self.pending_changed.emit("")
        if self._queued:
            self._queued = False
            QTimer.singleShot(0, self.next)

    # ---- one step -----------------------------------------------------------
    def _enter(self, lesson, index: int, forward: bool) -> None:
        step = lesson.steps[index]
        d = self.driver
        d.clear_highlight()
        self.problem = ""
        controller = d.controller()
        if controller is not None:
            controller.pause()
        doc = lesson.document_at(index)
        want = drawing(doc)
        if forward and index > 0 and d.document() == drawing(lesson.document_at(index - 1)):
            d.apply(step, f"Lesson step {index + 1}", doc.get("title"))
        # The step's drawing under the step's title (what the window, the
        # history and exports call the run).
        if d.document() != want or d.scenario.title != doc.get("title"):
            d.restore(lesson.scenario_at(index), f"Lesson: {lesson.title}, step {index + 1}",
                      lesson.opened_document())
            self._run_drawing = None
        self.index = index
        run = lesson.run_needed(index)
        if run is None:
            # A step that changes the drawing and does not run it (calibrate,
            # then look at the panel): the run before it is not this step's.
            self._run_drawing = None
        if run is not None and self._run_drawing != want:
            self.result = None
            if self.window.runnable_experiment() is not None:
                d.run_and_wait()
            if self.result is not None:
                self._run_drawing = want
            else:
                self.problem = "The run did not finish: see the status bar."
        if run is not None and self.result is not None and self._run_drawing == want:
            self.results[run] = self.result
        view = lesson.view_at(index)
        d.show_view(view)
        part = lesson.part_at(index)
        widget = d.part_widget(view, part) if part else None
        if part and widget is None:
            self.problem = f"No {part!r} on the {view} view."
        self.moment_t = None
        moment = lesson.moment_at(index)
        if moment is not None and self.result is not None and controller is not None:
            t = lessons_mod.find_moment(self.result.trace, moment)
            if t is None:
                self.problem = f"This run has no {lessons_mod.describe_moment(moment)}."
            else:
                controller.seek(t)
                self.moment_t = controller.t
        if step.play is not None and controller is not None and self.result is not None:
            controller.set_speed(step.play)
            controller.play()
        # The question and the answer keep the last step's highlight.
        shown = step if step.kind == "step" else next(
            s for s in reversed(lesson.steps[:index + 1]) if s.kind == "step")
        hl = shown.highlight or {}
        if "component" in hl:
            if view == "canvas" and not d.highlight_component(hl["component"]):
                self.problem = f"No component {hl['component']!r} on the canvas."
        elif "part" in hl:
            target = widget if hl["part"] == part else d.part_widget(view, hl["part"])
            if target is None:
                self.problem = f"No {hl['part']!r} on the {view} view."
            else:
                d.highlight_widget(target)
                d._frame.setProperty("part", hl["part"])
        if self.problem:
            self.window.say(self.problem)

    def caption(self, index: int) -> str:
        """Step ``index``'s caption with its figures from the lesson's runs.

        A figure of a run this showing of the lesson has not made (the class
        jumped past it) comes from the same run made headless.
        """

        lesson = self.lesson
        for fig in lesson.figures[index].values():
            for j in fig.steps:
                if j not in self.results:
                    try:
                        self.results[j] = lesson_figures.run_step(lesson, j)
                    except ValueError as exc:
                        self.problem = f"The run of step {j + 1} fails: {exc}"
                        self.results[j] = None
        return lesson_figures.step_text(lesson, index, self.results)

    def state(self) -> dict:
        """What the step shows (tests): drawing and its title, run, moment,
        view, highlight."""
        return {"step": self.index, "drawing": self.driver.document(),
                "title": self.driver.scenario.title,
                "ran": self._run_drawing is not None and self.result is not None,
                "moment_t": self.moment_t, "highlight": self.driver.highlighted(),
                "problem": self.problem}


class LessonPanel(QWidget):
    """The caption band: caption, position, Back / Next / Reset step, jump list."""

    def __init__(self, player: LessonPlayer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lessonPanel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.player = player
        self.title = ElidedLabel()
        self.title.setObjectName("lessonTitle")
        # A long title elides rather than widening the band.
        self.title.setMinimumWidth(80)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.caption = QLabel()
        self.caption.setObjectName("lessonCaption")
        self.caption.setWordWrap(True)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.where = QLabel()
        self.back_button = QPushButton("◀ Back")
        self.next_button = QPushButton("Next ▶")
        self.reset_button = QPushButton("Reset step")
        self.reset_button.setToolTip("Put this step's drawing, run and moment back")
        self.jump = StepList()
        self.close_button = QPushButton("End lesson")
        self.back_button.setToolTip("The step before, with its drawing, run and moment "
                                    "(← or Page Up)")
        self.next_button.setToolTip("The next step: its change to the drawing, its run and "
                                    "what to look at (Space, → or Page Down)")
        self.close_button.setToolTip("Leave the lesson: the drawing stays on the canvas, "
                                     "with its runs")
        for b in (self.back_button, self.next_button, self.reset_button, self.close_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.back_button.clicked.connect(lambda _=False: player.back())
        self.next_button.clicked.connect(lambda _=False: player.next())
        self.reset_button.clicked.connect(lambda _=False: player.reset_step())
        self.close_button.clicked.connect(lambda _=False: player.stop())
        player.pending_changed.connect(self._on_player_pending_changed)
        self.jump.activated.connect(player.go)
        # One row of title and controls above the caption: the band stays
        # low, so the view above it keeps its height at 1024×768.
        row = QHBoxLayout()
        row.addWidget(self.title, 2)
        row.addWidget(self.where)
        row.addWidget(self.jump, 1)
        row.addWidget(self.reset_button)
        row.addWidget(self.back_button)
        row.addWidget(self.next_button)
        row.addWidget(self.close_button)
        col = QVBoxLayout(self)
        col.setContentsMargins(10, 4, 10, 6)
        col.setSpacing(2)
        col.addLayout(row)
        col.addWidget(self.caption, 1)
        self.set_large(False)
        player.step_changed.connect(self._show)
        player.lesson_changed.connect(self._on_lesson)

    def set_large(self, large: bool, height: int = 768) -> None:
        """Presentation mode: bigger text, high contrast. The caption grows with
        the window (16 pt at 768 pixels high, up to 28 pt), so it reads from
        the back of the room on a large screen too."""
        scale = round(min(max(height / 768, 1.0), 1.75), 2)
        if (large, scale) == getattr(self, "_look", None):
            return  # a resize that changes nothing restyles nothing
        self._look = (large, scale)
        cap, small = round(16 * scale), round(13 * scale)
        self._caption_h = round(112 * scale) if large else 56
        self._fit_caption()
        # A room reads "Step 3 of 6" and the whole title (wrapped); the keys
        # move through the steps, so the jump list gives its width up.
        self.where.setVisible(True)
        self.jump.setVisible(not large)
        self.title.set_wrap(large)
        if large:
            self.setStyleSheet(
                "#lessonPanel { background: #000000; }"
                f"QLabel {{ color: #ffffff; font-size: {round(14 * scale)}pt; }}"
                f"#lessonTitle {{ color: #ffd600; font-size: {round(14 * scale)}pt;"
                " font-weight: bold; }"
                f"#lessonCaption {{ font-size: {cap}pt; }}"
                f"QPushButton, QComboBox {{ font-size: {small}pt; padding: 3px 10px; color: #000;"
                " background: #ffd600; border: 2px solid #ffffff; }")
        else:
            self.setStyleSheet(
                "#lessonPanel { background: #fffbe6; }"
                "#lessonTitle { color: #6d4c00; font-size: 11pt; font-weight: bold; }"
                "#lessonCaption { color: #1d2733; font-size: 13pt; }")

    def _fit_caption(self) -> None:
        """Room for the whole caption at the band's width: the band grows
        rather than cut the last line of a long step off."""
        from PySide6.QtGui import QTextDocument

        width = max(self.caption.width(), self.width() - 20, 200)
        need = 0
        if self.caption.text():
            doc = QTextDocument()
            doc.setDefaultFont(self.caption.font())
            doc.setHtml(self.caption.text())
            doc.setTextWidth(width)
            need = round(doc.size().height()) + 4
        height = max(getattr(self, "_caption_h", 56), need)
        if height == self.caption.minimumHeight():
            return
        self.caption.setMinimumHeight(height)
        # The band takes the height the caption needs, and gives it back to
        # the view on a shorter step.
        dock = self.parentWidget()
        window = dock.parentWidget() if dock is not None else None
        if isinstance(dock, QDockWidget) and hasattr(window, "resizeDocks"):
            window.resizeDocks([dock], [self.minimumSizeHint().height()],
                               Qt.Orientation.Vertical)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_caption()

    def _on_player_pending_changed(self, text: str) -> None:
        """While a step runs the Next button says so (and that a press waits)."""
        self.next_button.setText(text or "Next ▶")

    def _on_lesson(self, lesson) -> None:
        self.jump.clear()
        if lesson is None:
            return
        self.jump.set_titles([self._step_title(lesson, i, lesson.steps[i].caption)
                              for i in range(len(lesson.steps))])
        self.title.setText(lesson.title)

    @staticmethod
    def _step_title(lesson, index: int, caption: str) -> str:
        kind = lesson.steps[index].kind
        return {"question": "Question", "answer": "Answer"}.get(
            kind, f"{index + 1}. {step_title(caption)}")

    def _show(self, index: int) -> None:
        lesson = self.player.lesson
        if lesson is None:
            return
        step = lesson.steps[index]
        text = filled = self.player.caption(index)
        if step.kind == "question":
            text = f"<b>Question.</b> {text}<br><i>Next: the answer.</i>"
        elif step.kind == "answer":
            text = f"<b>Answer.</b> {text}"
        if self.player.problem:
            text += f"<br><span style='color:#c62828'>{self.player.problem}</span>"
        self.caption.setText(text)
        self._fit_caption()
        self.where.setText(f"Step {index + 1} of {len(lesson.steps)}")
        # The steps' titles in the list, with every figure the runs so far give.
        for i in range(len(lesson.steps)):
            caption = filled if i == index else lesson_figures.step_text(lesson, i,
                                                                         self.player.results)
            self.jump.set_title(i, self._step_title(lesson, i, caption))
        self.jump.setCurrentIndex(index)
        self.back_button.setEnabled(index > 0)
        self.next_button.setEnabled(index + 1 < len(lesson.steps))


def _typing(widget) -> bool:
    return isinstance(widget, (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox)) or (
        isinstance(widget, QComboBox) and widget.isEditable())


class _Keys(QObject):
    """Space / → Next, ← Back while a lesson runs and no text field has the keys."""

    def __init__(self, player: LessonPlayer) -> None:
        super().__init__(player)
        self.player = player

    def eventFilter(self, obj, event) -> bool:
        if event.type() != QEvent.Type.KeyPress or self.player.lesson is None:
            return False
        if not self.player.window.isActiveWindow() or _typing(QApplication.focusWidget()):
            return False
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        key = event.key()
        if key in (Qt.Key.Key_Space, Qt.Key.Key_Right, Qt.Key.Key_PageDown):
            self.player.next()
            return True
        if key in (Qt.Key.Key_Left, Qt.Key.Key_PageUp):
            self.player.back()
            return True
        return False


class Lessons(QObject):
    """The lesson parts of one window: player, caption dock, menus, presentation."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.player = LessonPlayer(window)
        self.panel = LessonPanel(self.player)
        self.dock = QDockWidget("Lesson", window)
        self.dock.setObjectName("lessonDock")
        self.dock.setWidget(self.panel)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                              | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        self.dock.hide()
        self.keys = _Keys(self.player)
        QApplication.instance().installEventFilter(self.keys)
        window.destroyed.connect(self._on_window_destroyed)
        self.player.lesson_changed.connect(self._on_lesson_changed)
        from ui.presentation import Presentation

        self.presentation = Presentation(window, self)
        self._menus()

    def _on_window_destroyed(self, *_args) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.keys)

    def _on_lesson_changed(self, lesson) -> None:
        self.dock.setVisible(lesson is not None)

    def _menus(self) -> None:
        bar = self.window.menuBar()
        view = next((a.menu() for a in bar.actions() if a.text().replace("&", "") == "View"),
                    None) or bar.addMenu("&View")
        self.menu = QMenu("&Lessons", self.window)
        self.menu.setObjectName("lessonsMenu")
        try:
            found = lessons_mod.load_all()
            self.load_problem = ""
        except lessons_mod.LessonError as exc:
            found, self.load_problem = [], str(exc)
        for lesson in found:
            act = self.menu.addAction(lesson.title)
            act.setToolTip(lesson.teaches)
            act.triggered.connect(lambda _=False, n=lesson.name: self.start(n))
        if self.load_problem:
            act = self.menu.addAction("Lessons cannot load: see the status bar")
            act.setEnabled(False)
        view.addSeparator()
        view.addMenu(self.menu)
        self.present_action = QAction("&Present", self.window)
        self.present_action.setShortcut(QKeySequence("F11"))
        self.present_action.setCheckable(True)
        self.present_action.setToolTip("Full screen for a projector: big text, high contrast, "
                                       "keyboard only (Space, arrows, Escape) (F11)")
        self.present_action.toggled.connect(self.presentation.set_on)
        view.addAction(self.present_action)
        help_menu = next((a.menu() for a in bar.actions() if a.text().replace("&", "") == "Help"),
                         None) or bar.addMenu("&Help")
        tour = help_menu.addAction("Start the &tour")
        tour.triggered.connect(lambda _=False: self.start_tour())
        help_menu.addMenu(self.menu)

    def start(self, name: str, step: int = 0) -> str | None:
        """Start lesson ``name`` at ``step`` (0-based); a one-line error or None."""
        try:
            lesson = lessons_mod.get(name)
        except lessons_mod.LessonError as exc:
            self.window.say(str(exc))
            return str(exc)
        if not 0 <= step < len(lesson.steps):
            text = f"lesson {name} has steps 1 to {len(lesson.steps)}, not {step + 1}"
            self.window.say(text)
            return text
        self.dock.show()
        self.player.start(lesson, step)
        return None

    def start_tour(self) -> str | None:
        """The tour is the first lesson."""
        try:
            first = lessons_mod.load_all()[0].name
        except (lessons_mod.LessonError, IndexError) as exc:
            self.window.say(f"No tour: {exc}")
            return str(exc)
        return self.start(first)


def install(window) -> Lessons:
    """Add lessons and presentation mode to ``window`` (``window.lessons``)."""
    parts = Lessons(window)
    start_page = getattr(window, "start_page", None)
    if start_page is not None and hasattr(start_page, "tour_requested"):
        start_page.tour_requested.connect(parts.start_tour)
        start_page.lesson_chosen.connect(parts.start)
    return parts
