"""Help ▸ About: the version, the Python and Qt versions and where the user's
data lives — the same rows ``zperflab --version`` prints (one source,
:func:`app.settings.about`). The paths can be selected and copied.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel,
                               QVBoxLayout)

from app import settings
from ui.icons import ICON_DIR

#: The application icon (also installed by packaging/build.sh for the desktop).
APP_ICON = ICON_DIR / "zperflab.svg"
ABOUT = ("A desktop lab for teaching and exploring IBM mainframe I/O and CPU "
         "performance, simulated event by event.")


def app_icon() -> QIcon:
    """zPerfLab's own icon (window, About, desktop entry)."""
    return QIcon(str(APP_ICON))


class AboutDialog(QDialog):
    """The About box. ``rows`` are the (label, value) pairs shown."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.rows = settings.about()
        name, version = self.rows[0]
        self.setWindowTitle(f"About {name}")
        head = QHBoxLayout()
        logo = QLabel()
        logo.setPixmap(app_icon().pixmap(64, 64))
        self.heading = title = QLabel(f"<b style='font-size:16pt'>{escape(name)}</b> {escape(version)}"
                       f"<br>{escape(ABOUT)}")
        title.setWordWrap(True)
        head.addWidget(logo, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(title, 1)
        form = QFormLayout()
        self.value_labels: dict[str, QLabel] = {}
        for label, value in self.rows[1:]:
            shown = QLabel(value)
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            shown.setWordWrap(True)
            form.addRow(f"{label}:", shown)
            self.value_labels[label] = shown
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)


def add_help_menu(win) -> None:
    """Add Help ▸ About zPerfLab to the window's menu bar (the last menu).
    The open dialog is ``win.about_dialog``."""
    menu = win.menuBar().addMenu("&Help")
    act = QAction("&About zPerfLab", win)
    act.setMenuRole(QAction.MenuRole.AboutRole)
    act.setStatusTip("Version, Python and Qt versions, and where your data lives")

    def show() -> None:
        old = getattr(win, "about_dialog", None)
        if old is not None:
            old.deleteLater()
        win.about_dialog = AboutDialog(win)
        win.about_dialog.open()
    act.triggered.connect(show)
    menu.addAction(act)
    win.help_menu = menu
    win.about_action = act
