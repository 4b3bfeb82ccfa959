"""Every component's name reads whole in the palette at its docked width.

"Storage group on HDD 10K" and "… 15K" were both cut to "Storage group on
HDD …", so a user could not tell which to drag.
"""
from PySide6.QtCore import QRect, Qt

from ui.docks.palette import KIND_ROLE, Palette


def test_each_name_fits_its_row_at_the_docked_width(qtbot):
    palette = Palette()
    qtbot.addWidget(palette)
    palette.resize(222, 2400)            # the dock's width at 1280x800, every row in view
    palette.show()
    qtbot.waitExposed(palette)
    fm = palette.fontMetrics()
    icon = palette.iconSize().width()
    for i in range(palette.topLevelItemCount()):
        top = palette.topLevelItem(i)
        for j in range(top.childCount()):
            item = top.child(j)
            assert item.data(0, KIND_ROLE)
            rect = palette.visualItemRect(item)
            width = rect.width() - icon - 12
            if fm.horizontalAdvance(item.text(0)) <= width:
                continue                          # one line holds it
            # Too long for one line: the view must wrap it (Qt otherwise
            # elides it), onto lines the row has room for.
            need = fm.boundingRect(QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap),
                                   item.text(0))
            assert palette.wordWrap() and need.height() <= rect.height(), (item.text(0), need, rect)
