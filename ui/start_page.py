"""The start page: a new empty scenario, a built-in case study or a what-if study."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from app import scenario_io
from models import experiments, whatif


class StartPage(QWidget):
    """Big, projector-friendly buttons: one per case study and what-if study,
    plus "New"."""

    case_chosen = Signal(str)
    #: A what-if study's name: open Compare with its before and after run.
    whatif_chosen = Signal(str)
    new_requested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("startPage")
        self.setStyleSheet("#startPage { background: #f4f6f8; }"
                           "QPushButton { text-align: left; padding: 10px 14px; font-size: 11pt;"
                           " background: white; border: 1px solid #b8c2cc; border-radius: 6px; }"
                           "QPushButton:hover { border-color: #1565c0; }")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 30, 40, 30)
        title = QLabel("<span style='font-size:22pt; font-weight:bold; color:#1d2733'>zPerfLab</span>"
                       "<br><span style='font-size:12pt; color:#3c4650'>How work on IBM Z turns "
                       "into CPU time and I/O — build a scenario or open a case study.</span>")
        title.setWordWrap(True)
        outer.addWidget(title)
        new = QPushButton("＋  New empty scenario  (Ctrl+N)")
        new.setObjectName("newScenario")
        new.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        new.clicked.connect(self.new_requested)
        outer.addWidget(new)
        outer.addWidget(QLabel("<span style='font-size:13pt; font-weight:bold'>Case studies</span>"))
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for i, name in enumerate(scenario_io.case_names()):
            exp = experiments.get(name)
            b = QPushButton(f"{exp.title}")
            b.setToolTip(f"<b>{exp.title}</b><br>{exp.description}")
            b.setObjectName(f"case_{name}")
            # Let the window shrink to a laptop width: long titles elide, not widen.
            b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            b.clicked.connect(lambda _=False, n=name: self.case_chosen.emit(n))
            self.buttons[name] = b
            grid.addWidget(b, i // 2, i % 2)
        outer.addLayout(grid)
        outer.addWidget(self._whatif_grid())
        outer.addStretch(1)
        outer.setAlignment(Qt.AlignmentFlag.AlignTop)

    def _whatif_grid(self) -> QWidget:
        """What-if studies: before and after, run side by side in Compare."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 12, 0, 0)
        layout.addWidget(QLabel("<span style='font-size:13pt; font-weight:bold'>What-if "
                                "studies</span> <span style='color:#3c4650'>— a change to a "
                                "configuration, before and after, side by side</span>"))
        grid = QGridLayout()
        self.whatif_buttons: dict[str, QPushButton] = {}
        for i, st in enumerate(whatif.studies()):
            b = QPushButton(st.title)
            b.setToolTip(f"<b>{st.title}</b><br>{st.about}")
            b.setObjectName(f"whatif_{st.name}")
            b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            b.clicked.connect(lambda _=False, n=st.name: self.whatif_chosen.emit(n))
            self.whatif_buttons[st.name] = b
            grid.addWidget(b, i // 2, i % 2)
        layout.addLayout(grid)
        return box
