"""``zperflab run`` and ``zperflab history`` name things as the app does:
experiment, parameter and metric titles, never their keys (``--json`` keeps
the keys)."""
import json
import re

import pytest

from app import history as history_mod
from app.cli import main
from models import experiments
from models.experiments import run_experiment

#: A snake_case identifier (``io_ms``, ``db2_io``, ``read_update``).
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@pytest.mark.parametrize("args", [
    ["run", "db2_io"],
    ["run", "natural_ziip", "--set", "records=200"],
    ["run", "vsam_rls", "--set", "transactions=60", "--replications", "2"],
])
def test_run_prints_titles_not_keys(args, capsys):
    assert main(args) == 0
    out = capsys.readouterr().out
    exp = experiments.get(args[1])
    assert out.splitlines()[0].startswith(exp.title + ",")
    for m in exp.metrics:
        assert f"  {m.title}  " in out or f"  {m.title} " in out, m.title
    for p in exp.schema.params:
        assert f"  {p.title}  " in out, p.title
    assert not IDENTIFIER.search(out), IDENTIFIER.search(out)


def test_run_writes_values_as_the_inspector_does(capsys):
    assert main(["run", "vsam_rls", "--set", "transactions=60"]) == 0
    out = capsys.readouterr().out
    assert "Read 69 %, Read update 10 %" in out           # a mix, not a JSON dict
    assert re.search(r"Threadsafe programs +no\n", out)    # a switch, not False
    assert main(["run", "program_fetch", "--set", "iterations=20"]) == 0
    assert re.search(r"Module size +not set\n", capsys.readouterr().out)   # not None


def test_run_json_keeps_the_keys(capsys):
    assert main(["run", "db2_io", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["experiment"] == "db2_io" and "io_ms" in data["metrics"]


def test_history_lists_runs_by_title(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ZPERFLAB_DATA_DIR", str(tmp_path))
    hist = history_mod.History()
    hist.add(run_experiment("db2_io", {"pages": 8}))
    hist.close()
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "One DB2 I/O, seed 1: I/O response time " in out and " ms, IOSQ time " in out
    assert not IDENTIFIER.search(out), out
    assert main(["history", "--experiment", "vsam_rls"]) == 0
    assert capsys.readouterr().out == "no runs of CICS VSAM with and without RLS recorded yet\n"
    assert main(["history", "--json"]) == 0
    assert "io_ms" in json.loads(capsys.readouterr().out)[0]["metrics"]


def _head(out: str) -> dict[str, str]:
    """The parameter lines above "Metrics:", by title."""
    head = out.split("Metrics:")[0].splitlines()[1:]
    return {line[2:].split("  ")[0]: line[2:].split("  ", 1)[1].strip() for line in head}


def test_run_of_a_drawn_shop_lists_each_workloads_own_values(capsys):
    """Your own system runs each workload with the values on its card: the
    head says so by canvas label, not the first card's value as if it were
    the run's, and leaves out what no drawn workload uses."""
    assert main(["run", "--scenario", "large_shop", "--set", "duration_s=0.01"]) == 0
    head = _head(capsys.readouterr().out)
    assert head["I/O rate"] == "OLTP: 160000 I/O/s; Batch: 40000 I/O/s"
    assert head["Run length"] == "0.01 s"               # one value: both ran it
    assert head["Arrivals"] == "open"
    for unused in ("CPU demand", "zIIP eligible", "Users", "Think time"):
        assert unused not in head                       # no CPU workload; open arrivals


def test_a_set_value_reads_once_for_every_workload(capsys):
    assert main(["run", "--scenario", "large_shop", "--set", "duration_s=0.01",
                 "--set", "read_pct=50"]) == 0
    assert _head(capsys.readouterr().out)["Reads"] == "50 %"


def test_a_value_only_some_workloads_use_is_labelled_with_them(tmp_path, capsys):
    """With OLTP open and Batch closed, the I/O rate is OLTP's and the users
    are Batch's: each says whose it is."""
    from app import scenario_io

    sc = scenario_io.load_case("large_shop")
    batch = next(n for n in sc.nodes.values() if n.label == "Batch")
    batch.properties.update(arrival="closed", users=40)
    path = tmp_path / "shop.zpl"
    scenario_io.save(sc, path)
    assert main(["run", "--scenario", str(path), "--set", "duration_s=0.01"]) == 0
    head = _head(capsys.readouterr().out)
    assert head["I/O rate"] == "OLTP: 160000 I/O/s"
    assert head["Users"] == "Batch: 40"
    assert head["Arrivals"] == "OLTP: open; Batch: closed"


def test_json_of_a_drawn_shop_carries_each_workloads_values(capsys):
    """--json keeps the run's values under "params" and adds what each drawn
    workload ran with, so the text head and the JSON agree."""
    assert main(["run", "--scenario", "large_shop", "--set", "duration_s=0.01", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["workloads"]["OLTP"]["io_rate"] == 160000.0
    assert out["workloads"]["Batch"]["io_rate"] == 40000.0
    assert "users" not in out["workloads"]["Batch"]            # open arrivals
    assert main(["run", "db2_io", "--json"]) == 0
    assert "workloads" not in json.loads(capsys.readouterr().out)


def test_a_value_of_one_reads_with_its_unit_in_the_singular(capsys):
    """'1 page', not '1 pages'; other values and units as declared."""
    from app.names import param_value_text
    from models.workloads.params import BY_NAME

    size = BY_NAME["pages_per_io"]
    assert param_value_text(size, 1) == "1 page"
    assert param_value_text(size, 8) == "8 pages"
    assert param_value_text(BY_NAME["read_pct"], 1) == "1 %"
    assert main(["run", "--scenario", "large_shop", "--set", "duration_s=0.01"]) == 0
    assert _head(capsys.readouterr().out)["Transfer size"] == "OLTP: 1 page; Batch: 8 pages"
