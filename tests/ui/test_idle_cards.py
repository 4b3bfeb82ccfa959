"""A card that takes no part in the run says so, always, and so does the run.

Issue 40: an unlinked storage group beside SGDB2 changed nothing without a
word, and a sysprog concluded that SSD changes nothing.
"""
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel

from ui.canvas.items import NODE_H, NODE_W, WARN_FILL
from tests.ui.helpers import drop, link


def _open_sysa(win):
    assert win.open_case_or_file("rmf_sysa") is None
    return win.editor.scenario


def _id(sc, label):
    return next(n.id for n in sc.nodes.values() if n.label == label)


def _note_pixels(win, node_id) -> int:
    """Pixels of the yellow note drawn under the card, as on screen."""
    item = win.scene.node_items[node_id]
    win.view.ensureVisible(item)
    rect = win.view.mapFromScene(item.mapRectToScene(0, NODE_H, NODE_W, 60)).boundingRect()
    image = win.view.viewport().grab(rect).toImage()
    fill = QColor(WARN_FILL).rgb()
    return sum(1 for x in range(image.width()) for y in range(image.height())
               if image.pixel(x, y) == fill)


def test_an_unlinked_card_warns_and_the_run_names_it(window, qtbot):
    win = window
    sc = _open_sysa(win)
    assert all(not m.startswith("takes no part") for n in sc.nodes
               for m in win.scene.issues_for(n))
    new = drop(win, "sg_ssd", 500, 900)
    label = sc.nodes[new].label
    why = "takes no part in the run: no dataset a workload uses is on it"
    assert win.scene.issues_for(new) == [why]
    assert why in win.scene.node_items[new].toolTip()
    assert _note_pixels(win, new) > 500
    win.scene.select_nodes([new])
    assert any(why in lb.text() for lb in win.inspector.findChildren(QLabel))
    # The drawing still runs; the run says which card it left out.
    with qtbot.waitSignal(win.run_done, timeout=120_000):
        win.run()
    line = f"Took no part in this run: {label} (no dataset a workload uses is on it)."
    assert line in win.status.text()
    assert any(line in lb.text() for lb in win.results.findChildren(QLabel))
    # Linked into the I/O path, the note goes (an issue says what is missing now).
    link(win, _id(sc, "SGDB2 data"), new)
    assert not any(m.startswith("takes no part") for m in win.scene.issues_for(new))
    assert "takes no part" not in win.scene.node_items[new].toolTip()
    win.editor.undo_stack.undo()
    assert win.scene.issues_for(new) == [why]


def test_a_drawing_where_every_card_works_shows_no_such_note(window, qtbot):
    win = window
    sc = _open_sysa(win)
    with qtbot.waitSignal(win.run_done, timeout=120_000):
        win.run()
    assert "Took no part" not in win.status.text()
    assert all(_note_pixels(win, n) == 0 for n in list(sc.nodes)[:3])
