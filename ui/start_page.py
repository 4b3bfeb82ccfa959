"""The start page: a new empty scenario, or one of the built-in case studies."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from app import scenario_io
from models import experiments


class StartPage(QWidget):
    """Big, projector-friendly buttons: one per case study, plus "New"."""

    case_chosen = Signal(str)
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
        outer.addStretch(1)
        outer.setAlignment(Qt.AlignmentFlag.AlignTop)
