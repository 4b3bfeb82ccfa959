"""SVG export renders like the PNG export, in librsvg and in Qt's QSvgRenderer.

Qt's SVG generator writes every item under its own scaled transform with a
cosmetic pen; renderers drew that as black bands and bars below zero. The
export flattens the transforms (app.svg_flat); these tests render the SVG
and compare it pixel by pixel with the PNG of the same chart, tolerantly
(anti-aliasing and font hinting differ between renderers).
"""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage, QPainter

from app import export
from app.svg_flat import flatten_svg, transform_path

SIZE = (960, 540)


def _array(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    ptr = image.constBits()
    a = np.frombuffer(ptr, np.uint8, image.sizeInBytes()).reshape(image.height(), -1)
    return a[:, : image.width() * 4].reshape(image.height(), image.width(), 4)[..., :3].astype(int)


def _mismatch(a: np.ndarray, b: np.ndarray, block: int = 6) -> float:
    """Share of ``block``×``block`` cells whose mean colour differs by more than 40.

    Blurring to cells forgives a pixel or two of text placement; a missing
    bar, a black band or a bar on the wrong side of zero changes whole cells.
    """
    assert a.shape == b.shape, (a.shape, b.shape)
    h, w = (a.shape[0] // block) * block, (a.shape[1] // block) * block

    def cells(x):
        return x[:h, :w].reshape(h // block, block, w // block, block, 3).mean(axis=(1, 3))
    diff = np.abs(cells(a) - cells(b)).max(axis=2)
    return float((diff > 40).mean())


def _qt_render(svg_path, size) -> QImage:
    from PySide6.QtSvg import QSvgRenderer
    renderer = QSvgRenderer(str(svg_path))
    assert renderer.isValid()
    image = QImage(*size, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    renderer.render(p)
    p.end()
    return image


@pytest.fixture(scope="module")
def charts(qapp):
    """Charts of two short runs: bars, stacked bars, lines, steps and spans."""
    from models import experiments
    from ui.charts.view import ChartWidget
    from app.replay.series import derive_charts
    app = qapp
    out = []
    for case in ("natural_ziip", "spool_dump"):
        for data in derive_charts(experiments.run_experiment(case, trace=True)):
            w = ChartWidget()
            w.resize(*SIZE)
            w.show()
            app.processEvents()
            w.show_data(data)
            app.processEvents()
            out.append(w)
    yield out
    for w in out:
        w.close()
        w.deleteLater()


def _pairs(charts, tmp_path):
    for i, chart in enumerate(charts):
        png, svg = tmp_path / f"c{i}.png", tmp_path / f"c{i}.svg"
        export.save_chart_png(chart, png)
        export.save_chart_svg(chart, svg)
        ref = QImage(str(png))
        assert ref.width() == SIZE[0], chart.data.key
        yield chart.data.key, ref, svg


def test_svg_in_qt_svg_renderer_matches_the_png(qapp, charts, tmp_path):
    assert len(charts) >= 6
    for key, ref, svg in _pairs(charts, tmp_path):
        got = _qt_render(svg, (ref.width(), ref.height()))
        assert _mismatch(_array(ref), _array(got)) < 0.02, key


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert (librsvg2-bin) is not installed: packaging/setup.sh installs it")
def test_svg_in_librsvg_matches_the_png(qapp, charts, tmp_path):
    for key, ref, svg in _pairs(charts, tmp_path):
        out = svg.with_suffix(".rsvg.png")
        subprocess.run(["rsvg-convert", "-b", "white", str(svg), "-o", str(out)], check=True,
                       timeout=60)
        got = QImage(str(out))
        assert (got.width(), got.height()) == (ref.width(), ref.height()), key
        assert _mismatch(_array(ref), _array(got)) < 0.02, key


def test_flattening_multiplies_shapes_out_and_keeps_text_transformed():
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm">'
           b'<g stroke-width="2" transform="matrix(10,0,0,-2,5,100)">'
           b'<rect vector-effect="non-scaling-stroke" x="0" y="0" width="1" height="10"/>'
           b'<polyline points="0,0 1,1"/><text x="1" y="2">hi</text></g></svg>')
    out = flatten_svg(svg, (40, 30)).decode()
    assert "matrix(10,0,0,-2,5,100)" in out          # only the text keeps it
    assert 'd="M5,100 15,100 15,80 5,80 Z"' in out   # the bar is in page pixels
    assert 'points="5,100 15,98"' in out
    assert 'stroke-width="8.944"' in out             # a non-cosmetic stroke scales
    assert "vector-effect" not in out and 'width="40"' in out
    assert transform_path((1, 0, 0, 1, 1, 1), "M0,0 L1,1 C1,2 3,4 5,6 Z") == \
        "M1,1 L2,2 C2,3 4,5 6,7 Z"


def test_compare_svg_holds_both_halves_each_under_its_label(qapp, charts, tmp_path):
    """A Compare export to SVG draws A and B side by side, each headed by its
    run's label, as the PNG export of the same comparison does."""
    halves = (charts[0], charts[1])
    labels = ("Run #1: cache 1 GB → 64 GB", "Run #3: device HDD → SSD")
    png, svg = tmp_path / "cmp.png", tmp_path / "cmp.svg"
    export.save_compare_png(halves, labels, png)
    export.save_compare_svg(halves, labels, svg)
    ref = QImage(str(png))
    assert (ref.width(), ref.height()) == export.COMPARE_SIZE      # 16:9, as a slide
    text = svg.read_text(encoding="utf-8")
    assert all(label in text for label in labels)
    got = _qt_render(svg, (ref.width(), ref.height()))
    assert _mismatch(_array(ref), _array(got)) < 0.02
    # Each half shows its own chart: the right half is not the left one again.
    half = export.COMPARE_SIZE[0] // 2
    right = _array(got)[:, half:]
    assert _mismatch(_array(ref)[:, half:], right) < 0.02
    assert _mismatch(_array(got)[:, :half], right) > 0.05
