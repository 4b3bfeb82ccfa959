"""``--set LABEL.property=VALUE``: a scripted what-if on one component, by its
canvas label, on the built-in imported system (rmf_sysa) and the Large shop;
and the cards that take no part in a run, named by ``run``."""
import csv
import json

import pytest

from app import cli, scenario_io
from models.drawing.elements import Node


def _json(capsys, *argv):
    assert cli.main(["run", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _fails(capsys, *argv):
    assert cli.main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_sgdb2_on_ssd_by_label_answers_faster(capsys):
    base = _json(capsys, "--scenario", "rmf_sysa")
    what_if = _json(capsys, "--scenario", "rmf_sysa", "--set", "SGDB2.drive=SSD")
    assert base["whatif"] == [] and what_if["whatif"] == ["SGDB2 on SSD"]
    sg, sg0 = what_if["components"]["SGDB2"], base["components"]["SGDB2"]
    assert sg["resp_ms"] < 0.5 * sg0["resp_ms"] and sg["disc_ms"] < 0.2 * sg0["disc_ms"]
    # One component changed: SGTSO's drives and its figures stay.
    assert what_if["components"]["SGTSO"]["resp_ms"] == pytest.approx(
        base["components"]["SGTSO"]["resp_ms"], rel=0.05)
    assert base["idle_cards"] == {} == what_if["idle_cards"]


def test_the_text_names_the_what_if_and_never_calls_it_the_model_beside_rmf(capsys):
    assert cli.main(["run", "--scenario", "rmf_sysa", "--set", "SGDB2.drive=SSD"]) == 0
    out = capsys.readouterr().out
    assert "\nWhat-if: SGDB2 on SSD\n" in out
    assert "Measured vs what-if: SGDB2 on SSD" in out and "Measured vs model" not in out
    head = out.split("Measured vs what-if")[1].splitlines()[1]
    assert "RMF measured | what-if | what-if − measured" in head
    assert cli.main(["run", "--scenario", "rmf_sysa"]) == 0
    base = capsys.readouterr().out
    assert "What-if" not in base and "Measured vs model" in base


def test_a_channel_group_on_zhpf_and_a_plain_key_together(capsys):
    base = _json(capsys, "--scenario", "rmf_sysa", "--set", "duration_s=4")
    out = _json(capsys, "--scenario", "rmf_sysa", "--set", "FICON CHPIDs.protocol=zHPF",
                "--set", "duration_s=4")
    assert out["whatif"] == ["FICON CHPIDs on zHPF"]
    assert out["params"]["duration_s"] == 4 == base["params"]["duration_s"]
    busy = out["components"]["FICON CHPIDs"]["utilization_pct"]
    assert busy < 0.7 * base["components"]["FICON CHPIDs"]["utilization_pct"]


def test_the_large_shop_by_label(capsys):
    """A storage group to SSD and a channel group to FICON on the Large shop
    (a short run: the plain duration_s keeps its meaning beside them)."""
    short = ("--scenario", "large_shop", "--set", "duration_s=0.3")
    base = _json(capsys, *short)
    out = _json(capsys, *short, "--set", "DB2A.drive=SSD", "--set", "CHP40.protocol=FICON")
    assert out["whatif"] == ["DB2A on SSD", "CHP40 on FICON"]
    assert out["components"]["DB2A"]["disc_ms"] < 0.5 * base["components"]["DB2A"]["disc_ms"]
    assert (out["components"]["CHP40"]["utilization_pct"]
            > base["components"]["CHP40"]["utilization_pct"])


@pytest.mark.parametrize("setting, said", [
    ("SGXX.drive=SSD", "no component is labelled 'SGXX'; components that can change: "),
    ("SGDB2.drive=tape", "'tape' is not a drive of SGDB2; allowed: HDD 10K, HDD 15K, SSD"),
    ("SGDB2.colour=red", "has no property 'colour'; it has: drive"),
    ("DB2001.drive=SSD", "'DB2001' is one of the volumes of SGDB2"),
    # What it is already: the baseline would be titled "What-if: SGDB2 on HDD 15K".
    ("SGDB2.drive=HDD 15K", "changes nothing (SGDB2 on HDD 15K already)"),
])
@pytest.mark.parametrize("command", [["run"], ["sweep", "--over", "duration_s=1,2"]])
def test_a_bad_label_property_or_value_is_one_line_and_status_2(command, setting, said,
                                                                 capsys):
    err = _fails(capsys, *command, "--scenario", "rmf_sysa", "--set", setting)
    assert said in err


def test_one_component_changed_twice_is_refused(capsys):
    err = _fails(capsys, "run", "--scenario", "rmf_sysa", "--set", "SGDB2.drive=SSD",
                 "--set", "SGDB2.drive=HDD 10K")
    assert "SGDB2.drive is given twice" in err


def test_a_case_study_by_experiment_name_takes_a_label_too(capsys):
    out = _json(capsys, "db2_io", "--set", "DB2V01.drive=SSD")
    assert out["whatif"] == ["DB2V01 on SSD"]
    assert out["params"]["device"] == "SSD"


def test_the_sweep_runs_the_what_if(capsys):
    argv = ["sweep", "--scenario", "rmf_sysa", "--over", "duration_s=2", "--workers", "1",
            "--json"]
    assert cli.main(argv) == 0
    base = json.loads(capsys.readouterr().out)
    assert cli.main([*argv, "--set", "SGDB2.drive=SSD"]) == 0
    captured = capsys.readouterr()
    assert "what-if: SGDB2 on SSD" in captured.err
    out = json.loads(captured.out)
    resp = [p["metrics"]["io_resp_ms"] for p in out["points"]]
    assert resp[0] < 0.6 * [p["metrics"]["io_resp_ms"] for p in base["points"]][0]


def test_run_names_the_cards_that_took_no_part(tmp_path, capsys):
    sc = scenario_io.load_case("rmf_sysa")
    sg = next(n for n in sc.nodes.values() if n.label == "SGDB2")
    sc.add_node(Node(sc.new_id("n"), "sg_ssd", "SGSSD", sg.x, sg.y, {"count": 4}))
    path = tmp_path / "dropped.zpl.json"
    scenario_io.save(sc, path)
    assert cli.main(["run", "--scenario", str(path)]) == 0
    out = capsys.readouterr().out
    line = [ln for ln in out.splitlines() if ln.startswith("Took no part in the run: ")]
    assert line == ["Took no part in the run: SGSSD (no dataset a workload uses is on it)"]
    assert _json(capsys, "--scenario", str(path))["idle_cards"] == {
        "SGSSD": "no dataset a workload uses is on it"}


def test_a_sweep_over_one_component_s_drive(tmp_path, capsys):
    out = tmp_path / "drives.csv"
    assert cli.main(["sweep", "--scenario", "rmf_sysa", "--over",
                     "SGDB2.drive=HDD 10K,HDD 15K,SSD", "--workers", "1", "--csv", str(out)]) == 0
    capsys.readouterr()
    rows = list(csv.reader(out.open()))
    col = rows[0].index("I/O response time (ms)")
    assert rows[0][0] == "SGDB2.drive"
    assert [r[0] for r in rows[1:]] == ["HDD 10K", "HDD 15K", "SSD"]
    resp = [float(r[col]) for r in rows[1:]]
    assert resp[0] > resp[1] > 2 * resp[2]
    err = _fails(capsys, "sweep", "--scenario", "rmf_sysa", "--over", "SGDB2.drive=SSD,tape")
    assert "'tape' is not a drive of SGDB2; allowed: HDD 10K, HDD 15K, SSD" in err
    err = _fails(capsys, "sweep", "--scenario", "rmf_sysa", "--set", "SGDB2.drive=SSD",
                 "--over", "SGDB2.drive=HDD 10K,SSD")
    assert "--over SGDB2.drive is also given with --set" in err
