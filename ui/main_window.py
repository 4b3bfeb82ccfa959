"""zPerfLab's main window (minimal shell; the canvas issue grows it)."""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QLabel, QMainWindow

from models import experiments


class MainWindow(QMainWindow):
    """Title, menus, canvas area and status bar."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("zPerfLab")
        self.scene = QGraphicsScene(self)
        self.view = QGraphicsView(self.scene, self)
        self.setCentralWidget(self.view)
        self._case: str | None = None
        self._build_menus()
        self.status = QLabel("Ready")
        self.statusBar().addWidget(self.status)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        cases = self.menuBar().addMenu("&Case studies")
        for name, exp in experiments.registry().items():
            act = QAction(exp.title, self)
            act.setToolTip(exp.description)
            act.triggered.connect(lambda _=False, n=name: self.open_case_or_file(n))
            cases.addAction(act)

    def open_case_or_file(self, name: str) -> str | None:
        """Open a built-in case study; returns an error message or None."""
        if name not in experiments.registry():
            return f"no built-in case study called '{name}'"
        self._case = name
        self.setWindowTitle(f"zPerfLab — {experiments.get(name).title}")
        self.status.setText(f"Opened case study {name}")
        return None

    def run_and_wait(self) -> None:
        """Run the open scenario to completion (used for screenshots)."""

    def show_view(self, view: str) -> None:
        """Bring the named view to the front."""
