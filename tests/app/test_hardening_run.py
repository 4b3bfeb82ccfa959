"""Issue 18, items 2, 4, 8 and 10 and autosave: runs and the app's exits."""
import argparse
import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import gui
from app.cli import main
from models import experiments
from models.core.params import MAX_SIZES, ParamError

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path, **extra):
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ZPERFLAB_DATA_DIR": str(tmp_path),
            "ZPERFLAB_SETTINGS": str(tmp_path / "settings.ini"), **extra}


# ---- 2. gui --open X aborts with SIGABRT --------------------------------------------
def test_2_gui_open_that_fails_exits_2_not_134(tmp_path):
    bad = tmp_path / "bad.zpl.json"
    bad.write_text('{"format": "zperflab-scenario", "version": 2, "experiment": {}}')
    fifo = tmp_path / "fifo.zpl.json"
    os.mkfifo(fifo)
    for target in ("no_such_case", str(bad), str(fifo)):
        out = subprocess.run([sys.executable, "-m", "app", "gui", "--open", target], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, env=_env(tmp_path))
        assert out.returncode == 2, (target, out.returncode, out.stderr[-800:])
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("zperflab: error:"), out.stderr


# ---- 4. cancel right after Run ------------------------------------------------------
def test_4_cancel_right_after_start_is_not_lost(qtbot):
    from app.worker import RunThread

    runner = RunThread()
    outcomes = []
    for sig in ("succeeded", "failed", "cancelled"):
        getattr(runner.worker, sig).connect(lambda *a, s=sig: outcomes.append(s))
    try:
        for _ in range(3):
            with qtbot.waitSignal(runner.worker.done, timeout=60_000):
                runner.start("vsam_rls", {}, 1, None)
                runner.cancel()               # before the thread picks the run up
        assert outcomes == ["cancelled"] * 3
    finally:
        runner.stop()


def test_4_task_runner_cancel_right_after_start(qtbot):
    from app.worker import TaskRunner
    from models.core.run import Cancelled

    def job(progress, cancel):
        time.sleep(0.2)
        if cancel.is_set():
            raise Cancelled("stop")
        return 1
    runner = TaskRunner("t")
    try:
        with qtbot.waitSignal(runner.cancelled, timeout=10_000):
            runner.start(job)
            runner.cancel()
    finally:
        runner.stop()


# ---- 8. work bounds, progress, Ctrl-C -----------------------------------------------
def test_8_member_lists_are_bounded():
    sizes = experiments.get("library_space").schema["contents"]
    assert sizes.coerce([4096] * MAX_SIZES) == [4096] * MAX_SIZES
    with pytest.raises(ParamError, match="at most 20,000"):
        sizes.coerce([4096] * 1_000_000)


def test_8_long_run_shows_progress_warns_and_stops_on_ctrl_c(tmp_path):
    """stderr a terminal: a progress line, a warning, Ctrl-C ends cleanly (130)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "app", "run", "vsam_rls", "--set",
                             "transactions=3000000"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=slave, env=_env(tmp_path))
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 60
    while b"Ctrl-C stops it" not in seen and time.monotonic() < deadline:
        try:
            seen += os.read(master, 4096)
        except OSError:
            break
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)                      # before: a traceback, or hours
    finally:
        proc.kill()
    try:
        while True:
            chunk = os.read(master, 4096)
            if not chunk:
                break
            seen += chunk
    except OSError:
        pass
    os.close(master)
    text = seen.decode("utf-8", "replace")
    assert proc.returncode == 130, text[-500:]
    assert "%" in text and "min in all; Ctrl-C stops it" in text
    assert "cancelled (Ctrl-C)" in text and "Traceback" not in text


# ---- 10. smaller items ----------------------------------------------------------------
def test_10_gui_bad_size_exits_2(capsys):
    args = argparse.Namespace(size="abc", open=None, run=False, view="canvas", screenshot=None)
    assert gui.main(args) == 2
    assert capsys.readouterr().err.count("\n") == 1
    args.size = "1x" + "9" * 400
    assert gui.main(args) == 2


def test_10_duplicate_set_is_refused(capsys):
    assert main(["run", "db2_io", "--set", "pages=8", "--set", "pages=16"]) == 2
    assert "given twice" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["9" * 100_000, "a\x1b[31mred\x07\rb", "x" * 100_000 + "\n"])
def test_10_error_lines_are_short_and_escaped(capsys, value):
    assert main(["run", "db2_io", "--set", f"protocol={value}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 700
    assert not any(ord(c) < 32 for c in err[:-1]), repr(err[:200])


# ---- autosave and recovery ----------------------------------------------------------
_FIRST = """
import json, os, signal, sys, argparse
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app import gui, recovery, scenario_io
app = QApplication([])
def edit():
    win = next(w for w in app.topLevelWidgets() if hasattr(w, 'autosaver'))
    win.editor.add_component('cpu_cp', 480.0, 320.0)
    win.editor.rename(sorted(win.editor.scenario.nodes)[0], 'Renamed \\u00e9 unsaved')
    def wait_for_autosave():
        if recovery.own_file().exists():
            print(json.dumps(scenario_io.to_document(win.editor.scenario)), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        QTimer.singleShot(50, wait_for_autosave)
    wait_for_autosave()
QTimer.singleShot(300, edit)
sys.exit(gui.main(argparse.Namespace(open='db2_io', run=False, view='canvas',
                                     size='1280x800', screenshot=None)))
"""

_SECOND = """
import json, sys, argparse
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from app import gui, scenario_io
app = QApplication([])
def answer():
    win = next(w for w in app.topLevelWidgets() if hasattr(w, 'autosaver'))
    box = win.recovery_box
    if box is None:
        print('NO OFFER', flush=True)
        app.quit()
        return
    print('OFFER ' + box.text(), flush=True)
    box.button(QMessageBox.StandardButton.Open).click()
    print(json.dumps(scenario_io.to_document(win.editor.scenario)), flush=True)
    print('DIRTY' if not win.editor.undo_stack.isClean() else 'CLEAN', flush=True)
    win.editor.undo_stack.setClean()          # nothing to keep: quit without asking
    app.quit()
QTimer.singleShot(500, answer)
sys.exit(gui.main(argparse.Namespace(open=None, run=False, view='canvas',
                                     size='1280x800', screenshot=None)))
"""


def test_sigkill_with_unsaved_changes_offers_recovery_of_the_exact_scenario(tmp_path):
    env = _env(tmp_path, ZPERFLAB_AUTOSAVE_S="0.2")
    first = subprocess.run([sys.executable, "-c", _FIRST], cwd=ROOT, capture_output=True,
                           text=True, timeout=90, env=env)
    assert first.returncode == -signal.SIGKILL, first.stderr[-800:]
    before = json.loads(first.stdout.strip().splitlines()[-1])
    second = subprocess.run([sys.executable, "-c", _SECOND], cwd=ROOT, capture_output=True,
                            text=True, timeout=90, env=env)
    assert second.returncode == 0, second.stderr[-800:]
    lines = second.stdout.strip().splitlines()
    assert lines[0].startswith("OFFER ") and "Restore them?" in lines[0], lines
    assert json.loads(lines[1]) == before
    assert lines[2] == "DIRTY"                 # restored, still to be saved
    third = subprocess.run([sys.executable, "-c", _SECOND], cwd=ROOT, capture_output=True,
                           text=True, timeout=90, env=env)
    assert third.stdout.strip() == "NO OFFER"  # answered: offered once
