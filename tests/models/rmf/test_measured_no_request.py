"""Measured vs model where the run sent no request to a card: no model figure.

A storage group drawn idle (the real z/OS 2.5 answers' SSID 5002 volumes,
0.021 I/O/s, with its workload card taken off the canvas) or a volume the short run did not reach has no response time
in the run, and a unit with no normal read has no hit ratio of normal reads:
the table shows "—" and says why, instead of a model time of 0 ms set
against RMF's 0.249 ms with "other systems' I/O on the paths is not drawn".
"""
from pathlib import Path
from types import SimpleNamespace

import pytest

from models import experiments
from models.rmf import read_reports
from models.rmf.drawing import build
from models.rmf.measured import TABLE_TITLE, model_figures, table

DDS = Path(__file__).resolve().parents[3].parent / "shared" / "rmf" / "dds-zos25"
if not DDS.is_dir():                     # a worktree: the shared folder of the session
    DDS = Path("/work/shared/rmf/dds-zos25")
TIMES = ("resp ms", "IOSQ ms", "PEND ms", "DISC ms", "CONN ms")


@pytest.fixture(scope="module")
def rows():
    four = [DDS / f"{n}.xml" for n in ("device", "cache", "chan", "cpu")]
    sc = build(read_reports(four, join=True))
    (wl,) = [n.id for n in sc.nodes.values() if n.label == "SSID 5002 volumes I/O"]
    sc.remove_node(wl)
    result = experiments.run_experiment("custom", seed=1, scenario=sc)
    (t,) = [t for t in result.reports if t.title == TABLE_TITLE]
    return {(r[0], r[1]): r for r in t.rows}


def test_a_group_drawn_idle_has_no_model_time(rows):
    for title in TIMES:
        label, _, measured, model, diff, why = rows["SSID 5002 volumes", title]
        assert (model, diff, why) == ("—", "—", "no I/O reached it in the run"), title
    assert rows["SSID 5002 volumes", "resp ms"][2] == 0.249       # RMF's figure stays
    assert rows["SSID 5002 volumes", "I/O rate /s"][3] == 0       # the rate is a real 0


def test_no_row_sets_a_time_of_no_request_against_rmf(rows):
    for (label, title), r in rows.items():
        if title in TIMES and rows[label, "I/O rate /s"][3] == 0:
            assert r[3] == "—", (label, title, r)


def test_a_unit_without_normal_reads_has_no_normal_hit_ratio():
    run = SimpleNamespace(components={"SSID 5001": {
        "read_rate": 0.0, "req_read_hit_ratio": 0.0, "seq_read_rate": 0.5,
        "seq_read_hit_ratio": 1.0, "read_bytes_per_req": 4096.0,
        "disk_read_bytes_per_req": 0.0, "staged_tracks_rate": 0.0}}, members={})
    imported = {"measured": {"SSID 5001": {
        "read_rate": 14.6, "read_hit_ratio": 1.0, "seq_read_hit_ratio": 1.0,
        "read_bytes_per_req": 5200.0, "disk_read_bytes_per_req": 32800.0}},
        "kinds": {"SSID 5001": "control unit"}}
    got = {r[1]: r[3:] for r in table(imported, run).rows}
    assert got["normal request hit ratio"] == ("—", "—", "no read reached it in the run")
    assert got["bytes / disk read"] == ("—", "—", "no read went to disk in the run")
    assert got["sequential request hit ratio"][0] == 1.0
    assert got["normal read rate /s"][0] == 0.0
    comps, _ = model_figures(run)       # the charts read the same figures
    assert "req_read_hit_ratio" not in comps["SSID 5001"]


def test_a_difference_that_rounds_to_nothing_is_0_not_minus_0():
    """The real answers' SSID 5000 volumes: busy 0.0036 % measured beside 0:
    the difference printed '-0'."""
    run = SimpleNamespace(components={"G": {"io_rate": 1.0, "busy_pct": 0.0}}, members={})
    imported = {"measured": {"G": {"io_rate": 1.0, "busy_pct": 0.0036}},
                "kinds": {"G": "storage group"}}
    (busy,) = [r for r in table(imported, run).rows if r[1] == "busy %"]
    assert str(busy[4]) == "0.0"
