"""Changing a component's type in place (models.drawing.variants) and the
cards that take no part in a run (models.drawing.config.idle_cards).

A what-if changes one thing: the card keeps its label, serials, aliases,
count, position and links, and the run's figures move.
"""
import pytest

from models import experiments
from models.core.params import ParamError
from models.drawing import components, documents, variants
from models.drawing.config import idle_cards
from models.drawing.scenario import Link, Node, Scenario, ScenarioError


def _case(name):
    return documents.load_case(name)


def _id(sc, label):
    return next(n.id for n in sc.nodes.values() if n.label == label)


def _links(sc, node_id):
    return sorted((ln.source, ln.target) for ln in sc.links.values()
                  if node_id in (ln.source, ln.target))


# ---- the families come from the registry ------------------------------------------
def test_the_brief_s_properties_in_a_user_s_words():
    sc = _case("rmf_sysa")
    for label in ("SGDB2", "Rank 0000"):
        assert variants.choices(sc, _id(sc, label)) == {"drive": ["HDD 10K", "HDD 15K", "SSD"]}
    assert variants.choices(sc, _id(sc, "FICON CHPIDs")) == {"protocol": ["FICON", "zHPF"]}
    assert variants.choices(sc, _id(sc, "CP 0")) == {"type": ["General CP", "zIIP"]}
    assert variants.choices(sc, _id(sc, "SSID 0006")) == {}
    sc.add_node(Node("v1", "vol_hdd15k", "VOL1"))
    sc.add_node(Node("c1", "chan_ficon", "CHP1"))
    assert variants.choices(sc, "c1") == {"protocol": ["FICON", "zHPF"]}
    # A volume off any rank may be a native 3390 too; on a RAID rank it may not.
    assert variants.choices(sc, "v1") == {"drive": ["HDD 10K", "HDD 15K", "SSD", "native 3390"]}
    sc.add_link(Link("l99", "v1", _id(sc, "Rank 0000")))
    assert variants.choices(sc, "v1") == {"drive": ["HDD 10K", "HDD 15K", "SSD"]}
    with pytest.raises(ParamError, match="allowed: HDD 10K, HDD 15K, SSD"):
        variants.change(sc, "v1", "drive", "3390")


def test_a_change_offered_on_a_built_in_drawing_leaves_it_runnable():
    """Every value offered on a card of a built-in drawing runs, except where
    the experiment models one value for all (a case study's protocol) or a
    rank is shared with volumes of another drive (the rank says so)."""
    from app import scenario_io
    tolerated = ("the experiment models one value", "one rank holds one type of drive")
    for name in scenario_io.case_names() + scenario_io.example_names():
        base = scenario_io.load_case(name)
        for node in base.nodes.values():
            for prop, values in variants.choices(base, node.id).items():
                for value in values:
                    sc = base.copy()
                    variants.change(sc, node.id, prop, value)
                    bad = [i.message for i in sc.issues()
                           if not any(t in i.message for t in tolerated)]
                    assert bad == [], (name, node.label, value)


def test_every_kind_that_comes_in_versions_has_a_family():
    """Kinds of one category and shape that differ only in what they imply
    (a drive, a protocol, a library) can replace each other."""
    by_shape: dict = {}
    for k in components.KINDS.values():
        if any(x in k.implies for x in ("device", "protocol", "library")):
            by_shape.setdefault((k.category, k.is_group), []).append(k.key)
    for keys in by_shape.values():
        if len(keys) > 1:
            assert len({variants.family(k) for k in keys}) == 1, keys
            assert variants.family(keys[0]) is not None
    assert variants.family("cpu_cp") == variants.family("cpu_ziip") == "processor"
    assert variants.family("sg_ssd") == "storage group" != variants.family("vol_ssd")
    assert variants.family("vol_raid") is None and variants.family("cu_ds8000") is None


# ---- every variant round-trips, keeping the card --------------------------------------
def _one_of_each():
    """A drawing with a card of every kind that has variants, each linked."""
    sc = _case("rmf_sysa")
    cu, rank = _id(sc, "SSID 0006"), _id(sc, "Rank 0000")
    cp = _id(sc, "CP 0")
    extra = [("vol_hdd10k", "VOL1", cu, {"aliases": 3}), ("chan_zhpf", "CHP1", cu, {}),
             ("ds_pds", "PGMLIB", None, {})]
    for kind, label, other, props in extra:
        node = sc.add_node(Node(sc.new_id("n"), kind, label, 123.0, 456.0, props))
        if other is not None:
            sc.add_link(Link(sc.new_id("l"), node.id, other))
    sc.add_link(Link(sc.new_id("l"), _id(sc, "VOL1"), rank))
    sc.add_link(Link(sc.new_id("l"), _id(sc, "PGMLIB"), _id(sc, "VOL1")))
    sc.add_link(Link(sc.new_id("l"), _id(sc, "CHP1"), cp))
    return sc


def test_every_variant_round_trips_keeping_label_properties_position_and_links():
    sc = _one_of_each()
    changeable = [n for n in sc.nodes.values() if variants.family(n.kind)]
    assert {variants.family(n.kind) for n in changeable} == {
        "storage group", "volume", "channel", "channel group", "processor", "load library"}
    for node in changeable:
        before = (node.label, dict(node.properties), node.x, node.y, _links(sc, node.id))
        start = node.kind
        (prop, values), = variants.choices(sc, node.id).items()
        for value in values:
            variants.change(sc, node.id, prop, value)
            assert variants.current(sc, node.id, prop) == value
            assert variants.variant_of(node.kind) == (prop, value)
            assert variants.family(node.kind) == variants.family(start)
            assert (node.label, dict(node.properties), node.x, node.y,
                    _links(sc, node.id)) == before
        variants.change(sc, node.id, prop, variants.variant_of(start)[1])
        assert node.kind == start
    sc.copy()                    # the file form still loads: every link still legal


def test_change_returns_what_undo_needs_and_announces_each_kind():
    sc = _case("rmf_sysa")
    before = sc.to_dict()
    heard = []
    sc.kind_changed.connect(lambda node, old: heard.append((node.label, old, node.kind)))
    sg = _id(sc, "SGDB2")
    old = variants.change(sc, sg, "drive", "SSD")
    assert old == {sg: "sg_hdd15k"}
    assert heard == [("SGDB2", "sg_hdd15k", "sg_ssd")]
    assert variants.change(sc, sg, "drive", "ssd") == {}       # already SSD: nothing to undo
    for nid, key in old.items():
        assert variants.set_kind(sc, nid, key) == "sg_ssd"
    assert sc.to_dict() == before


def test_a_rank_s_drive_is_its_volumes_and_changes_them_all():
    sc = _case("custom")
    vols = [n for n in sc.of_category("volume")]
    rank = sc.add_node(Node(sc.new_id("n"), "vol_raid", "R9"))
    for v in vols[:2]:
        sc.add_link(Link(sc.new_id("l"), v.id, rank.id))
    old = variants.change(sc, rank.id, "drive", "SSD")
    assert set(old) == {v.id for v in vols[:2]}
    assert variants.current(sc, rank.id, "drive") == "SSD"
    assert all(variants.current(sc, v.id, "drive") == "SSD" for v in vols[:2])
    assert variants.apply_setting(sc, "R9.drive=HDD 10K").startswith("R9 on HDD 10K (with ")
    empty = sc.add_node(Node(sc.new_id("n"), "vol_raid", "R10"))
    with pytest.raises(ParamError, match="holds no volume"):
        variants.change(sc, empty.id, "drive", "SSD")


def test_a_kind_of_another_sort_is_refused():
    sc = _case("rmf_sysa")
    with pytest.raises(ScenarioError, match="cannot become"):
        sc.set_kind(_id(sc, "SGDB2"), "vol_ssd")        # a group is not one volume
    with pytest.raises(ScenarioError, match="cannot become"):
        sc.set_kind(_id(sc, "CP 0"), "chan_ficon")


# ---- by label, as the command line says it --------------------------------------------
@pytest.mark.parametrize("text, words", [
    ("SGDB2.drive=SSD", "SGDB2 on SSD"),
    ("SGDB2.drive=hdd10k", "SGDB2 on HDD 10K"),
    ("SGDB2.device=HDD 10K", "SGDB2 on HDD 10K"),
    ("FICON CHPIDs.protocol=zhpf", "FICON CHPIDs on zHPF"),
    ("CP 0.type=zIIP", "CP 0 as zIIP"),
])
def test_apply_setting_says_what_changed(text, words):
    sc = _case("rmf_sysa")
    assert variants.apply_setting(sc, text) == words


@pytest.mark.parametrize("text, says", [
    ("SGXX.drive=SSD", "no component is labelled 'SGXX'; components that can change: CP 0"),
    ("SGDB2.drive=tape", "'tape' is not a drive of SGDB2; allowed: HDD 10K, HDD 15K, SSD"),
    ("SGDB2.protocol=zHPF", "SGDB2 (Storage group on HDD 15K) has no property 'protocol'; "
                            "it has: drive"),
    ("DB2001.drive=SSD", "'DB2001' is one of the volumes of SGDB2"),
    ("SSID 0006.drive=SSD", "comes in one version only"),
    ("SGDB2=SSD", "LABEL.property=VALUE"),
])
def test_a_bad_setting_is_one_line_naming_it_and_what_is_allowed(text, says):
    sc = _case("rmf_sysa")
    before = sc.to_dict()
    with pytest.raises(ParamError) as err:
        variants.apply_setting(sc, text)
    assert says in str(err.value) and "\n" not in str(err.value)
    assert sc.to_dict() == before


def test_a_label_with_dots_and_spaces_is_found():
    sc = Scenario("custom")
    sc.add_node(Node("n1", "sg_hdd15k", "PROD.DB2 vols", properties={"count": 3}))
    assert variants.apply_setting(sc, "PROD.DB2 vols.drive = SSD") == "PROD.DB2 vols on SSD"
    assert variants.is_setting("PROD.DB2 vols.drive=SSD")
    assert not variants.is_setting("device=SSD")


def test_drop_onto_a_card_of_the_family_is_a_change():
    sc = _case("rmf_sysa")
    sg = _id(sc, "SGDB2")
    assert variants.drop_change(sc, sg, "sg_ssd") == ("drive", "SSD")
    assert variants.drop_change(sc, sg, "sg_hdd15k") is None       # the same kind
    assert variants.drop_change(sc, sg, "vol_ssd") is None         # a volume lands beside
    assert variants.drop_change(sc, _id(sc, "SSID 0006"), "cu_ds8000") is None


# ---- the run changes --------------------------------------------------------------------
def _run(sc):
    return experiments.run_experiment(sc.experiment, scenario=sc)


def test_sgdb2_on_ssd_answers_faster_and_its_rank_works_less():
    base = _run(_case("rmf_sysa"))
    sc = _case("rmf_sysa")
    variants.apply_setting(sc, "SGDB2.drive=SSD")
    what_if = _run(sc)
    assert what_if.components["SGDB2"]["resp_ms"] < 0.5 * base.components["SGDB2"]["resp_ms"]
    assert what_if.components["SGDB2"]["disc_ms"] < 0.2 * base.components["SGDB2"]["disc_ms"]
    assert what_if.components["Rank 0000"]["busy_pct"] < base.components["Rank 0000"]["busy_pct"]
    # SGTSO was not changed: its own figures stay where they were.
    assert what_if.components["SGTSO"]["io_rate"] == base.components["SGTSO"]["io_rate"]


def test_a_run_takes_a_component_s_change_as_an_override():
    """``run_experiment(..., {"SGDB2.drive": "SSD"})``: what a sweep's axis
    and a comparison pass; the drawing given is not edited."""
    sc = _case("rmf_sysa")
    before = sc.to_dict()
    ssd = experiments.run_experiment("custom", {"SGDB2.drive": "SSD"}, scenario=sc)
    assert sc.to_dict() == before
    assert ssd.components["SGDB2"]["resp_ms"] < 0.5 * _run(sc).components["SGDB2"]["resp_ms"]
    with pytest.raises(ParamError, match="no component is labelled 'SGXX'"):
        experiments.run_experiment("custom", {"SGXX.drive": "SSD"}, scenario=sc)


def test_ficon_chpids_on_zhpf_changes_the_channel_figures():
    base = _run(_case("rmf_sysa"))
    sc = _case("rmf_sysa")
    variants.apply_setting(sc, "FICON CHPIDs.protocol=zHPF")
    what_if = _run(sc)
    busy = what_if.components["FICON CHPIDs"]["utilization_pct"]
    assert busy < 0.7 * base.components["FICON CHPIDs"]["utilization_pct"]
    # Now the same protocol as the zHPF CHPIDs beside it: as busy as they are.
    assert busy == pytest.approx(what_if.components["zHPF CHPIDs"]["utilization_pct"], rel=0.1)


# ---- cards that take no part ---------------------------------------------------------------
def test_no_built_in_drawing_has_an_idle_card():
    from app import scenario_io
    for name in scenario_io.case_names() + scenario_io.example_names():
        sc = scenario_io.load_case(name)
        assert idle_cards(sc) == {}, name


def test_a_storage_group_dropped_beside_the_others_takes_no_part():
    """The issue's trap: an SSD group on top of SGDB2, linked to nothing,
    leaves the run as it was; the drawing says so."""
    sc = _case("rmf_sysa")
    sg = sc.nodes[_id(sc, "SGDB2")]
    new = sc.add_node(Node(sc.new_id("n"), "sg_ssd", "SGSSD", sg.x, sg.y, {"count": 4}))
    idle = idle_cards(sc)
    assert list(idle) == [new.id]
    assert "no dataset a workload uses is on it" in idle[new.id]
    assert _run(sc).metrics == _run(_case("rmf_sysa")).metrics


def test_idle_cards_follow_the_io_path():
    sc = _case("rmf_sysa")
    cu = _id(sc, "SSID 0007")
    # A group on the control unit with no dataset, a dataset no workload reads,
    # a control unit and a channel serving nothing, a rank under nothing used.
    lone = sc.add_node(Node(sc.new_id("n"), "sg_hdd15k", "SGNEW", properties={"count": 2}))
    sc.add_link(Link(sc.new_id("l"), lone.id, cu))
    ds = sc.add_node(Node(sc.new_id("n"), "ds_seq", "UNREAD"))
    sc.add_link(Link(sc.new_id("l"), ds.id, _id(sc, "SGTSO")))
    cu2 = sc.add_node(Node(sc.new_id("n"), "cu_ds8000", "SSID 0099"))
    ch = sc.add_node(Node(sc.new_id("n"), "chan_ficon", "CHP99"))
    sc.add_link(Link(sc.new_id("l"), ch.id, cu2.id))
    rank = sc.add_node(Node(sc.new_id("n"), "vol_raid", "Rank 0099"))
    sc.add_link(Link(sc.new_id("l"), rank.id, lone.id))
    idle = idle_cards(sc)
    assert [sc.nodes[i].label for i in idle] == ["SGNEW", "UNREAD", "SSID 0099", "CHP99",
                                                 "Rank 0099"]
    # The run agrees: the group on a used control unit is simulated, without work.
    result = _run(sc)
    assert result.components["SGNEW"]["io_rate"] == 0
    # Linking the group to a dataset a workload reads puts it (and its rank) to work.
    sc.add_link(Link(sc.new_id("l"), _id(sc, "SGTSO data"), lone.id))
    assert [sc.nodes[i].label for i in idle_cards(sc)] == ["UNREAD", "SSID 0099", "CHP99"]


def test_a_drawing_without_workload_or_experiment_reports_nothing():
    assert idle_cards(Scenario(None)) == {}
    sc = Scenario("custom")
    sc.add_node(Node("n1", "cu_ds8000", "CU"))
    assert idle_cards(sc) == {}
