"""Calibration to RMF (issue 41, part 2): the busy of work the drawing lacks on
each channel group, fitted on the model's own run, saved with the figure that
set it, run as a background on the channel, refused when unphysical."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from models.drawing import variants
from models.experiments import run_experiment
from models.io.channel import CHANNEL_4K_IOPS
from models.io.paths import ChannelPath
from models.rmf import read_reports
from models.rmf import calibrate as cal
from models.rmf.drawing import build
from models.rmf.measured import table

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "tests" / "data" / "rmf" / "sysa-0900-full.txt"
DDS = ROOT.parent / "shared" / "rmf" / "dds-zos25"      # beside the checkout, as CI has it


def _app(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(ROOT),
                                                       "QT_QPA_PLATFORM": "offscreen",
                                                       "PATH": "/usr/bin:/bin"})


def _within(model: float, measured: float) -> bool:
    """Issue 41's tolerance for a utilisation: 10 % or 1 point."""
    return abs(model - measured) <= max(1.0, 0.1 * measured)


def test_a_background_takes_the_channel_its_share_and_delays_the_io_behind_it():
    p = ChannelPath("40", "zHPF", "FEx8S")
    p.set_background(0.25)
    item = 1 / CHANNEL_4K_IOPS["zHPF", "FEx8S"]
    first = 2 * item                      # items every 4 items' time, from half a period
    start, _ = p.book(first + item / 2, 3, 4096)
    assert start == pytest.approx(first + item)     # waited for the item in progress
    p.background(10.0)
    assert p.total_utilisation(10.0) == pytest.approx(0.25, abs=0.001)
    assert p.utilisation(10.0) < 0.001              # its own work is the drawn I/O's only


def test_import_rmf_calibrate_adds_other_systems_work_and_leaves_this_lpars_gap_in_view(
        tmp_path):
    out = tmp_path / "sysa.zpl.json"
    done = _app("import-rmf", str(SAMPLE), "--out", str(out), "--calibrate")
    assert done.returncode == 0, done.stderr
    saved = json.loads(out.read_text())["imported"]["calibrated"]
    assert f"Calibrated ({len(saved)}):" in done.stdout
    assert {e["component"] for e in saved} == {"zHPF CHPIDs", "FICON CHPIDs", "SGDB2", "SGTSO"}
    for e in saved:
        if e["quantity"] != "background_pct":
            continue
        assert e["quantity"] == "background_pct" and e["unit"] == "%"
        assert "RMF's total utilisation" in e["from"] and "this LPAR's" in e["from"]
    ran = _app("run", "--scenario", str(out), "--json", "--seed", "1")
    assert ran.returncode == 0, ran.stderr
    res = json.loads(ran.stdout)
    for label in ("zHPF CHPIDs", "FICON CHPIDs"):
        rmf, model = res["measured"][label], res["components"][label]
        others = rmf["total_utilization_pct"] - rmf["utilization_pct"]
        # the background is other systems' share as RMF gives it ...
        assert model["total_utilization_pct"] - model["utilization_pct"] == \
            pytest.approx(others, abs=0.3), label
        # ... and not a fit on the total: the model's own LPAR busy is its own
        # (0.37 % against RMF's 12.22 % on zHPF), so the total stays apart too
    zhpf_rmf, zhpf = res["measured"]["zHPF CHPIDs"], res["components"]["zHPF CHPIDs"]
    assert zhpf["utilization_pct"] < 0.5 * zhpf_rmf["utilization_pct"]
    assert not _within(zhpf["total_utilization_pct"], zhpf_rmf["total_utilization_pct"])


def test_calibrate_on_a_file_imported_from_the_real_recording(tmp_path):
    out = tmp_path / "dds.zpl.json"
    files = [str(DDS / f) for f in ("device.xml", "cache.xml", "chan.xml", "cpu.xml")]
    assert _app("import-rmf", *files, "--join", "--out", str(out)).returncode == 0
    assert "calibrated" not in json.loads(out.read_text())["imported"]
    done = _app("calibrate", str(out))
    assert done.returncode == 0, done.stderr
    res = json.loads(_app("run", "--scenario", str(out), "--json", "--seed", "1").stdout)
    rmf = res["measured"]["FICON CHPIDs"]["total_utilization_pct"]       # 0.21 %
    assert _within(res["components"]["FICON CHPIDs"]["total_utilization_pct"], rmf)


@pytest.fixture(scope="module")
def drawing():
    return build(read_reports([str(SAMPLE)]), run_s=0.5)


def test_an_unphysical_value_is_refused_and_its_figure_says_why(drawing):
    import copy
    sc = copy.deepcopy(drawing)
    # RMF's total below what the model's own I/O already takes: negative busy
    sc.imported["measured"]["FICON CHPIDs"]["total_utilization_pct"] = 0.05
    done = {e["component"]: e for e in cal.calibrate(sc, run_experiment)
            if e["quantity"] == "background_pct"}
    assert "below 0" in done["FICON CHPIDs"]["refused"]
    ficon = next(n for n in sc.nodes.values() if n.label == "FICON CHPIDs")
    assert "background_pct" not in ficon.properties          # not used
    assert not done["zHPF CHPIDs"].get("refused")
    res = run_experiment("custom", {}, seed=1, scenario=sc)
    rows = {(r[0], r[1]): r for r in table(sc.imported, res).rows}
    row = rows["FICON CHPIDs", "total utilisation % (every system)"]
    assert row[5].startswith("calibration refused: it would be -")


def test_a_file_whose_calibrated_value_is_over_100_pct_keeps_it_flagged(drawing):
    imported = {"calibrated": [{"component": "zHPF CHPIDs", "quantity": "background_pct",
                                "value": 130.0, "unit": "%", "from": "edited by hand"}]}
    (e,) = cal.entries(imported)
    assert e["refused"] == "it would be 130 %, above 99 %"
    assert cal.refusals(imported) == {("zHPF CHPIDs", "total_utilization_pct"):
                                      "calibration refused: it would be 130 %, above 99 %"}


def test_a_calibrated_file_keeps_the_list_through_load_and_a_what_if(drawing, tmp_path):
    import copy

    from app import scenario_io
    sc = copy.deepcopy(drawing)
    cal.calibrate(sc, run_experiment)
    path = tmp_path / "c.zpl.json"
    scenario_io.save(sc, str(path))
    back = scenario_io.load(str(path))
    assert back.imported["calibrated"] == sc.imported["calibrated"]
    zhpf = next(n for n in back.nodes.values() if n.label == "zHPF CHPIDs")
    value = zhpf.properties["background_pct"]
    variants.change(back, zhpf.id, "protocol", "FICON")
    assert back.nodes[zhpf.id].properties["background_pct"] == value
    assert back.imported["calibrated"] == sc.imported["calibrated"]


def test_a_calibrated_list_without_its_source_is_refused_on_load(drawing, tmp_path):
    import copy

    from app import scenario_io
    sc = copy.deepcopy(drawing)
    sc.imported["calibrated"] = [{"component": "zHPF CHPIDs", "quantity": "background_pct",
                                  "value": 3.0, "unit": "%"}]
    path = tmp_path / "bad.zpl.json"
    scenario_io.save(sc, str(path))
    with pytest.raises(scenario_io.ScenarioFileError, match="'calibrated'"):
        scenario_io.load(str(path))


def test_calibrating_a_drawing_that_was_not_imported_is_one_line(tmp_path):
    done = _app("calibrate", str(ROOT / "resources" / "scenarios" / "custom.json"),
                "--out", str(tmp_path / "x.json"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no RMF measurements" in done.stderr


def test_a_drawing_with_nothing_to_run_is_not_calibrated_and_nothing_is_written(tmp_path):
    out = tmp_path / "chan.zpl.json"
    done = _app("import-rmf", str(DDS / "chan.xml"), "--out", str(out), "--calibrate")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    # Which report is missing, not the window's "drag one from the palette".
    assert "no run of the drawing to fit on: the import drew no workload, as its reports " \
           "have no Direct Access Device Activity; import a DEVICE report with it" in done.stderr
    assert "palette" not in done.stderr and done.stderr.count("\n") == 1
    assert not out.exists()


def test_calibrate_brings_each_storage_group_conn_to_rmf(tmp_path):
    """The connect overhead per I/O: CONN within issue 41's 30 % (or 0.03 ms)."""
    out = tmp_path / "sysa.zpl.json"
    assert _app("import-rmf", str(SAMPLE), "--out", str(out), "--calibrate").returncode == 0
    saved = [e for e in json.loads(out.read_text())["imported"]["calibrated"]
             if e["quantity"] == "conn_overhead_ms"]
    assert {e["component"] for e in saved} == {"SGDB2", "SGTSO"}
    for e in saved:
        assert e["unit"] == "ms" and "RMF's CONN" in e["from"] and not e.get("refused")
    res = json.loads(_app("run", "--scenario", str(out), "--json", "--seed", "1").stdout)
    for label in ("SGDB2", "SGTSO"):
        rmf, model = res["measured"][label]["conn_ms"], res["components"][label]["conn_ms"]
        assert abs(model - rmf) <= max(0.03, 0.3 * rmf), (label, model, rmf)


def test_a_group_whose_model_conn_is_already_longer_is_refused(drawing):
    import copy
    sc = copy.deepcopy(drawing)
    sc.imported["measured"]["SGTSO"]["conn_ms"] = 0.001     # below any channel program
    done = {(e["component"], e["quantity"]): e for e in cal.calibrate(sc, run_experiment)}
    assert done["SGTSO", "conn_overhead_ms"]["refused"].startswith("it would be -")
    sgtso = next(n for n in sc.nodes.values() if n.label == "SGTSO")
    assert "conn_overhead_ms" not in sgtso.properties
    assert sc.nodes[next(n.id for n in sc.nodes.values() if n.label == "SGDB2")] \
        .properties["conn_overhead_ms"] > 0


def _checked(path):
    from app import scenario_io
    from models.rmf import tolerance
    sc = scenario_io.load(str(path))
    res = run_experiment(sc.experiment, {}, seed=1, scenario=sc)
    return {(c.label, c.key): c for c in tolerance.checks(sc.imported, res)}


def test_calibration_brings_the_sample_s_times_and_busy_within_tolerance(tmp_path):
    bare, done = tmp_path / "bare.zpl.json", tmp_path / "cal.zpl.json"
    assert _app("import-rmf", str(SAMPLE), "--out", str(bare)).returncode == 0
    assert _app("import-rmf", str(SAMPLE), "--out", str(done), "--calibrate").returncode == 0
    before, after = _checked(bare), _checked(done)
    # SGTSO answered in 0.25 ms against RMF's 1.14: its PEND, DISC (remote
    # copy of its writes), CONN and response are now within issue 41's bands
    for key in ("resp_ms", "pend_ms", "disc_ms", "conn_ms", "busy_pct"):
        assert after["SGTSO", key].ok, after["SGTSO", key]
    assert not before["SGTSO", "resp_ms"].ok and not before["SGTSO", "disc_ms"].ok
    assert sum(c.ok for c in after.values()) >= sum(c.ok for c in before.values()) + 6
    # SGDB2's DISC stays the model's own (its stages are slower than RMF's):
    # no remote copy to add, refused with that reason, the figure still out
    saved = json.loads(done.read_text())["imported"]["calibrated"]
    (wd,) = [e for e in saved if (e["component"], e["quantity"]) == ("SGDB2", "write_disc_ms")]
    assert "is above RMF's" in wd["refused"] and not after["SGDB2", "disc_ms"].ok


def test_calibrated_real_recording_reproduces_most_of_its_figures(tmp_path):
    """The real z/OS 2.5 device and cache answers: 92 % of the figures within
    tolerance after calibration (issue 41 asks 90 %); docs/rmf-drawing.md lists
    the rest."""
    out = tmp_path / "dds.zpl.json"
    files = [str(DDS / f) for f in ("device.xml", "cache.xml")]
    assert _app("import-rmf", *files, "--out", str(out), "--calibrate").returncode == 0
    checks = _checked(out)
    share = sum(c.ok for c in checks.values()) / len(checks)
    assert share >= 0.90, share
    # the shared units' cache figures count other systems' reads, drawn beside ours
    assert checks["SSID 5000", "read_rate"].ok and checks["SSID 5001", "read_rate"].ok
    # the reserve of Z22IPL (16.7 %) is counted in its group's busy, per exposure
    saved = json.loads(out.read_text())["imported"]["calibrated"]
    assert any(e["quantity"] == "reserved_pct" and e["component"] == "SSID 5001 volumes"
               for e in saved)
    assert checks["SSID 5001 volumes", "busy_pct"].ok


def test_a_run_too_short_for_disc_fits_no_remote_copy(drawing):
    """Half a second of SGTSO is 24 I/Os: its DISC is a handful of misses, so no
    remote copy is fitted to it (it said 2.6 ms at 0.1 s, 1.66 at 42 s)."""
    import copy
    sc = copy.deepcopy(drawing)
    done = {(e["component"], e["quantity"]): e for e in cal.calibrate(sc, run_experiment)}
    wd = done["SGTSO", "write_disc_ms"]
    assert "too few to fit on" in wd["refused"] and "Run length" in wd["refused"]
    sgtso = next(n for n in sc.nodes.values() if n.label == "SGTSO")
    assert "write_disc_ms" not in sgtso.properties
    assert not done["SGTSO", "start_ms"].get("refused")     # PEND is the same every I/O
