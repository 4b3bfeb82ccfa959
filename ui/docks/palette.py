"""The component palette: kinds grouped by category, dragged onto the canvas."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QDrag, QFont
from PySide6.QtWidgets import QAbstractItemView, QTreeWidget, QTreeWidgetItem

from models.drawing import components, variants
from ui.canvas.mime import encode_kind
from ui.icons import icon_for

KIND_ROLE = Qt.ItemDataRole.UserRole + 1


class Palette(QTreeWidget):
    """Every component kind under its category heading, with icon and tooltip.

    Dragging an entry carries its registry key in the
    ``application/x-zperflab-component`` MIME type; double-clicking emits
    :attr:`kind_activated` so the window can add it without a drag.
    """

    kind_activated = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setIconSize(QSize(36, 36))
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setRootIsDecorated(False)
        self.setIndentation(8)
        self.setUniformRowHeights(False)
        # A long name wraps rather than ending in "…": "Storage group on HDD
        # 10K" and "… 15K" were cut to the same "Storage group on HDD …".
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        heading = QFont(self.font())
        heading.setBold(True)
        heading.setPointSizeF(self.font().pointSizeF() + 0.5)
        for cat, title in components.CATEGORIES.items():
            top = QTreeWidgetItem(self, [title])
            top.setFont(0, heading)
            top.setFlags(Qt.ItemFlag.ItemIsEnabled)
            for k in components.KINDS.values():
                if k.category != cat:
                    continue
                item = QTreeWidgetItem(top, [k.label])
                item.setIcon(0, icon_for(k.key))
                item.setData(0, KIND_ROLE, k.key)
                onto = (" Onto a card of the same sort, it offers to change that card to "
                        "this one." if variants.family(k.key) else "")
                item.setToolTip(0, f"<b>{k.label}</b><br>{k.help}<br><i>Drag onto the "
                                   f"canvas.{onto}</i>")
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                              | Qt.ItemFlag.ItemIsDragEnabled)
        self.expandAll()
        self.itemDoubleClicked.connect(self._on_item_double_clicked)

    def _on_item_double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        key = item.data(0, KIND_ROLE)
        if key:
            self.kind_activated.emit(key)

    def startDrag(self, supported_actions) -> None:
        item = self.currentItem()
        key = item.data(0, KIND_ROLE) if item is not None else None
        if not key:
            return
        drag = QDrag(self)
        drag.setMimeData(encode_kind(key))
        drag.setPixmap(icon_for(key).pixmap(48, 48))
        drag.exec(Qt.DropAction.CopyAction)
