"""The app exits cleanly after the user copied components."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_exit_after_copy_does_not_crash():
    code = (
        "import argparse, sys\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from app import gui\n"
        "app = QApplication([])\n"
        "def copy_then_quit():\n"
        "    win = next(w for w in app.topLevelWidgets() if hasattr(w, 'copy_selection'))\n"
        "    win.select_all(); win.copy_selection()\n"
        "    assert app.clipboard().mimeData().formats(), 'nothing was copied'\n"
        "    app.quit()\n"
        "QTimer.singleShot(200, copy_then_quit)\n"
        "args = argparse.Namespace(open='db2_io', run=False, view='canvas', size='1280x800',"
        " screenshot=None)\n"
        "sys.exit(gui.main(args))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**__import__("os").environ,
                                                     "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, (out.returncode, out.stderr[-500:])
