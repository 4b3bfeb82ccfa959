"""The caption band's list of a lesson's steps ("3. One zIIP added: …").

Each step is named by the first sentence of its caption, its figures
filled in once the step has been shown ("…" before: a placeholder's key is
never shown). The closed list ends a title that does not fit in "…" after
a whole word; its tooltip, and the open list (as wide as its longest
title, up to the window's width), read whole.
"""
from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter

from app.lesson_figures import FIELD, PENDING

#: The longest step title in the list (characters): a first sentence runs
#: to 300; the list names the step, the caption band says it all.
TITLE_CHARS = 90
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z0-9{])")


def step_title(caption: str, limit: int = TITLE_CHARS) -> str:
    """The first sentence of ``caption`` (placeholders still in braces
    written "…"), cut after a whole word with "…" when longer than ``limit``."""
    text = " ".join(FIELD.sub(PENDING, caption).split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0].rstrip(".")
    if len(first) <= limit:
        return first
    return first[:limit].rsplit(" ", 1)[0].rstrip(",;:–—- ") + " …"


def elide_words(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` as it fits in ``width`` pixels: whole words, then "…"."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        shown = " ".join(words).rstrip(",;:–—-") + " …"
        if metrics.horizontalAdvance(shown) <= width:
            return shown
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


class StepList(QComboBox):
    """The steps of a lesson to jump to; never wider than the band gives it."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        # Long step titles never widen the window: the band decides the width.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)
        self.currentIndexChanged.connect(self._on_current_changed)

    def set_titles(self, titles: list[str]) -> None:
        """One item a step, its full title also its tooltip."""
        self.clear()
        for title in titles:
            self.addItem(title)
            self.setItemData(self.count() - 1, title, Qt.ItemDataRole.ToolTipRole)
        self._on_current_changed(self.currentIndex())

    def set_title(self, index: int, title: str) -> None:
        """Step ``index``'s title, once the step's figures are known."""
        if 0 <= index < self.count() and self.itemText(index) != title:
            self.setItemText(index, title)
            self.setItemData(index, title, Qt.ItemDataRole.ToolTipRole)
            self._on_current_changed(self.currentIndex())

    def shown_text(self) -> str:
        """The current title as the closed list paints it."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        return elide_words(self.currentText(), self.fontMetrics(), field.width() - 4)

    def _on_current_changed(self, index: int) -> None:
        whole = self.itemText(index) if index >= 0 else ""
        self.setToolTip(f"{whole}\n(Go to any step)" if whole else "Go to any step")

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        opt.currentText = self.shown_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)

    def showPopup(self) -> None:  # noqa: N802 (Qt's name)
        """The open list as wide as its longest title, within the window."""
        view = self.view()
        metrics = view.fontMetrics()
        want = max((metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count())),
                   default=0) + 48
        room = self.window().width() - 16
        view.setMinimumWidth(max(self.width(), min(want, room)))
        super().showPopup()
