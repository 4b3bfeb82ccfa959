"""Storage groups and channel groups: one card, every member simulated.

A group card stands for N volumes (or CHPIDs). The configuration has one
record per member, a dataset on the group spreads over all of them, the
group's volumes go round its ranks, and the run reports the group's totals
under its canvas label with each member's own figures beside them.
"""
import json
from pathlib import Path

import pytest

from app import scenario_io
from app.cli import main
from models import experiments
from models.drawing import documents
from models.drawing.config import from_scenario, member_names
from models.drawing.elements import Link, Node
from models.drawing.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]


def small_shop(count: int = 6, ranks: int = 0, names: str | None = None) -> Scenario:
    """An I/O workload on a storage group behind one unit and a channel group."""
    sc = Scenario("custom", "small shop")
    props = {"count": count, "aliases": 2}
    if ranks:
        props["ranks"] = ranks
    if names:
        props["names"] = names
    nodes = [Node("n1", "wl_io", "OLTP", 0, 0, {"io_rate": 3000.0, "duration_s": 0.3,
                                                "working_set_mb": 512.0}),
             Node("n2", "ds_vsam_ksds", "PROD.DATA", 200, 0),
             Node("n3", "sg_hdd15k", "PRDSG", 400, 0, props),
             Node("n4", "cu_ds8000", "DS8K-1", 600, 0),
             Node("n5", "chg_zhpf", "CHP4x", 800, 0, {"count": 3}),
             Node("n6", "cpu_cp", "CP 1", 1000, 0)]
    for n in nodes:
        sc.add_node(n)
    for i, (a, b) in enumerate((("n1", "n2"), ("n2", "n3"), ("n3", "n4"), ("n4", "n5"),
                                ("n5", "n6")), 1):
        sc.add_link(Link(f"l{i}", a, b))
    return sc


def test_a_group_is_one_record_per_member_spread_over_its_ranks():
    sc = small_shop(count=6)
    sc.add_node(Node("n7", "vol_raid", "R1", 400, 200))
    sc.add_node(Node("n8", "vol_raid", "R2", 400, 300))
    sc.add_link(Link("l9", "n7", "n3"))
    sc.add_link(Link("l10", "n8", "n3"))
    cfg = from_scenario(sc)
    vols = [v for v in cfg.volumes if v.group == "PRDSG"]
    assert [v.name for v in vols] == list(member_names("PRDSG", 6)) == [f"PRDSG0{i}" for i in range(1, 7)]
    assert [v.ranks for v in vols] == [("R1",), ("R2",)] * 3          # round the ranks
    assert all(v.control_unit == "DS8K-1" and v.aliases == 2 and v.device == "HDD15K" for v in vols)
    assert cfg.datasets[0].volumes == tuple(v.name for v in vols)    # the dataset spreads
    chans = [c for c in cfg.channels if c.group == "CHP4x"]
    assert len(chans) == 3 and all(c.control_units == ("DS8K-1",) for c in chans)
    assert sc.issues() == []


def test_a_group_brings_its_own_ranks_when_none_is_linked():
    cfg = from_scenario(small_shop(count=5, ranks=2))
    assert [r.name for r in cfg.ranks] == ["PRDSG-R01", "PRDSG-R02"]
    assert [v.ranks for v in cfg.volumes] == [("PRDSG-R01",), ("PRDSG-R02",)] * 2 + [("PRDSG-R01",)]


def test_own_ranks_keep_the_words_of_the_group_label_as_its_members_do():
    sc = small_shop(count=2, ranks=2)
    sc.nodes["n3"].label = "DB2  Vols"
    cfg = from_scenario(sc)
    assert [r.name for r in cfg.ranks] == ["DB2 Vols-R01", "DB2 Vols-R02"]
    assert [v.name for v in cfg.volumes] == ["DB2 Vols 01", "DB2 Vols 02"]


def test_serials_name_the_members_and_bad_lists_are_issues_on_the_card():
    sc = small_shop(count=3, names="PRD101, PRD102,PRD103")
    assert [v.name for v in from_scenario(sc).volumes] == ["PRD101", "PRD102", "PRD103"]
    bad = small_shop(count=3, names="PRD101,PRD102")
    assert any("holds 3 but lists 2" in i.message and i.node == "n3" for i in bad.issues())
    clash = small_shop(count=3, names="PRD101,PRD102,CP 1")
    assert any("'CP 1'" in i.message for i in clash.issues())


def test_only_an_experiment_that_runs_every_member_takes_a_group():
    sc = small_shop()
    sc.experiment = "db2_io"
    assert any("models one component of each kind" in i.message for i in sc.issues())


def test_a_run_reports_the_group_under_its_label_and_every_member_beside_it():
    result = experiments.run_experiment("custom", scenario=small_shop(count=6))
    group = result.components["PRDSG"]
    members = result.members["PRDSG"]
    assert group["members"] == 6 and len(members) == 6
    assert group["io_rate"] == pytest.approx(sum(m["io_rate"] for m in members.values()))
    assert group["max_busy_pct"] == max(m["busy_pct"] for m in members.values())
    assert all(m["io_rate"] > 0 for m in members.values())          # every volume took I/O
    assert not set(members) & set(result.components)                 # members are not cards
    assert result.components["CHP4x"]["members"] == 3
    titles = [t.title for t in result.reports]
    assert "Storage group activity" in titles and "Busiest volumes by storage group" in titles
    table = next(t for t in result.reports if t.title == "Storage group activity")
    assert table.rows[0][0] == "PRDSG" and table.rows[0][1] == 6
    assert result.as_json()["members"]["PRDSG"].keys() == members.keys()


def test_the_device_shorthand_swaps_a_storage_group_to_the_same_group_on_ssd():
    result = experiments.run_experiment("custom", {"device": "SSD"}, scenario=small_shop(count=4))
    drawn = experiments.drawing("custom", small_shop(count=4))
    assert drawn.nodes["n3"].kind == "sg_hdd15k"            # the caller's drawing is untouched
    assert result.components["PRDSG"]["disc_ms"] < 1.0       # no seek, no rotation


def test_a_group_saves_reopens_and_runs_the_same(tmp_path):
    sc = small_shop(count=4, ranks=2)
    path = tmp_path / "shop.zpl.json"
    scenario_io.save(sc, path)
    again = scenario_io.load(path)
    assert again.to_dict() == sc.to_dict()
    a = experiments.run_experiment("custom", scenario=sc)
    b = experiments.run_experiment("custom", scenario=again)
    assert a.as_json() == b.as_json()


def test_a_version_2_file_without_groups_opens_unchanged():
    raw = json.loads((ROOT / "resources" / "scenarios" / "custom.json").read_text("utf-8"))
    sc = documents.load_case("custom")
    assert sc.to_dict()["nodes"] == sorted(raw["nodes"], key=lambda n: int(n["id"][1:])) or \
        [n["label"] for n in sc.to_dict()["nodes"]] == [n["label"] for n in raw["nodes"]]
    assert all(v.group is None for v in from_scenario(sc).volumes)


def test_the_large_shop_draws_1000_volumes_16_channels_and_4_units_on_23_cards():
    sc = scenario_io.load_case("large_shop")
    cfg = from_scenario(sc)
    assert len(sc.nodes) == 23
    assert len(cfg.volumes) == 1000 and len({v.group for v in cfg.volumes}) == 10
    assert len(cfg.channels) == 16 and len(cfg.control_units) == 4
    rates = [n.properties["io_rate"] for n in sc.nodes.values() if n.kind == "wl_io"]
    assert sum(rates) == 200_000
    assert sc.issues() == []


def test_run_scenario_on_the_large_shop_names_groups_and_channels_as_drawn(capsys):
    code = main(["run", "--scenario", "large_shop", "--set", "duration_s=0.01", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    groups = {"DB2A", "DB2B", "DB2C", "DB2D", "DB2E", "DB2F", "BAT1", "BAT2", "BAT3", "BAT4"}
    assert groups | {"CHP40", "CHP50", "CHP60", "CHP70"} <= set(out["components"])
    assert all(out["components"][g]["members"] == 100 for g in groups)
    assert len(out["members"]["DB2A"]) == 100 + 12         # 100 volumes and its 12 ranks
