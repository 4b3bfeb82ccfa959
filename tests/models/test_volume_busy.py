"""A volume's busy is the z/OS device busy (RMF's % DEV UTIL), never its drives'.

A volume with no rank card and no group ranks sits on a rank of its own,
named after it. The rank's drive busy (which carries the destages and the
misses of the whole rank) used to overwrite the volume's figure, so a volume
answering in 0.22 ms from cache showed "20 % busy". The volume keeps
DISC + CONN per exposure; its drives' busy is beside it as ``rank_busy_pct``.
"""
from pathlib import Path

from app import scenario_io
from models import experiments

ROOT = Path(__file__).resolve().parents[2]


def _without_rank_cards():
    sc = scenario_io.load(ROOT / "resources" / "scenarios" / "custom.json")
    for nid in [n for n, node in sc.nodes.items() if node.kind == "vol_raid"]:
        sc.remove_node(nid)
    return sc


def test_a_volume_on_a_rank_of_its_own_keeps_its_device_busy():
    sc = _without_rank_cards()
    result = experiments.run_experiment("custom", scenario=sc)
    vols = [n.label for n in sc.nodes.values() if n.kind.startswith("vol_")]
    assert vols
    for name in vols:
        f = result.components[name]
        aliases = int(next(n for n in sc.nodes.values() if n.label == name)
                      .properties.get("aliases", 0) or 0)
        dev_util = f["io_rate"] * (f["disc_ms"] + f["conn_ms"]) / 1e3 / (1 + aliases) * 100
        assert abs(f["busy_pct"] - dev_util) < 0.05 * dev_util + 0.01, name
        # The drives behind it are busier than the device (destages, misses) …
        assert f["rank_busy_pct"] > f["busy_pct"] + 5, name
    # … and the busiest rank is the drives', the busiest volume the device's.
    m = result.metrics
    assert m["volume_busy_pct"] == max(result.components[v]["busy_pct"] for v in vols)
    assert m["rank_busy_pct"] == max(result.components[v]["rank_busy_pct"] for v in vols)
