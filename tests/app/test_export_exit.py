"""A large command-line export exits: no Qt object outlives it.

A 20,000-volume export wrote its CSV, then spun in Python's exit-time
garbage collection freeing the window's items one PySide6 callback at a
time, until killed. ``zperflab export`` now destroys its window while
Python runs; here a moderately large drawing (300 volumes, each linked to
the data set, the rank and the control unit) is exported in a fresh
process, which must exit, and no widget may be left after the export.
"""
import os
import subprocess
import sys
from pathlib import Path

from app import scenario_io
from models.drawing.scenario import Link, Node

ROOT = Path(__file__).resolve().parents[2]
VOLUMES = 300


def _large_drawing(path: Path) -> None:
    sc = scenario_io.load_case("db2_io")
    data_set = sc.of_category("dataset")[0].id
    rank = sc.of_category("rank")[0].id
    cu = sc.of_category("control_unit")[0].id
    for i in range(VOLUMES):
        vol = sc.add_node(Node(sc.new_id(), "vol_hdd15k", f"DB2V{i + 2:04d}",
                               x=100 + (i % 30) * 120, y=500 + (i // 30) * 80))
        for a, b in ((data_set, vol.id), (vol.id, rank), (vol.id, cu)):
            sc.add_link(Link(sc.new_id("l"), a, b))
    scenario_io.save(sc, path)


def test_a_large_export_exits_and_leaves_no_widget(tmp_path):
    drawing, out = tmp_path / "large.zpl.json", tmp_path / "large.csv"
    _large_drawing(drawing)
    code = (
        "import gc, sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from app import cli\n"
        f"status = cli.main(['export', {str(drawing)!r}, {str(out)!r}])\n"
        "gc.collect()\n"
        "print('widgets left:', len(QApplication.instance().allWidgets()))\n"
        "sys.exit(status)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "ZPERFLAB_SETTINGS": str(tmp_path / "settings.ini"),
           "ZPERFLAB_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip().splitlines()[-1] == "widgets left: 0"
    assert f"DB2V{VOLUMES + 1:04d}" in out.read_text(encoding="utf-8")
