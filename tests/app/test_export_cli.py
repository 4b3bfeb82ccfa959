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


def test_one_chart_as_png_by_title_and_the_deck(tmp_path):
    png = tmp_path / "util.png"
    out = _export("db2_io", str(png), "--chart", "Utilisation per component")
    assert out.returncode == 0, out.stderr
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1920, 1080)
    deck = tmp_path / "db2.pptx"
    out = _export("db2_io", str(deck))
    assert out.returncode == 0, out.stderr
    from pptx import Presentation
    titles = [s.shapes.title.text for s in Presentation(str(deck)).slides]
    assert "Utilisation per component" in titles and "Published vs model" in titles


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
