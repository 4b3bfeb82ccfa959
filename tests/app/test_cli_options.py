"""Every option the command line accepts takes effect or is refused in one line.

Each refused case used to be accepted and then ignored: ``gui --step 2``
without a lesson opened the plain window, ``export --chart nosuch`` to a
CSV wrote the tables and exited 0, ``gui --run`` (no screenshot) opened the
scenario without running it.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli

ROOT = Path(__file__).resolve().parents[2]


REFUSED = [
    (["gui", "--step", "2"], "--step picks a step of a lesson: give --lesson NAME too"),
    (["gui", "--lesson", ""], "--lesson needs a lesson's name"),
    (["gui", "--lesson", "   "], "--lesson needs a lesson's name"),
    (["gui", "--no-present"], "--no-present applies to a lesson"),
    (["gui", "--run"], "--run runs what --open opens"),
    (["gui", "--lesson", "db2_io", "--open", "spool_dump", "--view", "charts"],
     "--lesson opens its own drawing, run and tab: drop --open, --view"),
    (["export", "db2_io", "{tmp}/t.csv", "--chart", "nosuch"],
     "--chart picks the chart of a .png or .svg; a .csv holds the results tables"),
    (["export", "db2_io", "{tmp}/t.pptx", "--chart", "throughput"],
     "a .pptx holds every chart"),
    (["export", "db2_io", "{tmp}/t.csv", "--list-charts"], "--list-charts only names the charts"),
    (["export", "db2_io", "--list-charts", "--chart", "x"], "drop --chart"),
    (["export", "db2_io", "{tmp}/t.csv", "--timeout", "0"], "--timeout must be a number"),
    (["export", "db2_io", "{tmp}/t.csv", "--timeout", "nan"], "--timeout must be a number"),
    (["export", "db2_io", "{tmp}"], "cannot tell the format"),
    (["export", "db2_io", "{tmp}/d.csv"], "it is a folder, not a regular file"),
    (["history", "--experiment", "nosuch"], "no experiment called 'nosuch'; known: "),
    (["history", "--experiment", ""], "no experiment called ''"),
]


@pytest.mark.parametrize("argv, message", REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_an_option_that_would_be_ignored_is_refused(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.setenv("ZPERFLAB_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "d.csv").mkdir()
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert sorted(os.listdir(tmp_path)) == ["d.csv"]          # nothing written


def test_gui_run_and_view_take_effect_in_the_live_window(tmp_path):
    """``gui --open CASE --run --view charts`` runs and shows the charts, live."""
    code = (
        "import argparse, sys\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from app import gui\n"
        "app = QApplication([])\n"
        "seen = {}\n"
        "def check():\n"
        "    win = next(w for w in app.topLevelWidgets() if hasattr(w, 'run_and_wait'))\n"
        "    if win.document.result is None:\n"
        "        QTimer.singleShot(100, check); return\n"
        "    seen.update(tab=win.tab_name(), experiment=win.document.result.experiment)\n"
        "    app.quit()\n"
        "QTimer.singleShot(100, check)\n"
        "args = argparse.Namespace(open='db2_io', run=True, view='charts', size='1280x800',"
        " screenshot=None, lesson=None, step=None, present=True)\n"
        "status = gui.main(args)\n"
        "print(seen)\n"
        "sys.exit(status)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "ZPERFLAB_SETTINGS": str(tmp_path / "settings.ini"),
           "ZPERFLAB_DATA_DIR": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.strip().splitlines()[-1] == "{'tab': 'charts', 'experiment': 'db2_io'}"
