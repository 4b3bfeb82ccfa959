"""The scenario data model: callbacks, topology rules, run requests, plain data."""
import pytest

from models import experiments

from models.drawing import components
from models.core.params import ParamError
from models.drawing.scenario import Link, Node, Scenario, ScenarioError


def _db2_chain(device_kind="vol_ssd"):
    """Workload → index → volume → CU → channel → zIIP, built by hand."""
    sc = Scenario("db2_index_scan")
    ids = {}
    for key, kind in (("w", "wl_db2"), ("d", "ds_db2_ix"), ("v", device_kind),
                      ("cu", "cu_ds8000"), ("h", "chan_ficon"), ("z", "cpu_ziip")):
        ids[key] = sc.add_node(Node(sc.new_id(), kind, key)).id
    for a, b in (("w", "d"), ("d", "v"), ("v", "cu"), ("cu", "h"), ("h", "z")):
        sc.add_link(Link(sc.new_id("l"), ids[a], ids[b]))
    return sc, ids


def test_every_change_is_announced():
    sc = Scenario()
    seen = []
    for name in ("node_added", "node_removed", "link_added", "link_removed",
                 "property_changed", "moved", "label_changed", "experiment_changed"):
        getattr(sc, name).connect(lambda *a, n=name: seen.append(n))
    sc.set_experiment("db2_io")
    a = sc.add_node(Node("n1", "wl_db2", "DB2"))
    b = sc.add_node(Node("n2", "ds_db2_ts", "TS"))
    sc.add_link(Link("l3", a.id, b.id))
    sc.move_node(a.id, 40, 60)
    sc.set_label(a.id, "DB2 batch")
    sc.set_property(a.id, "pages", 16)
    sc.remove_node(b.id)   # takes its link with it
    assert seen == ["experiment_changed", "node_added", "node_added", "link_added", "moved",
                    "label_changed", "property_changed", "link_removed", "node_removed"]


def test_topology_rules_refuse_with_a_reason():
    assert components.link_refusal("cpu_ziip", "chan_zhpf") is None
    assert components.link_refusal("wl_db2", "ds_db2_ix") is None
    assert components.link_refusal("tape_3490", "chan_ficon") is None
    why = components.link_refusal("wl_db2", "vol_ssd")
    assert "datasets, not volumes" in why
    assert "through a channel" in components.link_refusal("cpu_cp", "cu_ds8000")
    assert "cannot be linked to each other" in components.link_refusal("vol_ssd", "vol_hdd10k")
    sc = Scenario()
    sc.add_node(Node("n1", "wl_db2", "W"))
    sc.add_node(Node("n2", "vol_ssd", "V"))
    with pytest.raises(ScenarioError, match="datasets, not volumes"):
        sc.add_link(Link("l1", "n1", "n2"))
    assert sc.links == {}


def test_every_kind_has_an_icon_and_every_workload_a_real_experiment():
    from pathlib import Path
    icons = Path(__file__).resolve().parents[2] / "resources" / "icons"
    for k in components.KINDS.values():
        assert (icons / f"{k.key}.svg").exists(), k.key
        for name in k.experiments:
            experiments.get(name)
    covered = {n for k in components.KINDS.values() for n in k.experiments}
    assert covered == set(experiments.registry())


def test_missing_pieces_are_reported_next_to_the_component():
    sc = Scenario("db2_index_scan")
    assert "needs a workload" in sc.issues()[0].message
    w = sc.add_node(Node("n1", "wl_db2", "DB2"))
    assert [(i.node, i.message) for i in sc.issues()] == [
        (w.id, "the workload needs a dataset on a volume: link it to a dataset")]
    d = sc.add_node(Node("n2", "ds_db2_ix", "IX"))
    sc.add_link(Link("l3", w.id, d.id))
    assert [i.node for i in sc.issues()] == [d.id]
    assert "needs a volume" in sc.issues()[0].message
    with pytest.raises(ScenarioError, match="IX: the dataset needs a volume"):
        sc.run_request()


def test_run_request_maps_components_to_experiment_parameters():
    sc, ids = _db2_chain("vol_ssd")
    assert sc.issues() == []
    sc.set_property(ids["d"], "index_tracks", 5000)
    sc.set_property(ids["w"], "pct_read", "2.5")
    name, overrides = sc.run_request()
    assert name == "db2_index_scan"
    # The SSD volume and the FICON channel decide device and protocol.
    assert overrides == {"device": "SSD", "protocol": "FICON", "index_tracks": 5000, "pct_read": 2.5}
    assert experiments.get(name).resolve(overrides)["cache"] == "cold"


def test_bad_values_are_refused_not_clamped():
    sc, ids = _db2_chain()
    with pytest.raises(ParamError, match="out of range"):
        sc.set_property(ids["w"], "pct_read", 250)
    with pytest.raises(ParamError, match="allowed: one of 9, 10"):
        sc.set_property(ids["w"], "db2_version", 11)
    assert "pct_read" not in sc.nodes[ids["w"]].properties


def test_disagreeing_channels_are_an_issue():
    sc, ids = _db2_chain()
    z = sc.add_node(Node(sc.new_id(), "chan_zhpf", "zHPF chan"))
    sc.add_link(Link(sc.new_id("l"), z.id, ids["cu"]))
    sc.add_link(Link(sc.new_id("l"), z.id, ids["z"]))
    msgs = [i.message for i in sc.issues()]
    assert any("differs: FICON (h) vs zHPF (zHPF chan)" in m for m in msgs)


def test_natural_needs_only_processors_and_runs_on_those_drawn():
    sc = Scenario("natural_ziip")
    w = sc.add_node(Node("n1", "wl_natural", "Natural"))
    assert "needs a processor" in sc.issues()[0].message
    z = sc.add_node(Node("n2", "cpu_ziip", "zIIP"))
    sc.add_link(Link("l3", w.id, z.id))
    # A zIIP alone cannot run the TCB-mode work: the count drawn is refused.
    assert any("General CP" in i.message and "0 are drawn" in i.message for i in sc.issues())
    cp = sc.add_node(Node("n4", "cpu_cp", "CP 1"))
    sc.add_link(Link("l5", w.id, cp.id))
    assert sc.run_request() == ("natural_ziip", {"gcps": 1, "ziips": 1})


def test_a_damaged_component_in_a_file_is_named_as_the_canvas_shows_it():
    """A scenario file whose component has an unknown kind, a bad position,
    properties that are not an object or a value out of range: the message
    names the component by its label, never by the file's internal id."""
    sc, ids = _db2_chain()
    for damage, says in ((lambda n: n.update(kind="flux_capacitor"), "unknown kind"),
                         (lambda n: n.update(x="left"), "bad position"),
                         (lambda n: n.update(properties=[1]), "must be an object"),
                         (lambda n: n["properties"].update(pct_read=500), "pct_read")):
        data = sc.to_dict()
        node = data["nodes"][0]
        node["label"] = "DB2 batch"
        damage(node)
        with pytest.raises(ScenarioError, match=says) as err:
            Scenario.from_dict(data)
        assert "component 'DB2 batch'" in str(err.value)
        assert f"'{node['id']}'" not in str(err.value)


def test_plain_data_round_trip_and_bad_data():
    sc, ids = _db2_chain()
    sc.set_property(ids["w"], "pct_read", 40.0)
    again = Scenario.from_dict(sc.to_dict())
    assert again.to_dict() == sc.to_dict()
    assert again.run_request() == sc.run_request()
    bad = sc.to_dict()
    bad["nodes"][0]["properties"]["pct_read"] = 500
    with pytest.raises(ScenarioError, match="pct_read"):
        Scenario.from_dict(bad)
    bad = sc.to_dict()
    bad["nodes"][0]["kind"] = "flux_capacitor"
    with pytest.raises(ScenarioError, match="unknown kind"):
        Scenario.from_dict(bad)
    bad = sc.to_dict()
    bad["links"].append({"id": "l99", "source": ids["w"], "target": ids["v"]})
    with pytest.raises(ScenarioError, match="datasets, not volumes"):
        Scenario.from_dict(bad)
