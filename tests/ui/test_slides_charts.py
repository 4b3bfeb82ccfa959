"""Slide pictures of charts are full charts even when the Charts tab is hidden."""
from PySide6.QtGui import QImage


def test_chart_slides_from_the_canvas_tab_are_laid_out(window, qtbot):
    window.open_case_or_file("db2_io")
    window.run_and_wait()
    window.show_view("canvas")
    slides = window.exports._chart_slides()
    assert slides, "a db2_io run has charts"
    for slide in slides:
        img = QImage.fromData(slide.png)
        assert (img.width(), img.height()) == (1920, 1080)
        # A blank, never laid-out chart is one flat colour; a real one has
        # axes, labels and data in several (a four-bar chart shrunk to 64×36
        # keeps about eight, how many depends on where its grid lines fall).
        small = img.scaled(64, 36)
        colours = {small.pixel(x, y) for x in range(64) for y in range(36)}
        assert len(colours) > 4, slide.title
    assert window.tab_name() == "canvas"     # the user's tab is restored
