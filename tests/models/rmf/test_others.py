"""Other systems' I/O on a shared control unit is drawn beside this system's
(models/rmf/others.py): the cache report counts every system, the device
report this one."""
from pathlib import Path

import models.experiments  # noqa: F401  (the drawing's checks look experiments up)
from models.rmf import read_reports
from models.rmf.drawing import build

ROOT = Path(__file__).resolve().parents[3]
DDS = ROOT.parent / "shared" / "rmf" / "dds-zos25"
if not DDS.is_dir():                     # a worktree: the shared folder of the session
    DDS = Path("/work/shared/rmf/dds-zos25")
SAMPLE = ROOT / "tests" / "data" / "rmf" / "sysa-0900-full.txt"


def _labels(sc):
    return {n.label: n for n in sc.nodes.values()}


def test_a_shared_unit_gets_other_systems_reads_and_writes_as_cards():
    sc = build(read_reports([DDS / "device.xml", DDS / "cache.xml"]))
    cards = _labels(sc)
    reads = cards["Other systems' reads on SSID 5001 I/O"].properties
    writes = cards["Other systems' writes on SSID 5001 I/O"].properties
    # the cache report's 67.6 I/O/s less this system's 2.470: 14.8 reads, 50.3 writes
    assert reads["io_rate"] + writes["io_rate"] == round(67.6 - 2.470, 3)
    assert reads["read_pct"] == 100 and writes["read_pct"] == 0
    assert writes["seq_pct"] > 80                  # the unit's writes are sequential
    said = {a["what"]: a for a in sc.imported["assumptions"]}
    assert "less this system's 2.470" in said["I/O of other systems to SSID 5001"]["why"]
    # nothing of theirs is measured as this system's: no figure to compare
    assert not any(k.startswith("Other systems") for k in sc.imported["measured"])


def test_a_system_alone_on_its_units_draws_no_other_systems():
    sc = build(read_reports([SAMPLE]), run_s=0.5)
    assert not any(label.startswith("Other systems") for label in _labels(sc))


def test_other_systems_io_is_left_out_of_this_system_s_headline_figures():
    from models import experiments
    sc = build(read_reports([DDS / "device.xml", DDS / "cache.xml"]))
    for n in sc.nodes.values():               # a short run: the rates are counted
        if n.kind == "wl_io":
            n.properties["duration_s"] = 200.0
    r = experiments.run_experiment("custom", seed=1, scenario=sc)
    # RMF's device report: 8.515 I/O/s for this system; other systems add ~94
    assert abs(r.metrics["io_rate"] - 8.515) < 0.1
    rows = {row[0]: row for row in next(t for t in r.reports
                                        if t.title == "Workload activity").rows}
    assert rows["Other systems' reads on SSID 5001 I/O"][1] == "I/O, another system"
    assert rows["SSID 5001 volumes I/O"][1] == "I/O"
