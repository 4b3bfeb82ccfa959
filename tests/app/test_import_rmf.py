"""``zperflab import-rmf``: reports in, a scenario file out, runnable with what-ifs.

The three REDP-4862 excerpts import, and ``run --scenario FILE --json``
shows under "measured" exactly the figures the paper prints; the full
sample imports with ``--json`` saying what was read; bad input writes
nothing.
"""
import base64
import http.server
import json
import threading
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "rmf"
if not SHARED.is_dir():                          # the worktree's sibling, or /work/shared
    SHARED = Path("/work/shared/rmf")
SAMPLE = ROOT / "tests" / "data" / "rmf" / "sysa-0900-full.txt"
XML = SAMPLE.with_suffix(".xml")

#: The published figures of each excerpt (REDP-4862 figs. 6, 9, 14), as printed.
PUBLISHED = {
    "redp4862-fig06-skip17-ficon.txt": {
        "read_rate": 1066.0, "seq_read_rate": 0.0, "read_hit_ratio": 0.001,
        "staged_tracks_rate": 1067.0, "seq_staged_tracks_rate": 0.0,
        "read_bytes_per_req": 4100.0, "disk_read_bytes_per_req": 55200.0,
        "read_count": 457329.0, "read_hits": 597.0, "seq_read_count": 0.0,
        "seq_read_hits": 0.0, "read_miss_rate": 1065.0, "write_miss_rate": 0.0,
        "disk_read_resp_ms": 1.463},
    "redp4862-fig09-runstats50-ficon.txt": {
        "read_rate": 3629.0, "seq_read_rate": 455.3, "read_hit_ratio": 0.746,
        "seq_read_hit_ratio": 0.991, "staged_tracks_rate": 1179.0,
        "seq_staged_tracks_rate": 142.3, "read_bytes_per_req": 8000.0,
        "disk_read_bytes_per_req": 55300.0, "read_count": 1832000.0, "read_hits": 1366000.0,
        "seq_read_count": 229902.0, "seq_read_hits": 227853.0, "read_miss_rate": 923.2,
        "write_miss_rate": 0.0, "disk_read_resp_ms": 0.952},
    "redp4862-fig14-index12-ficon.txt": {
        "read_rate": 717.5, "seq_read_rate": 0.0, "read_hit_ratio": 0.469,
        "staged_tracks_rate": 381.9, "seq_staged_tracks_rate": 0.0,
        "read_bytes_per_req": 4100.0, "disk_read_bytes_per_req": 55300.0,
        "read_count": 42333.0, "read_hits": 19847.0, "seq_read_count": 0.0,
        "seq_read_hits": 0.0, "read_miss_rate": 381.1, "write_miss_rate": 0.0,
        "disk_read_resp_ms": 4.706},
}
#: Short runs on a small cache: only the measured figures are checked here.
QUICK = ["--set", "duration_s=0.1", "--set", "cache_gb=0.1"]


def _run_json(capsys, *argv) -> dict:
    capsys.readouterr()
    assert main(["run", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_an_excerpt_runs_with_the_published_figures_measured(tmp_path, capsys, name):
    out = tmp_path / "excerpt.zpl.json"
    assert main(["import-rmf", str(SHARED / name), "--out", str(out)]) == 0
    data = _run_json(capsys, "--scenario", str(out), *QUICK)
    assert data["measured"] == {"Control unit": PUBLISHED[name]}
    assert data["components"]["Control unit"]["read_rate"] > 0     # the model's, beside


def test_json_says_what_was_read_and_assumed(tmp_path, capsys):
    out = tmp_path / "sysa.zpl.json"
    assert main(["import-rmf", str(SAMPLE), "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["counts"] == {"volumes": 6, "cache_units": 2, "channels": 5, "engines": 6,
                              "ranks": 2}
    assert data["intervals"][0]["reports"] == ["CACHE", "CHAN", "CPU", "DEVICE", "ESS"]
    assert any(a.startswith("which CHPIDs reach which control unit") and
               f"{SAMPLE}:" in a for a in data["assumptions"])
    assert data["drawn"]["Storage group on HDD 15K"] == 2
    assert json.loads(out.read_text())["imported"]["interval"]["system"] == "SYSA"


def test_a_what_if_runs_from_the_imported_drawing(tmp_path, capsys):
    out = tmp_path / "sysa.zpl.json"
    assert main(["import-rmf", str(SAMPLE), "--out", str(out)]) == 0
    base = _run_json(capsys, "--scenario", str(out), *QUICK)
    ssd = _run_json(capsys, "--scenario", str(out), *QUICK, "--set", "device=SSD")
    assert ssd["measured"] == base["measured"]                      # the baseline travels
    assert ssd["components"]["SGDB2"]["disc_ms"] < base["components"]["SGDB2"]["disc_ms"]
    assert ssd["components"]["SGDB2"]["io_rate"] > 0


def test_bad_input_writes_nothing_and_keeps_the_old_file(tmp_path, capsys):
    out = tmp_path / "sysa.zpl.json"
    bad = tmp_path / "other.txt"
    bad.write_text("just some text\nthat is no RMF report\n")
    assert main(["import-rmf", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and err.count("\n") == 1
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]
    out.write_text("old")
    assert main(["import-rmf", str(bad), "--out", str(out)]) == 2
    assert out.read_text() == "old"


class _DDS(http.server.BaseHTTPRequestHandler):
    """A DDS serving the sample's XML to SYSPROG with the right password."""

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        good = "Basic " + base64.b64encode(b"SYSPROG:s3cret").decode()
        if self.headers.get("Authorization") != good:
            body, code, ctype = b"<html><title>401</title></html>", 401, "text/html"
        else:
            body, code, ctype = XML.read_bytes(), 200, "application/xml"
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def dds_server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _DDS)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_straight_from_a_dds_the_password_from_the_environment(dds_server, tmp_path, capsys,
                                                               monkeypatch):
    out = tmp_path / "dds.zpl.json"
    monkeypatch.setenv("ZPERFLAB_DDS_PASSWORD", "wrong")
    assert main(["import-rmf", "--dds", dds_server, "--date", "20261125", "--user", "SYSPROG",
                 "--out", str(out)]) == 2
    assert "401" in capsys.readouterr().err and not out.exists()
    monkeypatch.setenv("ZPERFLAB_DDS_PASSWORD", "s3cret")
    assert main(["import-rmf", "--dds", dds_server, "--date", "20261125", "--user", "SYSPROG",
                 "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert {n["label"] for n in doc["nodes"]} >= {"SGDB2", "SSID 0006", "zHPF CHPIDs"}


def test_refine_checks_the_fit_on_the_models_own_runs_and_says_so(tmp_path, capsys):
    """--refine: the fit is checked on the model's own runs (its working set
    moved if they miss the measured ratio); the drawing then runs at the
    measured read hit ratio, and the file says what the runs gave."""
    name = "redp4862-fig09-runstats50-ficon.txt"
    plain, refined = tmp_path / "plain.zpl.json", tmp_path / "refined.zpl.json"
    assert main(["import-rmf", str(SHARED / name), "--out", str(plain)]) == 0
    assert main(["import-rmf", str(SHARED / name), "--out", str(refined), "--refine", "2"]) == 0
    said = [a for a in json.loads(refined.read_text())["imported"]["assumptions"]
            if a["what"].startswith("working set of")]
    assert said and "model's own 2 s runs" in said[0]["why"]
    measured = (2705 + 451.2) / (3629 + 455.3)      # the report's read hits, normal and sequential
    hits = _run_json(capsys, "--scenario", str(refined))["components"]["Control unit"]
    assert abs(hits["req_read_hit_ratio"] - measured) <= 0.03
    with pytest.raises(SystemExit) as stop:                    # argparse: out of range
        main(["import-rmf", str(SHARED / name), "--out", str(tmp_path / "x.json"), "--refine", "0"])
    assert stop.value.code == 2 and "out of range" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


# ---- the real answers of a z/OS 2.5 DDS (../shared/rmf/dds-zos25, its README) ----------
DDS = SHARED / "dds-zos25"
FOUR = [str(DDS / f"{n}.xml") for n in ("device", "cache", "chan", "cpu")]


def _import_json(capsys, tmp_path, *argv) -> tuple[dict, dict]:
    out = tmp_path / "real.zpl.json"
    capsys.readouterr()
    assert main(["import-rmf", *argv, "--out", str(out), "--json"]) == 0
    return json.loads(capsys.readouterr().out), json.loads(out.read_text())["imported"]


@pytest.mark.parametrize("name, kind, card, member, figures", [
    ("device", "DEVICE", "LCU 000F", None, {"lcu_io_rate": 2.469, "lcu_resp_ms": 0.621}),
    ("device", "DEVICE", "LCU 000F volumes", "Z22IPL",
     {"io_rate": 1.999, "resp_ms": 0.391, "iosq_ms": 0.001, "pend_ms": 0.077, "disc_ms": 0.0,
      "conn_ms": 0.313, "busy_pct": 16.69, "pav": 3.0}),
    ("cache", "CACHE", "SSID 5000", None,
     {"read_count": 37024.0, "read_rate": 20.6, "read_hits": 36761.0, "read_hit_ratio": 0.993,
      "seq_read_count": 13092.0, "seq_read_rate": 7.3, "seq_read_hit_ratio": 1.0,
      "total_read_hit_ratio": 0.995, "pct_read": 83.9, "cache_io_rate": 33.2,
      "read_bytes_per_req": 7000.0, "cache_mb": 25152.0, "nvs_mb": 2048.0}),
    ("cache", "CACHE", "SSID 5001", None,
     {"cache_io_rate": 67.6, "read_rate": 14.6, "read_hit_ratio": 1.0, "seq_write_rate": 43.9,
      "pct_read": 23.2}),
    ("chan", "CHAN", "FICON CHPIDs", "10",
     {"total_utilization_pct": 0.21, "utilization_pct": 0.01, "ficon_rate": 28.5,
      "zhpf_rate": 2.2, "read_mb_s": 0.09}),
    ("cpu", "CPU", "CP 0", None, {"busy_pct": 1.26, "mvs_busy_pct": 1.24}),
])
def test_each_real_dds_answer_imports_alone_with_its_figures_measured(
        tmp_path, capsys, name, kind, card, member, figures):
    data, imported = _import_json(capsys, tmp_path, str(DDS / f"{name}.xml"))
    assert [line.split(" ")[0] for line in data["read"]] == [kind]
    got = imported["members"][card][member] if member else imported["measured"][card]
    assert {k: got.get(k) for k in figures} == figures


def test_the_four_answers_do_not_meet_unless_joined(tmp_path, capsys):
    data, imported = _import_json(capsys, tmp_path, *FOUR)
    assert data["chosen"] == 3 and data["counts"]["channels"] == 0
    said = " | ".join(data["assumptions"])
    assert "the CHAN report of interval 2 (2022-07-26 00:00:00) = not used" in said
    assert "the CPU report of interval 1 (2022-04-06 12:30:00) = not used" in said
    assert "CP 0" not in imported["measured"]
    assert [line.split(" of the ")[0] for line in data["read_not_used"]] == [
        "14 channels", "2 engines"]


def test_the_four_answers_joined_run_with_every_figure_measured(tmp_path, capsys):
    data, imported = _import_json(capsys, tmp_path, *FOUR, "--join")
    assert [line.split(" ")[0] for line in data["read"]] == ["DEVICE", "CACHE", "CHAN", "CPU"]
    said = " | ".join(data["assumptions"])
    assert "CHAN report = of interval 2 (2022-07-26 00:00:00) (assumed: joined" in said
    run = _run_json(capsys, "--scenario", str(tmp_path / "real.zpl.json"), "--seed", "1")
    m, members = run["measured"], run["measured_members"]
    assert members["SSID 5001 volumes"]["Z22IPL"]["io_rate"] == 1.999
    assert members["SSID 5001 volumes"]["CBTCAT"]["cache_io_rate"] == 48.7
    assert members["FICON CHPIDs"]["41"]["total_utilization_pct"] == 0.22
    assert (m["SSID 5000"]["read_hit_ratio"], m["SSID 5000"]["lcu_io_rate"]) == (0.993, 5.999)
    assert m["CP 1"] == {"busy_pct": 0.22, "mvs_busy_pct": 0.22}
    # the model beside: the cards RMF measured all ran
    for card in ("SSID 5000 volumes", "STGWORK", "SSID 5000", "FICON CHPIDs", "CP 0"):
        assert card in run["components"], card
    assert run["components"]["STGWORK"]["io_rate"] > 0


def test_the_cache_answer_alone_draws_its_units_volumes_and_runs(tmp_path, capsys):
    """Before: one unit '?' of an assumed 64 GB, and the run failed for want of
    a workload."""
    data, imported = _import_json(capsys, tmp_path, str(DDS / "cache.xml"))
    said = " | ".join(data["assumptions"])
    assert "SSID 5000 volumes = the cache report's 42 as 3390-9s" in said
    assert "volumes of SSID 5003 = not drawn" in said
    run = _run_json(capsys, "--scenario", str(tmp_path / "real.zpl.json"), "--seed", "1")
    assert run["components"]["SSID 5000 volumes"]["io_rate"] > 0
    assert run["components"]["SSID 5000 volumes"]["members"] == 42
    assert run["measured"]["SSID 5000"]["read_hit_ratio"] == 0.993


def test_the_text_output_says_the_reports_do_not_meet_and_how_to_join(tmp_path, capsys):
    assert main(["import-rmf", *FOUR, "--out", str(tmp_path / "four.zpl.json")]) == 0
    out = capsys.readouterr().out
    assert ("the CHAN, CPU report(s) of other intervals do not meet it: --join draws them "
            "anyway") in out.splitlines()[0]
    assert out.splitlines()[1] == (
        "  97 volumes, 4 cache units, 0 ranks; read and not used (of other intervals): 14 "
        "channels of the CHAN report of interval 2 (2022-07-26 00:00:00), 2 engines of the "
        "CPU report of interval 1 (2022-04-06 12:30:00)")      # was '0 channels, 0 engines'
    assert "  read: DEVICE (device.xml:18): 97 volumes" in out
