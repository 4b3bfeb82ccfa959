"""A sweep keeps what it finished when the machinery under it fails.

A real Dask scheduler and workers are started here as processes (``dask
scheduler`` / ``dask worker``, Dask being a dependency) and killed part-way
through a ``zperflab sweep --dask``: a dead scheduler or the only worker
gone ends the sweep with one line, the finished points written and marked
partial, and its own exit status; a dead worker among others costs nothing.
A web server given as ``--dask`` is refused within seconds, and SIGTERM to a
local sweep writes what finished and leaves no process behind.
"""
from __future__ import annotations

import csv
import gc
import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app import cli, scenario_io, sweep, sweep_cli
from models.core.params import ParamError

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
#: 24 points of about half a second each: long enough to kill something mid-way.
GRID = ["sweep", "db2_io", "--over", "pages=[" + ",".join(map(str, range(1, 25))) + "]"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(*argv) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", *argv], env=ENV, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)


def _worker(address: str) -> subprocess.Popen:
    return _start("distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                  "--no-dashboard")


class Cluster:
    """A scheduler and ``workers`` single-threaded workers, each its own process."""

    def __init__(self, workers: int) -> None:
        from dask.distributed import Client
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.scheduler = _start("distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                "--port", self.address.rsplit(":", 1)[1], "--no-dashboard")
        self.workers = [_worker(self.address) for _ in range(workers)]
        with Client(self.address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=90)

    def close(self) -> None:
        for proc in [*self.workers, self.scheduler]:
            _stop(proc)


@pytest.fixture
def one_worker():
    c = Cluster(1)
    yield c
    c.close()


@pytest.fixture
def two_workers():
    c = Cluster(2)
    yield c
    c.close()


def _kill_after(monkeypatch, points: int, victim, total: int = 24) -> None:
    """Kill ``victim`` (a process) once ``points`` of ``total`` points have finished."""
    class Killing(cli.Progress):
        def __call__(self, fraction):
            super().__call__(fraction)
            if round(fraction * total) >= points and victim.poll() is None:
                victim.kill()
    monkeypatch.setattr(sweep_cli, "Progress", Killing)


def _partial(path: Path) -> tuple[list[list[str]], str]:
    rows = list(csv.reader(path.open(encoding="utf-8")))
    return rows[1:-1], rows[-1][0]


def _no_trace(err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err


def test_a_dead_scheduler_ends_the_sweep_and_keeps_finished_points(
        one_worker, tmp_path, capsys, monkeypatch):
    out = tmp_path / "s.csv"
    _kill_after(monkeypatch, 3, one_worker.scheduler)
    start = time.monotonic()
    code = cli.main([*GRID, "--dask", one_worker.address, "--csv", str(out)])
    err = capsys.readouterr().err
    _no_trace(err)
    assert code == sweep_cli.EXIT_PARTIAL
    rows, mark = _partial(out)
    assert 3 <= len(rows) < 24
    assert mark == f"# PARTIAL SWEEP: {len(rows)} of 24 points finished; lost the Dask " \
                   f"scheduler at {one_worker.address}"
    assert err.strip().splitlines()[-1] == (
        f"zperflab: lost the Dask scheduler at {one_worker.address}: wrote the {len(rows)} "
        f"of 24 points that finished to {out}")
    assert time.monotonic() - start < 60       # not the client's minute of reconnecting


def test_the_only_worker_dead_stops_after_the_stated_time(
        one_worker, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sweep, "DASK_NO_WORKER_S", 3.0)
    out = tmp_path / "s.csv"
    _kill_after(monkeypatch, 2, one_worker.workers[0])
    code = cli.main([*GRID, "--dask", one_worker.address, "--csv", str(out)])
    err = capsys.readouterr().err
    _no_trace(err)
    assert code == sweep_cli.EXIT_PARTIAL
    rows, mark = _partial(out)
    assert 2 <= len(rows) < 24
    assert mark.endswith(f"the Dask cluster at {one_worker.address} has had no worker for 3 s")
    assert f"wrote the {len(rows)} of 24 points that finished" in err


def test_ctrl_c_after_the_only_worker_died_stops_at_once(
        one_worker, tmp_path, capsys, monkeypatch):
    out = tmp_path / "s.csv"

    class KillThenCtrlC(cli.Progress):
        def __call__(self, fraction):
            super().__call__(fraction)
            if round(fraction * 24) >= 2 and one_worker.workers[0].poll() is None:
                one_worker.workers[0].kill()
                signal.raise_signal(signal.SIGINT)        # the user presses Ctrl-C
    monkeypatch.setattr(sweep_cli, "Progress", KillThenCtrlC)
    start = time.monotonic()
    code = cli.main([*GRID, "--dask", one_worker.address, "--csv", str(out)])
    took = time.monotonic() - start
    err = capsys.readouterr().err
    _no_trace(err)
    assert code == cli.EXIT_INTERRUPTED
    rows, mark = _partial(out)
    assert mark == f"# PARTIAL SWEEP: {len(rows)} of 24 points finished; cancelled (Ctrl-C)"
    assert len(rows) >= 2
    assert took < sweep.DASK_NO_WORKER_S         # the Ctrl-C stopped it, not the watchdog


def test_a_dead_worker_among_others_loses_nothing(two_workers, tmp_path, capsys, monkeypatch):
    out = tmp_path / "s.csv"
    grid = ["sweep", "db2_io", "--over", "pages=1,2,3,4,5,6"]
    _kill_after(monkeypatch, 1, two_workers.workers[0], total=6)
    code = cli.main([*grid, "--dask", two_workers.address, "--csv", str(out)])
    _no_trace(capsys.readouterr().err)
    assert code == 0
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4", "5", "6"]
    assert two_workers.workers[0].poll() is not None        # it did die


@pytest.mark.parametrize("drawing", ["experiment", "scenario file"])
def test_a_worker_replaced_after_it_died_loses_nothing(one_worker, tmp_path, capsys,
                                                       monkeypatch, drawing):
    """The only worker is killed and another takes its place (as a nanny or an
    orchestrator restarts it): the sweep goes on there, with the drawing of a
    --scenario file too. Before (issue 39), the file's drawing was scattered
    once, died with the worker, and the sweep stopped, saying it had lost the
    scheduler."""
    head = ["sweep", "db2_io"]
    if drawing == "scenario file":
        path = tmp_path / "db2.zpl.json"
        scenario_io.save(scenario_io.load_case("db2_io"), str(path))
        head = ["sweep", "--scenario", str(path)]
    out = tmp_path / "s.csv"
    victim = one_worker.workers[0]

    class KillAndReplace(cli.Progress):
        def __call__(self, fraction):
            super().__call__(fraction)
            if round(fraction * 6) >= 1 and victim.poll() is None:
                victim.kill()
                one_worker.workers.append(_worker(one_worker.address))
    monkeypatch.setattr(sweep_cli, "Progress", KillAndReplace)
    code = cli.main([*head, "--over", "pages=1,2,3,4,5,6", "--dask", one_worker.address,
                     "--csv", str(out)])
    _no_trace(capsys.readouterr().err)
    assert code == 0
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4", "5", "6"]
    assert victim.poll() is not None and len(one_worker.workers) == 2


@pytest.mark.parametrize("status, reason, said", [
    ("connecting", "scheduler-connection-lost", "lost the Dask scheduler at tcp://s:8786"),
    ("running", "unknown", "the Dask scheduler at tcp://s:8786 cancelled a point (unknown)"),
])
def test_a_cancelled_point_is_blamed_on_the_scheduler_only_when_it_is_gone(status, reason,
                                                                           said):
    from distributed.client import FutureCancelledError

    class Client:
        pass
    client = Client()
    client.status = status
    assert sweep._cancelled_why(client, "tcp://s:8786",
                                FutureCancelledError("point-1", reason)) == said


def test_a_web_server_is_not_a_scheduler(tmp_path, capsys):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"tcp://127.0.0.1:{server.server_address[1]}"
        start = time.monotonic()
        code = cli.main([*GRID, "--dask", address, "--csv", str(tmp_path / "s.csv")])
        took = time.monotonic() - start
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err[-1] == (f"zperflab: error: {address} is not a Dask scheduler (it did not greet "
                       "as one within 5 s); the scheduler's port is usually 8786")
    assert took < 30
    assert not (tmp_path / "s.csv").exists()


def test_an_address_nobody_listens_on_is_one_line(tmp_path, capfd):
    address = f"tcp://127.0.0.1:{_free_port()}"
    assert cli.main([*GRID, "--dask", address, "--csv", str(tmp_path / "s.csv")]) == 2
    gc.collect()                        # a half-made Dask client printed a trace here
    err = capfd.readouterr().err.strip().splitlines()
    assert err[-1] == f"zperflab: error: cannot reach the Dask scheduler at {address}: " \
                      "Connection refused"
    _no_trace("\n".join(err))
    assert not (tmp_path / "s.csv").exists()


@pytest.mark.parametrize("argv, message", [
    (["--dask", ""], "--dask needs the scheduler's address"),
    (["--dask", "  "], "--dask needs the scheduler's address"),
    (["--csv", "{tmp}"], "is a folder, not a regular file"),
    (["--csv", "{tmp}/no/such/folder/s.csv"], "no folder"),
])
def test_bad_output_or_address_is_refused_before_any_work(tmp_path, capsys, monkeypatch,
                                                          argv, message):
    def never(*a, **k):
        raise AssertionError("the sweep ran")
    monkeypatch.setattr(sweep_cli, "_run", never)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert cli.main([*GRID, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def _group(pgid: int) -> list[int]:
    """Live processes in process group ``pgid`` (zombies excluded)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry))
    return found


#: 64 × 2 × 3 × 2 × 2 = 1,536 points: a sweep a quiet machine cannot finish
#: before the first checkpoint (5 s), so SIGTERM always finds it running (144
#: points took 6.5 s on 2 cores once the I/O model was compiled; 576 points
#: finished within 5 s on a quiet machine once writes were destaged by stripe).
LONG_PAGES = 64
LONG_GRID = ["sweep", "db2_io", "--over", "pages=[" + ",".join(map(str, range(1, LONG_PAGES + 1)))
             + "]", "--over", "protocol=FICON,zHPF", "--over", "device=HDD10K,HDD15K,SSD",
             "--over", "layout=contiguous,discontiguous", "--over", "channel=FEx8,FEx8S"]
LONG_POINTS = LONG_PAGES * 2 * 3 * 2 * 2


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
def test_sigterm_writes_what_finished_and_leaves_no_process(tmp_path):
    out = tmp_path / "s.csv"
    proc = subprocess.Popen([sys.executable, "-m", "app", *LONG_GRID, "--workers", "2",
                             "--csv", str(out)], env=ENV, cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)               # the first checkpoint: some points finished
        assert proc.poll() is None, "the sweep ended before it could be stopped"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == sweep_cli.EXIT_TERMINATED, err
    _no_trace(err)
    rows, mark = _partial(out)
    assert rows and mark == f"# PARTIAL SWEEP: {len(rows)} of {LONG_POINTS} points finished; " \
                            "stopped by SIGTERM"
    deadline = time.monotonic() + 10
    while _group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _group(proc.pid) == [], "pool or resource-tracker processes outlived the sweep"


def _failing_run(error, finished: int):
    def run(args, spec, points, progress, cancel, out):
        for n in range(finished):
            out[n] = {"io_ms": 1.0 + n}
        raise error
    return run


@pytest.mark.parametrize("error, status, why", [
    (ParamError("bad value for 'pages': 99"), 2, "a point failed"),
    (RuntimeError("a model bug"), 70, "an internal error stopped it"),
])
def test_a_failing_point_still_writes_what_finished(tmp_path, capsys, monkeypatch,
                                                    error, status, why):
    monkeypatch.setattr(sweep_cli, "_run", _failing_run(error, 2))
    out = tmp_path / "s.csv"
    assert cli.main([*GRID, "--csv", str(out)]) == status
    rows, mark = _partial(out)
    assert [r[0] for r in rows] == ["1", "2"]
    assert mark == f"# PARTIAL SWEEP: 2 of 24 points finished; {why}"
    assert f"{why}: wrote the 2 of 24 points that finished" in capsys.readouterr().err


def test_a_sweep_failing_before_any_point_leaves_the_old_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sweep_cli, "_run", _failing_run(ParamError("bad value"), 0))
    out = tmp_path / "s.csv"
    out.write_text("last week's sweep\n")
    assert cli.main([*GRID, "--csv", str(out)]) == 2
    assert out.read_text() == "last week's sweep\n"
