"""The canvas is the configuration: what is drawn is what runs.

Every run goes scenario → configuration → model (``run_experiment(...,
scenario=)``); these tests change the drawing, not a parameter, and check
what a user would see change.
"""
import json

import pytest

from app import scenario_io
from models import experiments
from models.drawing import documents, hardware
from models.drawing.config import Configuration, from_scenario
from models.core.params import ParamError
from models.drawing.scenario import Link, Node


def _case(name):
    return documents.load_case(name)


def _add_linked(sc, kind, label, *neighbours):
    node = sc.add_node(Node(sc.new_id("n"), kind, label, 0.0, 0.0, {}))
    for other in neighbours:
        sc.add_link(Link(sc.new_id("l"), node.id, other.id))
    return node


def _by_label(sc, label):
    return next(n for n in sc.nodes.values() if n.label == label)


def test_every_case_study_draws_its_hardware_counts_and_runs_unchanged():
    """The case-study canvases carry the published set-up: the counts the
    experiment's documented defaults name are the counts drawn."""
    for name in documents.case_names(experiments.registry()):
        sc = _case(name)
        assert sc.issues() == [], name
        exp = experiments.get(name)
        drawn = sc.parameters()
        for p in exp.schema.params:
            if hardware.is_count(p.name):
                assert drawn[p.name] == p.default, (name, p.name)


def test_adding_a_ziip_moves_eligible_cpu_off_the_general_cps():
    sc = _case("natural_ziip")
    for z in [n for n in sc.nodes.values() if n.kind == "cpu_ziip"]:
        sc.remove_node(z.id)
    without = experiments.run_experiment("natural_ziip", scenario=sc)
    assert without.metrics["ziip_cpu_ms"] == 0
    _add_linked(sc, "cpu_ziip", "zIIP 9", _by_label(sc, "Natural batch"))
    with_ziip = experiments.run_experiment("natural_ziip", scenario=sc)
    # Most of the session's CPU is enclave SRB work: it moves to the zIIP.
    assert with_ziip.metrics["ziip_share"] > 0.2
    assert with_ziip.metrics["gcp_cpu_ms"] < 0.8 * without.metrics["gcp_cpu_ms"]
    # The engine drawn is reported under its canvas name.
    assert with_ziip.components["zIIP 9"]["busy_pct"] > 10


def test_a_faster_engine_on_the_canvas_uses_less_cpu():
    sc = _case("natural_ziip")
    base = experiments.run_experiment("natural_ziip", scenario=sc).metrics["cpu_ms"]
    for n in sc.of_category("processor"):
        sc.set_property(n.id, "speed", 2.0)
    fast = experiments.run_experiment("natural_ziip", scenario=sc).metrics["cpu_ms"]
    assert fast == pytest.approx(base / 2, rel=1e-6)


def test_tape_drives_drawn_change_the_spxtape_dump_as_the_study_says():
    """SPXTAPE with a second drive writes one while the other is changed:
    the dump no longer stands idle through cartridge changes."""
    sc = _case("spool_dump")
    one = experiments.run_experiment("spool_dump", scenario=sc)
    _add_linked(sc, "tape_3490", "TAPE2", _by_label(sc, "CHPID 31"))
    two = experiments.run_experiment("spool_dump", scenario=sc)
    assert two.params["tape_drives"] == 2
    assert one.metrics["system_idle_s"] > 60          # idle through its tape changes
    assert two.metrics["system_idle_s"] < 0.1 * one.metrics["system_idle_s"]
    assert two.metrics["elapsed_s"] < one.metrics["elapsed_s"] - 60
    assert set(two.components) >= {"TAPE1", "TAPE2", "SPOOL1", "SPOOL4", "CHPID 30", "CHPID 31"}
    # Both drives hang off CHPID 31: it carries both drives' blocks.
    assert two.components["CHPID 31"]["utilization_pct"] > one.components["CHPID 31"][
        "utilization_pct"]
    # A drive on a channel no processor drives is not used: it is refused.
    orphan = sc.add_node(Node(sc.new_id("n"), "tape_3490", "TAPE3", 0.0, 0.0, {}))
    with pytest.raises(ParamError, match="TAPE3: the tape drive needs a channel"):
        experiments.run_experiment("spool_dump", scenario=sc)
    sc.remove_node(orphan.id)


def test_spool_volumes_drawn_are_the_volumes_read():
    sc = _case("spool_dump")
    sc.remove_node(_by_label(sc, "SPOOL4").id)
    res = experiments.run_experiment("spool_dump", scenario=sc)
    assert res.params["spool_volumes"] == 3
    assert "SPOOL4" not in res.components and "SPOOL3" in res.components


def test_a_volume_with_no_path_to_a_processor_is_refused_on_that_volume():
    sc = _case("db2_io")
    vol = _by_label(sc, "DB2V01")
    cu = _by_label(sc, "DS8000 CU")
    sc.remove_link(sc.link_between(vol.id, cu.id).id)
    assert any(i.node == vol.id and "control unit" in i.message for i in sc.issues())
    with pytest.raises(ParamError, match="DB2V01: the volume needs a control unit"):
        experiments.run_experiment("db2_io", scenario=sc)


def test_shorthand_edits_the_drawing_and_the_drawing_is_what_runs():
    """--set tape_drives=3 draws three wired drives; device=SSD swaps kinds."""
    sc = _case("spool_dump")
    hardware.apply(sc, {"tape_drives": 3})
    drives = [n for n in sc.nodes.values() if n.kind == "tape_3490"]
    assert [d.label for d in drives] == ["TAPE1", "TAPE2", "TAPE3"]
    assert all(sc.neighbours(d.id, "channel") for d in drives)
    hardware.apply(sc, {"tape_drives": 1})
    assert [n.label for n in sc.nodes.values() if n.kind == "tape_3490"] == ["TAPE1"]
    db2 = _case("db2_io")
    hardware.apply(db2, {"device": "SSD", "protocol": "FICON"})
    assert _by_label(db2, "DB2V01").kind == "vol_ssd"
    assert {n.kind for n in db2.of_category("channel")} == {"chan_ficon"}
    # The same through the one run path: the CLI shorthand and a drawing agree.
    a = experiments.run_experiment("db2_io", {"device": "SSD", "cache": "cold"})
    b = experiments.run_experiment("db2_io", {"cache": "cold"}, scenario=db2)
    a_ms = a.metrics["io_ms"]
    c = experiments.run_experiment("db2_io", {"protocol": "zHPF", "cache": "cold"}, scenario=db2)
    assert c.metrics["io_ms"] == pytest.approx(a_ms)
    assert b.params["protocol"] == "FICON" and b.metrics["io_ms"] != pytest.approx(a_ms)


def test_count_out_of_range_and_nothing_to_copy_are_clear_errors():
    with pytest.raises(ParamError, match="tape_drives"):
        experiments.run_experiment("spool_dump", {"tape_drives": 0})
    sc = _case("natural_ziip")
    for z in [n for n in sc.nodes.values() if n.kind == "cpu_ziip"]:
        sc.remove_node(z.id)
    with pytest.raises(ParamError, match="no zIIP to copy"):
        experiments.run_experiment("natural_ziip", {"ziips": 2}, scenario=sc)


def test_configuration_json_round_trip_names_what_is_drawn():
    sc = _case("db2_index_scan")
    cfg = from_scenario(sc)
    again = Configuration.from_dict(json.loads(json.dumps(cfg.to_dict())))
    assert again == cfg
    vol = cfg.volume("DB2V01")
    assert (vol.device, vol.control_unit, vol.ranks, vol.aliases) == ("HDD15K", "DS8000 CU",
                                                                      ("Rank R1",), 2)
    assert [c.name for c in cfg.paths_to("DS8000 CU")] == ["CHPID 40", "CHPID 41"]
    assert [v.name for v in cfg.workload_volumes()] == ["DB2V01"]
    with pytest.raises(ValueError):
        Configuration.from_dict({"volumes": [{"name": "X", "colour": "red"}]})


def test_every_case_study_opens_saves_reopens_and_runs(tmp_path):
    for name in scenario_io.case_names():
        sc = scenario_io.load_case(name)
        path = tmp_path / f"{name}.zpl.json"
        scenario_io.save(sc, path)
        again = scenario_io.load(path)
        assert again.to_dict() == sc.to_dict()
        assert json.loads(path.read_text())["version"] == 2
        # The long ones at a smaller size: the drawing is what is checked here.
        small = {"db2_runstats_sampling": {"table_pages": 20_000},
                 "spool_dump": {"files": 300, "pages": 3000},
                 "spool_load": {"files": 300, "pages": 3000},
                 "vsam_rls": {"transactions": 300}}.get(name, {})
        res = experiments.run_experiment(name, small, scenario=again)
        assert res.metrics
        # Every figure is reported under a label drawn on the canvas.
        labels = {n.label for n in again.nodes.values()}
        assert set(res.components) <= labels, (name, set(res.components) - labels)


def test_a_version_1_file_opens_migrated_with_a_message(tmp_path):
    v1 = {"format": "zperflab-scenario", "version": 1, "experiment": "spool_dump", "title": "old",
          "nodes": [
              {"id": "n1", "kind": "wl_spxtape", "label": "SPXTAPE", "properties": {}},
              {"id": "n2", "kind": "ds_spool", "label": "Spool files", "properties": {}},
              {"id": "n3", "kind": "vol_raid", "label": "SPOOL1", "properties": {}},
              {"id": "n4", "kind": "cu_ds8000", "label": "DASD CU", "properties": {}},
              {"id": "n5", "kind": "chan_ficon", "label": "CHPID 30", "properties": {}},
              {"id": "n6", "kind": "cpu_cp", "label": "General CP",
               "properties": {"real_storage_mb": 512}},
              {"id": "n7", "kind": "chan_ficon", "label": "CHPID 31", "properties": {}},
              {"id": "n8", "kind": "tape_3490", "label": "3490 drive",
               "properties": {"tape_drives": 2, "spool_volumes": 1}}],
          "links": [{"id": f"l{i}", "source": a, "target": b} for i, (a, b) in enumerate(
              [("n1", "n2"), ("n2", "n3"), ("n3", "n4"), ("n4", "n5"), ("n5", "n6"),
               ("n6", "n7"), ("n7", "n8")], 10)]}
    path = tmp_path / "old.zpl.json"
    path.write_text(json.dumps(v1))
    notes = []
    sc = scenario_io.load(path, notes)
    assert notes and "format version 1" in notes[0] and "SPOOL1" in notes[0]
    assert _by_label(sc, "SPOOL1").kind == "vol_3390"
    assert sum(n.kind == "tape_3490" for n in sc.nodes.values()) == 2
    assert any(n.kind == "ds_spool_ckpt" for n in sc.nodes.values())
    assert sc.issues() == []
    assert sc.parameters()["tape_drives"] == 2 and sc.parameters()["spool_volumes"] == 1


def test_program_fetch_runs_on_the_volumes_and_channel_drawn():
    """The library and SYSPRINT volumes are those drawn; a PDSE read uses
    zHPF transport mode only when its channel path drawn is zHPF."""
    sc = _case("program_fetch")
    zhpf = experiments.run_experiment("program_fetch", {"library": "PDSE", "module": "ARCCTL",
                                                        "iterations": 20}, scenario=sc)
    assert {"LIBV01", "SYSV01"} <= set(zhpf.components)
    assert next(n for n in sc.of_category("dataset") if n.label == "STEPLIB").kind == "ds_pds"
    hardware.apply(sc, {"protocol": "FICON"})
    ficon = experiments.run_experiment("program_fetch", {"library": "PDSE", "module": "ARCCTL",
                                                         "iterations": 20}, scenario=sc)
    # Command mode: a Locate Record and Read per page chain instead of one TCW.
    assert ficon.components["LIBV01"]["conn_ms"] > 1.2 * zhpf.components["LIBV01"]["conn_ms"]
    # --set library=PDSE redrew the dataset: the run and the drawing agree.
    assert zhpf.params["library"] == "PDSE"


def test_a_db2_scan_reports_every_drawn_channel_volume_unit_rank_and_engine():
    """Each component drawn on the DB2 canvas has its RMF-style figures."""
    res = experiments.run_experiment("db2_skip_sequential", {"table_pages": 100_000})
    comps = res.components
    assert 0 < comps["CHPID 40"]["utilization_pct"] < 100
    assert 0 < comps["CHPID 41"]["utilization_pct"] < 100
    vol = comps["DB2V01"]
    assert vol["resp_ms"] == pytest.approx(vol["iosq_ms"] + vol["pend_ms"] + vol["disc_ms"]
                                           + vol["conn_ms"], rel=1e-6)
    assert 0 < comps["DS8000 CU"]["read_hit_ratio"] <= 1
    assert comps["Rank R1"]["busy_pct"] > comps["CHPID 40"]["utilization_pct"]  # disk-bound
    # Prefetch engines' CPU on the zIIP, the application's on the CP.
    assert comps["zIIP 1"]["busy_pct"] > 0 and comps["CP 1"]["busy_pct"] > 0
    # The device activity report and the figures agree (one source).
    dev = next(t for t in res.reports if t.title.startswith("Device activity"))
    row = next(r for r in dev.rows if r[0] == "DB2V01")
    assert row[dev.columns.index("resp ms")] == pytest.approx(vol["resp_ms"], abs=0.001)


def test_cics_log_writes_go_to_the_staging_volume_drawn():
    """Each log force is a fast write to LOGV01 through its channel path and
    control unit: the volume drawn carries them; without one drawn the
    scenario says what is missing."""
    sc = _case("vsam_rls")
    res = experiments.run_experiment("vsam_rls", {"transactions": 1000}, scenario=sc)
    log = res.components["LOGV01"]
    assert log["io_rate"] > 0 and log["pend_ms"] > 0
    # One log volume shared by the data volume's channel: CHPID 50 does both.
    assert res.components["CHPID 50"]["utilization_pct"] > 0
    sc.remove_node(_by_label(sc, "Log staging").id)
    with pytest.raises(ParamError, match="log staging data set"):
        experiments.run_experiment("vsam_rls", {"transactions": 1000}, scenario=sc)
