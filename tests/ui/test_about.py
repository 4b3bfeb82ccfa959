"""Help ▸ About shows what ``zperflab --version`` prints, row for row."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_help_about_shows_the_same_rows_as_version(window, qtbot):
    menus = [a for a in window.menuBar().actions() if a.menu()]
    assert menus[-1].text().replace("&", "") == "Help"
    about = [a for a in menus[-1].menu().actions() if a.text().replace("&", "") == "About zPerfLab"]
    assert len(about) == 1
    about[0].trigger()
    dialog = window.about_dialog
    qtbot.waitExposed(dialog)
    assert dialog.isVisible()
    assert dialog.windowTitle() == "About zPerfLab"

    cli = subprocess.run([sys.executable, "-m", "app", "--version"], cwd=ROOT, env=os.environ,
                         capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    lines = cli.stdout.splitlines()
    name, version = lines[0].split()
    assert name in dialog.heading.text() and version in dialog.heading.text()
    printed = {k: v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    shown = {label: w.text() for label, w in dialog.value_labels.items()}
    assert shown == printed
    assert str(Path(os.environ["ZPERFLAB_DATA_DIR"]) / "history.sqlite3") == shown["Run history"]
    dialog.reject()
