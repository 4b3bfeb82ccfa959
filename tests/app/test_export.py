"""Every export format: files exist, parse, have the right pixel size; writes are atomic."""
import csv
import shutil
import subprocess
import xml.dom.minidom

import pytest
from PySide6.QtGui import QGuiApplication, QImage

from app.export import (ExportError, copy_chart, png_bytes, save_chart_csv, save_chart_png,
                        save_chart_svg, save_table_csv, save_table_png, table_image)
from app.pptx_export import Slide, build_deck
from tests.ui.test_charts_support import toy_run
from ui.charts import ChartsView


@pytest.fixture
def view(qtbot):
    v = ChartsView()
    qtbot.addWidget(v)
    v.resize(1280, 800)
    v.show()
    v.set_result(toy_run(seed=2))
    return v


def chart(view, key):
    c = view.charts()[key]
    view.tabs.setCurrentWidget(c)
    QGuiApplication.processEvents()
    return c


def test_png_at_1x_2x_and_a_chosen_size(view, tmp_path):
    c = chart(view, "response")
    one = QImage(str(save_chart_png(c, tmp_path / "a.png")))
    two = QImage(str(save_chart_png(c, tmp_path / "b.png", scale=2)))
    assert one.width() > 600
    assert (two.width(), two.height()) == pytest.approx((2 * one.width(), 2 * one.height()), abs=2)
    exact = QImage(str(save_chart_png(c, tmp_path / "c.png", size=(1600, 900))))
    assert (exact.width(), exact.height()) == (1600, 900)
    assert c.size().width() < 1600     # laid out at 1600×900 only for the export


def test_svg_is_valid_xml_with_the_title(view, tmp_path):
    path = save_chart_svg(chart(view, "throughput"), tmp_path / "t.svg")
    doc = xml.dom.minidom.parse(str(path))
    assert doc.documentElement.tagName == "svg"
    assert "Throughput over time" in path.read_text()


def test_chart_csv_has_units_and_every_point(view, tmp_path):
    c = chart(view, "cache")
    rows = list(csv.reader(open(save_chart_csv(c, tmp_path / "c.csv"))))
    assert rows[0][:3] == ["series", "Time (s)", "Hit ratio"]
    assert len(rows) - 1 == sum(len(s.x) for s in c.data.series)


def test_table_csv_and_image(tmp_path):
    table = toy_run().reports[0]
    rows = list(csv.reader(open(save_table_csv(table, tmp_path / "t.csv"))))
    assert rows[0] == [table.title] and rows[1] == list(table.columns)
    img = QImage(str(save_table_png(table, tmp_path / "t.png", scale=2)))
    assert img.width() == table_image(table).width() * 2


def test_failed_write_is_one_clear_error_and_leaves_nothing(view, tmp_path):
    with pytest.raises(ExportError, match="cannot write .*missing"):
        save_chart_png(chart(view, "cpu"), tmp_path / "missing" / "x.png")
    target = tmp_path / "keep.csv"
    target.write_text("old")
    with pytest.raises(ExportError):
        save_chart_csv(type("Empty", (), {"data": None})(), target)
    assert target.read_text() == "old" and list(tmp_path.iterdir()) == [target]


def test_copy_chart_puts_an_image_on_the_clipboard(view):
    img = copy_chart(chart(view, "switches"))
    assert QGuiApplication.clipboard().image().size() == img.size()


def deck(view, tmp_path):
    charts = [Slide(c.data.title, png_bytes(chart(view, k).grab().toImage()))
              for k, c in list(view.charts().items())[:2]]
    header = ("Target", "Metric", "Published", "Model", "Deviation")
    rows = [("E3.io.discontig.zhpf", "io_ms", "0.983 ± 20%", "1.01", "+2.7%")] * 14
    return build_deck(tmp_path / "deck.pptx", "DB2 list prefetch", "seed 1",
                      canvas_png=png_bytes(view.grab().toImage()), charts=charts,
                      table=(header, rows))


def test_pptx_deck_opens_with_python_pptx(view, tmp_path):
    from pptx import Presentation
    prs = Presentation(str(deck(view, tmp_path)))
    titles = [s.shapes.title.text for s in prs.slides]
    assert titles[0] == "DB2 list prefetch" and titles[1] == "The scenario"
    assert titles[-2:] == ["Published vs model (1)", "Published vs model (2)"]
    pics = [sh for s in prs.slides for sh in s.shapes if sh.shape_type == 13]
    assert len(pics) == 3
    for p in pics:   # every picture fits on the slide
        assert p.left >= 0 and p.left + p.width <= prs.slide_width
        assert p.top + p.height <= prs.slide_height


@pytest.mark.skipif(not (shutil.which("libreoffice") or shutil.which("soffice")),
                    reason="LibreOffice is not installed")
def test_pptx_converts_to_pdf_with_libreoffice(view, tmp_path):
    path = deck(view, tmp_path)
    exe = shutil.which("libreoffice") or shutil.which("soffice")
    out = subprocess.run([exe, "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path),
                          str(path)], capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "deck.pdf").read_bytes()[:4] == b"%PDF"
