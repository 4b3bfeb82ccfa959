"""Signals from outside (issue 39, item 4): ``zperflab run`` stopped by
SIGTERM says so in one line; a local sweep killed with SIGKILL leaves no pool
process behind.

Each test starts the command in its own session, waits for a condition it
can see (a progress line on a pseudo-terminal, a file) rather than a fixed
time, and kills the whole process group on the way out.
"""
from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: About two hours of simulated transactions: it cannot end by itself here.
ENDLESS_RUN = ["run", "vsam_rls", "--set", "transactions=10000000"]


def _env(tmp_path: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen",
            "ZPERFLAB_DATA_DIR": str(tmp_path), "ZPERFLAB_SETTINGS": str(tmp_path / "s.ini")}


class Terminal:
    """The command's stderr on a pseudo-terminal (so it draws its progress)."""

    def __init__(self, argv: list[str], tmp_path: Path, stdout) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "app", *argv], cwd=ROOT,
                                     env=_env(tmp_path), stdout=stdout, stderr=slave,
                                     start_new_session=True)
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: bytes, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while text not in self.seen and time.monotonic() < deadline:
            if not self._read(min(0.5, max(0.0, deadline - time.monotonic()))):
                if self.proc.poll() is not None:
                    break
        return text in self.seen

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 4096)
        except OSError:             # the child closed its side
            return False
        self.seen += chunk
        return bool(chunk)

    def finish(self, timeout: float) -> str:
        self.proc.wait(timeout)
        while self._read(0.2):
            pass
        return self.seen.decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
        os.close(self.master)


def _lines(text: str) -> list[str]:
    """What stays on the terminal: the lines, less the progress redrawn in place."""
    text = text.replace("\x1b[K", "").replace("\r\n", "\n")
    return [line.rsplit("\r", 1)[-1] for line in text.split("\n")
            if line.rsplit("\r", 1)[-1].strip()]


def test_sigterm_stops_a_run_in_one_line_with_status_143(tmp_path):
    out = tmp_path / "out.json"
    with out.open("w") as stdout:
        term = Terminal([*ENDLESS_RUN, "--json"], tmp_path, stdout)
    try:
        assert term.wait_for(b"%", 120), term.seen[-500:]      # the run is under way
        term.proc.send_signal(signal.SIGTERM)
        text = term.finish(30)
    finally:
        term.close()
    assert _lines(text) == ["zperflab: stopped by SIGTERM: no result"], text[-500:]
    assert term.proc.returncode == 143, text[-500:]
    assert out.read_text() == ""            # no half-written JSON where stdout went


def _group(pgid: int) -> list[str]:
    """Command lines of the live processes in process group ``pgid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue                    # it ended while we looked
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(cmd.replace(b"\0", b" ").decode("utf-8", "replace")[:120])
    return found


#: 24 × 2 × 3 × 2 = 288 points of about half a second: far from done when killed.
LONG_SWEEP = ["sweep", "db2_io", "--over", "pages=[" + ",".join(map(str, range(1, 25))) + "]",
              "--over", "protocol=FICON,zHPF", "--over", "device=HDD10K,HDD15K,SSD",
              "--over", "layout=contiguous,discontiguous", "--workers", "2"]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
def test_a_sweep_killed_with_sigkill_leaves_no_process(tmp_path):
    term = Terminal([*LONG_SWEEP, "--csv", str(tmp_path / "s.csv")], tmp_path,
                    subprocess.DEVNULL)
    try:
        # The first point finished: both pool processes are at work.
        assert term.wait_for(b"%", 120), term.seen[-500:]
        assert term.proc.poll() is None, "the sweep ended before it could be killed"
        term.proc.kill()                    # kill -9: no handler, no clean-up of its own
        term.proc.wait(30)
        deadline = time.monotonic() + 30
        while _group(term.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = _group(term.proc.pid)
    finally:
        term.close()
        try:
            os.killpg(term.proc.pid, signal.SIGKILL)   # whatever outlived it
        except ProcessLookupError:
            pass
    assert left == [], "pool or resource-tracker processes outlived the sweep"
