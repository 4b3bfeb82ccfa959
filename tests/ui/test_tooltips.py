"""Every button and list a user can see says what it does when pointed at.

Found missing by a review: the replay's Play, Step and Step back, and the
lesson's Back, Next and End lesson.
"""
from PySide6.QtWidgets import QAbstractButton, QComboBox, QTabBar


def _silent(window, where: str) -> list[tuple[str, str, str]]:
    out = []
    for w in window.findChildren(QAbstractButton) + window.findChildren(QComboBox):
        if not w.isVisible() or w.toolTip() or w.objectName().startswith("qt_") \
                or isinstance(w.parent(), QTabBar):
            continue                      # Qt's own dock and tab-scroll buttons
        text = w.text() if isinstance(w, QAbstractButton) else w.currentText()
        out.append((where, type(w).__name__, text))
    return out


def test_every_visible_control_has_a_tooltip(window, qtbot):
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.open_case_or_file("db2_io")
    with qtbot.waitSignal(window.run_done, timeout=60_000):
        window.run()
    silent = []
    for view in ("canvas", "charts", "animation", "history", "sweep", "compare"):
        window.show_canvas() if view == "canvas" else window.show_view(view)
        silent += _silent(window, view)
    window.show_view("animation")
    assert window.lessons.start("db2_io", 0) is None
    silent += _silent(window, "lesson")
    assert silent == []


def test_a_property_tooltip_is_headed_by_its_title_and_names_the_key_only_as_typed(window):
    """The Properties panel's tooltip starts with what a person reads ("Pages
    per I/O"), not the key ("pages"); the key appears only as the command
    line's ``--set`` to type."""
    window.open_case_or_file("db2_io")
    sc = window.editor.scenario
    node = next(n.id for n in sc.nodes.values() if n.kind.startswith("wl_"))
    window.scene.select_nodes([node])
    tip = window.inspector.fields["pages"].toolTip()
    assert tip.startswith("<b>Pages per I/O</b>:"), tip
    assert tip.count("pages=") == 1 and "Command line: --set pages=" in tip
