"""``zperflab import-rmf --dds``: Monitor III's current minute from a DDS,
the ``--timeout`` it takes, and SIGTERM while an answer streams in. Each
server runs on 127.0.0.1 and each test is bounded in time."""
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[2]
DDS = ROOT.parent / "shared" / "rmf" / "dds-zos25"
if not DDS.is_dir():                             # the worktree's sibling, or /work/shared
    DDS = Path("/work/shared/rmf/dds-zos25")
#: Monitor III answers by report: the real CHANNEL and CPC recordings, and our
#: sample DEVR (the real one has no rows; tests/data/rmf/m3-devr-sample.xml).
M3 = {"CHANNEL": DDS / "m3-channel.xml", "CPC": DDS / "m3-cpc.xml",
      "DEVR": ROOT / "tests" / "data" / "rmf" / "m3-devr-sample.xml"}


class _DDS(http.server.BaseHTTPRequestHandler):
    seen: list = []
    drip = False

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        type(self).seen.append((url.path, query))
        if type(self).drip:                      # an answer that never ends
            self.send_response(200)
            self.end_headers()
            end = time.monotonic() + 20
            try:
                while time.monotonic() < end:
                    self.wfile.write(b"<ddsml>" + b" " * 65536)
                    time.sleep(0.05)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        body = M3[query["report"][0]].read_bytes()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def dds_server():
    _DDS.seen, _DDS.drip = [], False
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _DDS)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_monitor_iii_current_minute_imports_and_runs(dds_server, tmp_path, capsys):
    out = tmp_path / "now.zpl.json"
    assert main(["import-rmf", "--dds", dds_server, "--system", "RPRT", "--out", str(out),
                 "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert [(p, q["report"], q["resource"]) for p, q in _DDS.seen] == [
        ("/gpm/rmfm3.xml", [r], [",RPRT,MVS_IMAGE"]) for r in ("DEVR", "CHANNEL", "CPC")]
    assert said["counts"] == {"volumes": 6, "cache_units": 0, "channels": 13, "engines": 2,
                              "ranks": 0}
    # the three answers are of different ranges: one interval, and it says so
    assert len(said["intervals"]) == 1
    assert any("joined to the range of 2022-08-24 05:15:00" in a for a in said["assumptions"])
    capsys.readouterr()
    assert main(["run", "--scenario", str(out), "--json", "--seed", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["metrics"]["io_rate"] > 0


def test_dds_needs_a_date_or_a_system_not_both(tmp_path, capsys):
    out = tmp_path / "x.zpl.json"
    for extra in ([], ["--date", "20220823", "--system", "RPRT"]):
        assert main(["import-rmf", "--dds", "http://127.0.0.1:9", *extra,
                     "--out", str(out)]) == 2
        assert "--system NAME (Monitor III's current minute)" in capsys.readouterr().err
    assert main(["import-rmf", "--dds", "http://127.0.0.1:9", "--system", "NOT/ONE",
                 "--out", str(out)]) == 2
    assert "must be an MVS system name" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["inf", "0", "-1", "nan"])
def test_a_timeout_that_is_no_deadline_gets_one_line(tmp_path, capsys, value):
    with pytest.raises(SystemExit) as stop:
        main(["import-rmf", "--dds", "http://127.0.0.1:9", "--date", "20220823",
              f"--timeout={value}", "--out", str(tmp_path / "x.zpl.json")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--timeout" in err and "Traceback" not in err


def test_sigterm_removes_the_temporary_folder_as_ctrl_c_does(dds_server, tmp_path):
    """An endless answer streams into the temporary folder; SIGTERM stops the
    import with one line, and the folder is gone."""
    _DDS.drip = True
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "app", "import-rmf", "--dds", dds_server,
                             "--date", "20220823", "--timeout", "60", "--out",
                             str(tmp_path / "x.zpl.json")], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 30
        while not any(p.stat().st_size for p in tmp.glob("zperflab-dds-*/*")):
            assert time.monotonic() < end and proc.poll() is None, "no answer streamed in"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143
    assert err.decode().strip() == "zperflab: import-rmf stopped by SIGTERM: nothing written"
    assert list(tmp.iterdir()) == [] and not (tmp_path / "x.zpl.json").exists()
