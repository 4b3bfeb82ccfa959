"""The command-line contract (shared/calibration/EXPERIMENTS.md)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from models import experiments

ROOT = Path(__file__).resolve().parents[2]
SHARED_TARGETS = ROOT.parent / "shared" / "calibration" / "targets.json"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("args,needle", [
    (["run", "no_such_experiment"], "unknown experiment 'no_such_experiment'"),
    (["run", "db2_io", "--set", "bogus=1"], "unknown parameter 'bogus'"),
    (["run", "db2_io", "--set", "pages=500"], "'pages': 500"),
    (["run", "spool_dump", "--set", "tape_drives=0"], "1–16"),
    (["run", "db2_io", "--set", "pages"], "KEY=VALUE"),
    (["validate", "--targets", "/nonexistent/targets.json"], "cannot read targets file"),
])
def test_bad_input_exits_2_with_one_line(args, needle, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err
    assert len(err.splitlines()) == 1


def test_corrupt_targets_file_is_one_clear_line(tmp_path, capsys):
    bad = tmp_path / "t.json"
    bad.write_text("{not json")
    assert main(["validate", "--targets", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_validate_json_counts_every_target_and_exits_0():
    out = run_cli("validate", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    bundled = json.loads((ROOT / "resources/calibration/targets.json").read_text())["targets"]
    assert data["total"] == len(bundled)
    assert {r["id"] for r in data["results"]} == {t["id"] for t in bundled}
    for r in data["results"]:
        assert set(r) == {"id", "model", "expected", "ok", "error"}
        if r["model"] is None:
            assert r["ok"] is False and r["error"]
    assert data["passed"] == sum(r["ok"] for r in data["results"])


def test_bundled_targets_match_shared_copy():
    if not SHARED_TARGETS.exists():
        pytest.skip("no ../shared/calibration/targets.json beside this checkout")
    bundled = json.loads((ROOT / "resources/calibration/targets.json").read_text())
    shared = json.loads(SHARED_TARGETS.read_text())
    assert bundled == shared


def test_run_json_has_params_with_defaults_metrics_and_seed():
    for name, exp in experiments.registry().items():
        if exp.run is None:
            continue
        out = run_cli("run", name, "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["experiment"] == name and isinstance(data["seed"], int)
        assert set(data["params"]) == set(exp.schema.names())
        assert {m.name for m in exp.metrics} <= set(data["metrics"])
        return
    pytest.skip("no experiment implemented yet")


def test_unimplemented_experiment_says_so_and_fails(monkeypatch, capsys):
    """A declared experiment without a model is reported, never run or passed."""
    from models.studies import calibration

    exp = experiments.get("db2_io")
    reg = experiments.registry()
    monkeypatch.setitem(reg, "db2_io", experiments.Experiment(
        exp.name, exp.title, exp.description, exp.schema, exp.metrics, None))
    assert main(["run", "db2_io"]) == 3
    assert "not implemented yet" in capsys.readouterr().err
    verdict = calibration.Evaluator().evaluate(
        {"id": "x", "experiment": "db2_io", "params": {}, "metric": "io_ms",
         "expect": {"value": 1.0, "rel_tol": 0.5}})
    assert verdict.ok is False and "not implemented yet" in verdict.error


def test_a_reader_that_stops_early_gets_no_error_line():
    """``zperflab run … | head -1``: the closed pipe is the reader's doing."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "run", "natural_ziip",
                             "--set", "records=100"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert first.startswith(b"Natural on a zIIP") and "error" not in err
