"""``zperflab sweep``: the cross product on the local pool, titled CSV, JSON
with intervals, a scenario file, one-line refusals, and Ctrl-C keeping the
points that finished."""
import csv
import json
import threading

import pytest

from app import cli, scenario_io, sweep_cli
from app.sweep import SweepCancelled, run_points
from models import experiments
from models.core.run import RunContext, RunResult


def test_sweep_writes_the_cross_product_with_titled_columns(tmp_path, capsys):
    out = tmp_path / "db2.csv"
    assert cli.main(["sweep", "db2_io", "--over", "pages=1,8,32", "--over", "protocol=FICON,zHPF",
                     "--workers", "2", "--csv", str(out)]) == 0
    err = capsys.readouterr().err
    assert "6 points × 1 seed(s)" in err and "6 points (6 runs)" in err
    rows = list(csv.reader(out.open()))
    head, body = rows[0], rows[1:]
    assert head[:3] == ["Pages per I/O", "Channel protocol", "I/O response time (ms)"]
    assert "CONN time (ms)" in head
    assert [r[:2] for r in body] == [[p, proto] for p in ("1", "8", "32")
                                     for proto in ("FICON", "zHPF")]
    # The same numbers as a single run of that point.
    direct = experiments.run_experiment("db2_io", {"pages": 32, "protocol": "zHPF"})
    assert float(body[-1][2]) == pytest.approx(direct.metrics["io_ms"], rel=1e-9)  # 10 digits
    io = {(r[0], r[1]): float(r[2]) for r in body}
    assert io[("32", "zHPF")] < io[("32", "FICON")]


def test_sweep_json_with_replications_and_a_scenario_file(tmp_path, capsys):
    path = tmp_path / "fetch.zpl.json"
    scenario_io.save(scenario_io.load_case("program_fetch"), str(path))
    assert cli.main(["sweep", "--scenario", str(path), "--over", "device=HDD15K,SSD",
                     "--replications", "3", "--seed", "5", "--json", "--workers", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["experiment"] == "program_fetch" and data["seeds"] == [5, 6, 7]
    assert data["complete"] and data["finished"] == data["total"] == 2
    ssd = data["points"][1]
    assert ssd["params"] == {"device": "SSD"}
    lo, hi = ssd["ci95"]["elapsed_s"]
    assert lo <= ssd["metrics"]["elapsed_s"] <= hi
    assert data["metric_info"]["elapsed_s"] == {"title": "Elapsed time",
                                               "unit": "s"}
    # run --replications gives the same point the same numbers.
    assert cli.main(["run", "--scenario", str(path), "--set", "device=SSD", "--replications",
                     "3", "--seed", "5", "--json"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert single["metrics"]["elapsed_s"] == ssd["metrics"]["elapsed_s"]
    assert single["ci95"]["elapsed_s"] == ssd["ci95"]["elapsed_s"]


@pytest.mark.parametrize("argv, said", [
    (["--over", "pages=1,abc"], "bad value for 'pages': abc"),
    (["--over", "pages=0"], "bad value for 'pages'"),
    (["--over", "nope=1,2"], "unknown parameter 'nope'"),
    (["--over", "pages"], "--over needs KEY=V1,V2"),
    (["--over", "pages="], "--over pages has no values"),
    (["--over", "pages=1", "--over", "pages=2"], "given twice"),
    (["--over", "pages=1", "--set", "pages=2"], "also given with --set"),
    (["--over", "device=FLOPPY"], "bad value for 'device'"),
    (["--over", "pages=1", "--replications", "1"], "--replications: must be a whole number 2"),
    (["--over", "pages=1", "--workers", "0"], "--workers: must be a whole number"),
    (["--over", "pages=1", "--csv", "/no/such/folder/x.csv"], "no folder"),
])
def test_bad_sweeps_are_one_line_and_status_2(argv, said, capsys):
    try:
        code = cli.main(["sweep", "db2_io", *argv])
    except SystemExit as exc:           # argparse's refusals
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert said in err and len(err.strip().splitlines()) == 1, err


def test_values_with_commas_go_as_a_json_list():
    axes = sweep_cli.parse_over(['mix=[{"read": 50, "update": 50}, {"read": 100}]'], {})
    assert axes == (("mix", ({"read": 50, "update": 50}, {"read": 100})),)


def quick_or_stuck(name, overrides, seed=1, cancel=None, **_kw):
    """Points with ``stuck`` run until the sweep is cancelled; the rest finish at once."""
    ctx = RunContext(seed, cancel=cancel)
    while overrides.get("stuck"):
        ctx.progress(0.5)
    return RunResult(name, overrides, seed, {"y": float(overrides["x"] * 10 + seed)})


def test_cancel_keeps_the_points_that_finished():
    points = [({"x": 1}, 1), ({"x": 2, "stuck": True}, 1), ({"x": 3}, 1)]
    cancel = threading.Event()
    seen = []

    def progress(done, total):
        seen.append(done)
        if done == 2:
            cancel.set()
    with pytest.raises(SweepCancelled) as stop:
        run_points("tests.app.test_sweep_cli:quick_or_stuck", "toy", points, workers=2,
                   progress=progress, cancel=cancel)
    assert stop.value.partial == [{"y": 11.0}, None, {"y": 31.0}]


def test_ctrl_c_writes_the_finished_points_and_says_so(tmp_path, capsys, monkeypatch):
    def interrupted(args, spec, points, progress, cancel, out):
        partial = [None] * len(points)
        partial[0] = {"io_ms": 1.5}             # the first point finished
        raise SweepCancelled("sweep cancelled", partial)
    monkeypatch.setattr(sweep_cli, "_run", interrupted)
    out = tmp_path / "part.csv"
    code = cli.main(["sweep", "db2_io", "--over", "pages=1,8", "--csv", str(out)])
    assert code == cli.EXIT_INTERRUPTED
    assert "wrote the 1 of 2 points that finished to" in capsys.readouterr().err
    rows = list(csv.reader(out.open()))
    assert rows == [["Pages per I/O", "I/O response time (ms)"], ["1", "1.5"],
                    ["# PARTIAL SWEEP: 1 of 2 points finished; cancelled (Ctrl-C)"]]
