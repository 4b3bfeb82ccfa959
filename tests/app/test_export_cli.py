"""``zperflab export``: a case study run and written without the window, with the
Export menu's own code; bad input gets one line and writes nothing."""
import csv
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from models import experiments

ROOT = Path(__file__).resolve().parents[2]


def _export(*args):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "app", "export", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)


def _metrics(path: Path) -> dict:
    rows = list(csv.reader(path.open(encoding="utf-8")))
    start = rows.index(["Metric", "Value", "Unit"]) + 1
    out = {}
    for row in rows[start:]:
        if len(row) != 3:
            break
        out[row[0]] = float(row[1])
    return out


def test_list_charts_names_each_chart_with_its_title():
    out = _export("db2_io", "--list-charts")
    assert out.returncode == 0, out.stderr
    lines = [line.split("\t") for line in out.stdout.splitlines()]
    assert ["cache", "Cache read hit ratio"] in lines
    assert all(len(parts) == 2 and parts[1] for parts in lines)


def test_csv_tables_hold_the_runs_figures_by_title(tmp_path):
    path = tmp_path / "db2.csv"
    out = _export("db2_io", str(path))
    assert out.returncode == 0, out.stderr
    shown = _metrics(path)
    ran = experiments.run_experiment("db2_io", {}, seed=experiments.DEFAULT_SEED)
    # The same run as `zperflab run`, under the metric's title, never its key.
    assert abs(shown["I/O response time"] - ran.metrics["io_ms"]) <= 1e-9 * ran.metrics["io_ms"]
    assert "io_ms" not in path.read_text(encoding="utf-8")


def test_set_changes_the_drawing_before_the_run(tmp_path):
    base, fewer = tmp_path / "a.csv", tmp_path / "b.csv"
    assert _export("db2_io", str(base)).returncode == 0
    out = _export("db2_io", str(fewer), "--set", "pages=8")
    assert out.returncode == 0, out.stderr
    assert _metrics(fewer)["I/O response time"] < _metrics(base)["I/O response time"]


def _pixels(path: Path) -> str:
    """A digest of the picture's pixels (two files of one chart compare equal)."""
    import hashlib
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    return hashlib.sha1(bytes(image.constBits())).hexdigest()


def test_one_chart_as_png_by_title_or_name_and_the_deck(tmp_path):
    png = tmp_path / "util.png"
    out = _export("db2_io", str(png), "--chart", "Utilisation per component")
    assert out.returncode == 0, out.stderr
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1920, 1080)
    # --chart picks the chart: by name the same picture, without it the first
    # chart (I/O response time by component), which is another picture.
    by_name, first = tmp_path / "by_name.png", tmp_path / "first.png"
    assert _export("db2_io", str(by_name), "--chart", "utilisation").returncode == 0
    assert _export("db2_io", str(first)).returncode == 0
    assert _pixels(by_name) == _pixels(png)
    assert _pixels(first) != _pixels(png)
    deck = tmp_path / "db2.pptx"
    out = _export("db2_io", str(deck))
    assert out.returncode == 0, out.stderr
    from pptx import Presentation
    titles = [s.shapes.title.text for s in Presentation(str(deck)).slides]
    assert "Utilisation per component" in titles and "Published vs model" in titles


def test_one_chart_as_svg(tmp_path):
    import xml.etree.ElementTree as ET

    from PySide6.QtSvg import QSvgRenderer
    svg = tmp_path / "cache.svg"
    out = _export("db2_io", str(svg), "--chart", "cache")
    assert out.returncode == 0, out.stderr
    assert ET.parse(svg).getroot().tag.endswith("svg")       # an SVG, not a PNG named .svg
    renderer = QSvgRenderer(str(svg))
    assert renderer.isValid()
    size = renderer.defaultSize()
    assert abs(size.width() / size.height() - 16 / 9) < 0.02   # laid out as on a slide


def test_bad_input_gets_one_line_and_writes_nothing(tmp_path):
    for args, status, words in (
            (("db2_io", str(tmp_path / "x.txt")), 2, "end it in .pptx"),
            (("db2_io", str(tmp_path / "x.png"), "--chart", "nope"), 1, "no chart named 'nope'"),
            (("db2_io", str(tmp_path / "x.csv"), "--set", "nokey=3"), 2, "nokey"),
            (("no_such_case", str(tmp_path / "x.csv")), 2, "no built-in case study"),
            (("db2_io",), 2, "needs OUT")):
        out = _export(*args)
        assert out.returncode == status, (args, out.stderr)
        errors = [line for line in out.stderr.splitlines() if line.startswith("zperflab:")]
        assert len(errors) == 1 and words in errors[0], (args, out.stderr)
        assert "Traceback" not in out.stderr
    assert list(tmp_path.iterdir()) == []
