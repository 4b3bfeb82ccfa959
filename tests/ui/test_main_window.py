"""The main window opens, lists every case study and renders offscreen."""
from models import experiments
from ui.main_window import MainWindow


def test_window_opens_with_case_studies_menu(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    titles = [m.title() for m in win.menuBar().findChildren(type(win.menuBar().actions()[0].menu()))]
    assert any("Case studies" in t for t in titles)
    assert win.open_case_or_file("db2_io") is None
    assert experiments.get("db2_io").title in win.windowTitle()
    assert "no built-in case study" in win.open_case_or_file("nope")


def test_window_renders_to_an_image(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    img = win.grab().toImage()
    assert (img.width(), img.height()) == (1280, 800)
