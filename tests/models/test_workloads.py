"""General workloads (wl_io, wl_cpu) on a drawn configuration: what a user would see."""
import pytest

from models import experiments

from models.drawing import documents
from models.core.params import ParamError
from models.drawing.scenario import Link, Node


def _case():
    return documents.load_case("custom")


def _by_label(sc, label):
    return next(n for n in sc.nodes.values() if n.label == label)


def _run(sc, **over):
    return experiments.run_experiment("custom", over, scenario=sc)


def _io_only(sc):
    sc.remove_node(_by_label(sc, "OLTP CPU").id)
    return sc


def test_case_study_reports_every_component_rmf_style():
    r = _run(_case())
    for name in ("CHPID 40", "CHPID 41"):
        assert r.components[name]["utilization_pct"] > 0
    for v in ("PRD001", "PRD002", "PRD003", "PRD004"):
        assert r.components[v]["io_rate"] > 300 and r.components[v]["resp_ms"] > 0
    for cu in ("DS8K-1", "DS8K-2"):
        assert 0.3 < r.components[cu]["read_hit_ratio"] < 1.0
    for rank in ("Rank R1", "Rank R2"):
        assert r.components[rank]["busy_pct"] > 5
    for cpu in ("CP 1", "CP 2", "zIIP 1"):
        assert r.components[cpu]["busy_pct"] > 5
    titles = [t.title for t in r.reports]
    for t in ("Workload activity", "Device activity", "Channel path activity",
              "Cache subsystem activity", "Rank activity", "CPU activity",
              "Analytic estimate beside the simulation", "Components as drawn"):
        assert t in titles, t
    # About the offered 2,000 I/Os a second (Poisson) and 1.0 CPU s/s.
    assert r.metrics["io_rate"] == pytest.approx(2000, rel=0.05)
    assert r.metrics["gcp_busy_pct"] + r.metrics["ziip_busy_pct"] / 2 == pytest.approx(
        50, rel=0.15)


def test_hit_ratio_emerges_from_cache_size_and_locality():
    def hit(cache_gb, **over):
        sc = _io_only(_case())
        for cu in sc.of_category("control_unit"):
            sc.set_property(cu.id, "cache_gb", cache_gb)
        return _run(sc, **over).metrics["read_hit_ratio"]
    small, big = hit(0.25), hit(4.0)
    assert small < big - 0.1
    assert big > 0.99                       # the 2 GB working set fits in 2 × 4 GB
    assert hit(0.25, skew=1.2) > small + 0.1   # hotter data: more hits in the same cache
    assert hit(0.25, skew=0.0) < small          # uniform: the fewest


def test_writes_are_fast_writes_and_destage_to_the_rank():
    sc = _io_only(_case())
    w = _run(sc, read_pct=0.0, io_rate=1000.0)
    r = _run(sc, read_pct=100.0, io_rate=1000.0, working_set_mb=500.0)
    assert w.metrics["disc_ms"] < 0.01          # the write ends in cache and NVS
    assert w.metrics["rank_busy_pct"] > 10      # ... and the destage works the drives
    assert r.metrics["rank_busy_pct"] < 1       # cache-resident reads leave them idle
    cache = next(t for t in w.reports if t.title == "Cache subsystem activity")
    assert cache.rows


def test_closed_users_obey_littles_law():
    sc = _io_only(_case())
    r = _run(sc, arrival="closed", users=10, think_ms=4.0)
    x = r.metrics["io_rate"]
    resp_s = r.metrics["io_resp_ms"] / 1e3
    assert x == pytest.approx(10 / (0.004 + resp_s), rel=0.05)


def test_cpu_workload_busy_follows_demand_and_eligible_share():
    sc = _case()
    sc.remove_node(_by_label(sc, "OLTP I/O").id)
    r = _run(sc, cpu_demand=0.6, ziip_pct=50.0)
    # 0.3 CPU s/s general on 2 CPs, 0.3 eligible mostly on the zIIP.
    assert r.metrics["gcp_busy_pct"] * 2 + r.metrics["ziip_busy_pct"] == pytest.approx(60, rel=0.1)
    assert 0.35 < r.metrics["ziip_share"] <= 0.5
    assert r.metrics["io_rate"] == 0 and "io_resp_ms" not in r.metrics   # devices idle


def test_workloads_carry_their_own_values_and_a_set_applies_to_all():
    sc = _io_only(_case())
    ds = _by_label(sc, "PROD.ORDERS")
    io1 = _by_label(sc, "OLTP I/O")
    sc.remove_link(sc.link_between(io1.id, ds.id).id)
    io2 = sc.add_node(Node(sc.new_id("n"), "wl_io", "Batch I/O", 0, 300, {"io_rate": 500.0}))
    sc.add_link(Link(sc.new_id("l"), io2.id, ds.id))
    sc.set_property(io1.id, "io_rate", 1500.0)
    assert sc.issues() == []                      # two I/O workloads, different rates: fine
    r = _run(sc)
    rows = {row[0]: row for row in next(t for t in r.reports if t.title == "Workload activity").rows}
    assert rows["OLTP I/O"][2] == pytest.approx(1500, rel=0.08)
    assert rows["Batch I/O"][2] == pytest.approx(500, rel=0.12)
    r2 = _run(sc, io_rate=300.0)
    rows = {row[0]: row for row in next(t for t in r2.reports if t.title == "Workload activity").rows}
    assert rows["OLTP I/O"][2] == pytest.approx(300, rel=0.15)
    assert rows["Batch I/O"][2] == pytest.approx(300, rel=0.15)


def test_inspector_shows_each_kind_its_own_parameters():
    sc = _case()
    io = {p.name for p in sc.params_for(_by_label(sc, "OLTP I/O").id)}
    cpu = {p.name for p in sc.params_for(_by_label(sc, "OLTP CPU").id)}
    assert {"io_rate", "skew", "working_set_mb", "read_pct"} <= io and "cpu_demand" not in io
    assert {"cpu_demand", "ziip_pct"} <= cpu and "io_rate" not in cpu
    for p in sc.params_for(_by_label(sc, "OLTP I/O").id):
        assert p.help and (p.kind != "float" or (p.min is not None and p.max is not None))


def test_bad_values_are_refused_in_one_line():
    sc = _case()
    with pytest.raises(ParamError, match="io_rate"):
        sc.set_property(_by_label(sc, "OLTP I/O").id, "io_rate", -5)
    with pytest.raises(ParamError) as exc:
        _run(sc, skew=9)
    assert "\n" not in str(exc.value) and "skew" in str(exc.value)
    with pytest.raises(ParamError, match="does not fit|MB"):
        _run(sc, working_set_mb=100_000.0)


def test_case_studies_keep_one_workload_and_general_workloads_need_their_path():
    sc = documents.load_case("natural_ziip")
    sc.add_node(Node(sc.new_id("n"), "wl_natural", "Second", 0, 400, {}))
    assert any("only one workload" in i.message for i in sc.issues())
    sc = _case()
    sc.add_node(Node(sc.new_id("n"), "wl_db2", "DB2", 0, 600, {}))
    assert any("only one workload" in i.message for i in sc.issues())
    sc = _case()
    cpu = _by_label(sc, "OLTP CPU")
    for cp in ("CP 1", "CP 2"):
        sc.remove_link(sc.link_between(cpu.id, _by_label(sc, cp).id).id)
    assert any("general CP" in i.message and i.node == cpu.id for i in sc.issues())
    sc = _case()
    io = sc.add_node(Node(sc.new_id("n"), "wl_io", "Loose", 0, 700, {}))
    assert any(i.node == io.id and "dataset" in i.message for i in sc.issues())


def test_same_seed_same_numbers():
    a = _run(_case())
    b = _run(_case())
    assert a.metrics == b.metrics and a.components == b.components


def test_warm_up_removal_restarts_every_counter_at_the_cut():
    """An open workload's first second left out: the figures count only what
    completed after it, over the time after it, and the result says so."""
    from models.experiments import run_experiment

    whole = run_experiment("custom")
    cut = run_experiment("custom", warmup_s=1.0)
    assert whole.warmup_removed_s is None and cut.warmup_removed_s == 1.0

    def requests(res):
        row = next(t for t in res.reports if t.title == "Workload activity").rows[0]
        reads, writes = (int(x.split()[0]) for x in row[-1].split(", "))
        return reads + writes

    # Half the run is left out: about half the requests, at the same rate.
    assert 0.4 < requests(cut) / requests(whole) < 0.6
    assert cut.metrics["io_rate"] == pytest.approx(whole.metrics["io_rate"], rel=0.1)
    # Every component's figures restart too: volume rates stay per second.
    vol = next(k for k in whole.components if k.startswith("PRD"))
    assert cut.components[vol]["io_rate"] == pytest.approx(whole.components[vol]["io_rate"],
                                                            rel=0.15)


def _warmed_block_by_block(wl, blocks):
    """What warming the hottest blocks one by one, coldest first, makes
    resident, in order: the workload's placement as it was written before
    the warm-up was worked out in chunks (a block's dataset by position,
    found with ``list.index``; its region from the (dataset, volume) table)
    and ``vol.warm_pages``'s groups (``range_to_groups``)."""
    from models.io.request import range_to_groups

    out = []
    for rank in range(blocks - 1, -1, -1):
        block = (rank * wl.scatter) % wl.n_blocks
        ds = wl.datasets[min(block // wl.per_ds, len(wl.datasets) - 1)]
        j = block - wl.datasets.index(ds) * wl.per_ds
        vols = wl.vols[ds]
        vol = vols[j % len(vols)]
        first = wl.base[ds, vol.name] + (j // len(vols)) * wl.n_pages
        out += [(id(vol.cu.cache), vol.kb + t, m)
                for t, m in range_to_groups(first, wl.n_pages, vol.rpt)]
    return out


def _warmed_in_chunks(wl, blocks):
    return [(id(dirs[i]), k, m) for dirs, which, keys, masks in wl.warm_order(blocks)
            for i, k, m in zip(which.tolist(), keys.tolist(), masks.tolist())]


def _workloads(case, params):
    from models.drawing.config import from_scenario
    from models.engine import Engine
    from models.io.system import IOSystem
    from models.workloads.io import IOWorkload, Layout
    from models.workloads.system import workload_values

    config = from_scenario(documents.load_case(case))
    values = workload_values(config, params)
    loads = [w for w in config.workloads if w.kind == "wl_io"]
    needs: dict = {}
    for w in loads:
        for ds, pages in IOWorkload.pages_needed(w, values[w.name]).items():
            needs[ds] = max(needs.get(ds, 0), pages)
    eng = Engine(1)
    system = IOSystem(eng, config)
    layout = Layout(config, needs)
    return [IOWorkload(eng, system, w, values[w.name], layout) for w in loads]


@pytest.mark.parametrize("case, pages_per_io", [("large_shop", None), ("custom", 8), ("custom", 1),
                                                ("custom", 32)])
def test_cache_warms_in_the_order_block_by_block_would(case, pages_per_io):
    """The warm-up, worked out for all blocks at once, makes the same tracks
    resident in the same order (so the same LRU order) as warming the blocks
    one by one from the coldest: every figure of a run rests on it."""
    checked = 0
    for wl in _workloads(case, {} if pages_per_io is None else {"pages_per_io": pages_per_io}):
        wl.WARM_CHUNK = 4096              # several chunks
        blocks = min(wl.n_blocks, 20_000)
        fast = _warmed_in_chunks(wl, blocks)
        assert fast == _warmed_block_by_block(wl, blocks)
        assert len(fast) >= blocks
        checked += len(fast)
    assert checked > 10_000


def test_warm_order_holds_with_a_dataset_named_twice_and_odd_records_per_track():
    """A workload linked twice to one dataset, and volumes whose records do
    not fill a track as 4 KB pages do (7 a track): the chunked order still
    follows the block-by-block one."""
    wl = _workloads("custom", {"pages_per_io": 5})[0]
    wl.datasets = wl.datasets + wl.datasets[:1]
    wl.per_ds = -(-wl.n_blocks // len(wl.datasets))
    for vols in wl.vols.values():
        for v in vols:
            v.rpt = 7
    wl.WARM_CHUNK = 1000
    blocks = min(wl.n_blocks, 5000)
    assert _warmed_in_chunks(wl, blocks) == _warmed_block_by_block(wl, blocks)
    assert _warmed_in_chunks(wl, 0) == []
