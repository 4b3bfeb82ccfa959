"""The start page: the tour, a new empty scenario, a built-in case study (with
one line on what it teaches and its lesson) or a what-if study."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QBoxLayout, QGridLayout, QLabel, QPushButton, QScrollArea,
                               QSizePolicy, QVBoxLayout, QWidget)

from app import scenario_io
from models import experiments
from models.studies import whatif


#: Below this width (the page's, in pixels) a case's lesson button moves
#: beside the line under it, so the case's title has the page's whole width,
#: and the tour and New stack: at 1024×768 with both docks open the page has
#: about 370 px, and the titles were cut ("Program fetch from a loa").
NARROW_PX = 600


class StartPage(QWidget):
    """Big, projector-friendly buttons: one per case study and what-if study,
    plus "New"."""

    case_chosen = Signal(str)
    #: "Start the tour": the first lesson.
    tour_requested = Signal()
    #: A lesson's name: start it.
    lesson_chosen = Signal(str)
    #: A what-if study's name: open Compare with its before and after run.
    whatif_chosen = Signal(str)
    new_requested = Signal()
    #: "Import your RMF reports…": File ▸ Import RMF reports.
    import_requested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("startPage")
        self.setStyleSheet("#startPage { background: #f4f6f8; }"
                           "QPushButton { text-align: left; padding: 10px 14px; font-size: 11pt;"
                           " background: white; border: 1px solid #b8c2cc; border-radius: 6px; }"
                           "QPushButton:hover { border-color: #1565c0; }")
        # In a scroll area: the page never sets the window's minimum height
        # (presentation mode's big type at 1024×768).
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        body.setObjectName("startBody")
        scroll.setWidget(body)
        shell = QVBoxLayout(self)
        shell.setContentsMargins(0, 0, 0, 0)
        shell.addWidget(scroll)
        self.setStyleSheet(self.styleSheet() + "#startBody { background: #f4f6f8; }")
        outer = QVBoxLayout(body)
        outer.setContentsMargins(24, 20, 24, 20)
        title = QLabel("<span style='font-size:22pt; font-weight:bold; color:#1d2733'>zPerfLab</span>"
                       "<br><span style='font-size:12pt; color:#3c4650'>How work on IBM Z turns "
                       "into CPU time and I/O — build a scenario or open a case study.</span>")
        title.setWordWrap(True)
        outer.addWidget(title)
        first = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self._first_row = first
        self._rows: list[tuple[QGridLayout, int, QPushButton, QPushButton | None, QLabel | None]] = []
        self._narrow = False
        tour = QPushButton("▶  Start the tour")
        tour.setObjectName("startTour")
        tour.setToolTip("The first lesson: one DB2 I/O from a cold cache, step by step "
                        "(Space or → for the next step)")
        tour.setStyleSheet("QPushButton { background: #1565c0; color: white; font-weight: bold;"
                           " border-color: #0d47a1; }")
        tour.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        tour.clicked.connect(self.tour_requested)
        self.tour_button = tour
        first.addWidget(tour, 1)
        # A plain "+": the fullwidth plus is in no font the app can count on.
        new = QPushButton("+  New empty scenario  (Ctrl+N)")
        new.setObjectName("newScenario")
        new.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        new.clicked.connect(self.new_requested)
        first.addWidget(new, 1)
        rmf = QPushButton("Import your RMF reports…")
        rmf.setObjectName("importRmf")
        rmf.setToolTip("Draw your own system from RMF Postprocessor reports (text or XML), "
                       "with what RMF measured beside every run (File ▸ Import RMF reports…)")
        rmf.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        rmf.clicked.connect(self.import_requested)
        self.import_button = rmf
        outer.addLayout(first)
        # On a line of its own: three in a row cut their titles at 1280×800.
        outer.addWidget(rmf)
        outer.addWidget(QLabel("<span style='font-size:13pt; font-weight:bold'>Case studies</span>"))
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        self.lesson_buttons: dict[str, QPushButton] = {}
        teaches = _lessons_by_case()
        # An example drawing of a case's experiment (the CICS authors' own mix
        # beside the CICS case) stands under that case; the others at the end.
        examples = {name: scenario_io.load_case(name) for name in scenario_io.example_names()}
        for name in scenario_io.case_names():
            exp = experiments.get(name)
            lesson = teaches.get(name)
            line = lesson.teaches if lesson is not None else exp.description
            self._row(grid, self._case_button(name, exp.title, exp.description), line, lesson)
            for example in [n for n, sc in examples.items() if sc.experiment == name]:
                self._example_row(grid, example, examples.pop(example))
        for name, sc in examples.items():
            self._example_row(grid, name, sc)
        grid.setColumnStretch(0, 1)
        outer.addLayout(grid)
        outer.addWidget(self._whatif_grid())
        outer.addStretch(1)
        outer.setAlignment(Qt.AlignmentFlag.AlignTop)

    def _case_button(self, name: str, title: str, about: str) -> QPushButton:
        b = QPushButton(title)
        b.setToolTip(f"<b>{title}</b><br>{about}")
        b.setObjectName(f"case_{name}")
        # Let the window shrink to a laptop width: long titles elide, not widen.
        b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        b.clicked.connect(lambda _=False, n=name: self.case_chosen.emit(n))
        self.buttons[name] = b
        return b

    def _example_row(self, grid: QGridLayout, name: str, sc) -> None:
        """A built-in drawing that is no experiment's case (the Large shop):
        its title before the colon on the button, the rest under it."""
        title, _, about = sc.title.partition(":")
        about = about.strip()
        about = about[:1].upper() + about[1:]          # the line under it is a sentence
        b = self._case_button(name, title.strip(), about)
        self._row(grid, b, about or sc.title, None)

    def _row(self, grid: QGridLayout, button: QPushButton, line: str, lesson) -> None:
        """One case: its button, its lesson's button, and under them, wrapped,
        one line on what it teaches."""
        row = grid.rowCount()
        go = text = None
        if lesson is not None:
            go = QPushButton("Lesson ▶")
            go.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            go.setObjectName(f"lesson_{lesson.name}")
            go.setToolTip(f"<b>{lesson.title}</b><br>{lesson.teaches}")
            go.clicked.connect(lambda _=False, n=lesson.name: self.lesson_chosen.emit(n))
            self.lesson_buttons[lesson.name] = go
        if line:
            text = QLabel(line)
            text.setObjectName("teaches")
            text.setWordWrap(True)
            text.setStyleSheet("color: #3c4650; font-size: 10pt; margin: 0 0 6px 14px;")
        self._rows.append((grid, row, button, go, text))
        self._place(grid, row, button, go, text)

    def _place(self, grid: QGridLayout, row: int, button: QPushButton,
               go: QPushButton | None, text: QLabel | None) -> None:
        """Wide: [case][Lesson ▶] over the line; narrow: [case] over [line][Lesson ▶]."""
        for w in (button, go, text):
            if w is not None:
                grid.removeWidget(w)
        if self._narrow:
            grid.addWidget(button, row, 0, 1, 2)
            if go is not None:
                grid.addWidget(go, row + 1, 1, Qt.AlignmentFlag.AlignTop)
            if text is not None:
                grid.addWidget(text, row + 1, 0, 1, 1 if go is not None else 2)
        else:
            grid.addWidget(button, row, 0)
            if go is not None:
                grid.addWidget(go, row, 1)
            if text is not None:
                grid.addWidget(text, row + 1, 0, 1, 2)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        narrow = self.width() < NARROW_PX
        if narrow != self._narrow:
            self._narrow = narrow
            self._first_row.setDirection(QBoxLayout.Direction.TopToBottom if narrow
                                         else QBoxLayout.Direction.LeftToRight)
            for row in self._rows:
                self._place(*row)

    def _whatif_grid(self) -> QWidget:
        """What-if studies: before and after, run side by side in Compare."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 12, 0, 0)
        heading = QLabel("<span style='font-size:13pt; font-weight:bold'>What-if "
                          "studies</span> <span style='color:#3c4650'>— a change to a "
                          "configuration, before and after, side by side</span>")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        grid = QGridLayout()
        self.whatif_buttons: dict[str, QPushButton] = {}
        teaches = _lessons_by_case()
        for i, st in enumerate(whatif.studies()):
            lesson = teaches.get(f"whatif:{st.name}")
            b = QPushButton(st.title)
            b.setToolTip(f"<b>{st.title}</b><br>{st.about}")
            b.setObjectName(f"whatif_{st.name}")
            b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            b.clicked.connect(lambda _=False, n=st.name: self.whatif_chosen.emit(n))
            self.whatif_buttons[st.name] = b
            self._row(grid, b, lesson.teaches if lesson is not None else "", lesson)
        grid.setColumnStretch(0, 1)
        layout.addLayout(grid)
        return box


def _lessons_by_case() -> dict:
    """The first lesson of each case study (none if the lessons cannot load:
    the window says why when the Lessons menu is built)."""
    from app import lessons

    try:
        found = lessons.load_all()
    except lessons.LessonError:
        return {}
    out: dict = {}
    for lesson in found:
        out.setdefault(lesson.case, lesson)
    return out
