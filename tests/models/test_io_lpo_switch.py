"""The LPO's switch to track staging by revisits (issue 32, item 1).

A track a list comes back to is staged in track mode: the unit's own
history, one rule on every device, no cost comparison. Points at index
shares in no target file; short runs (``IO_BUDGET`` 1,500 I/Os).
"""
import pytest

from models.db2 import runs
from models.experiments import run_experiment


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setattr(runs, "IO_BUDGET", 1500)


def scan(pct, device="SSD", protocol="zHPF"):
    return run_experiment("db2_index_scan", dict(
        index_tracks=28000, cache="cold", db2_version=10, device=device, protocol=protocol,
        pct_read=pct)).metrics


def test_the_switch_is_the_same_on_ssd_and_on_spinning_drives():
    """The same lists stage the same tracks in track mode on SSD and on 10K
    (with the cost comparison SSD switched far later: 41,452 against 57,374
    tracks at 35 %)."""
    assert scan(40, "SSD")["tracks_staged"] == scan(40, "HDD10K")["tracks_staged"]


def test_lpo_ssd_index_scan_io_time_has_a_clear_mid_scan_peak():
    """REDP-4862: the switch on SSD pushed the I/O response to a pronounced
    mid-scan peak that falls once the index is in cache (it was a gentle
    hump: 1.36, 2.78, 2.08 ms at 5, 40, 100 %)."""
    io = {p: scan(p)["io_ms"] for p in (3, 25, 90)}
    assert io[25] > 1.25 * max(io[3], io[90]), io


@pytest.mark.xfail(strict=True, reason="open (issue 32): a full LPO scan stages 84,833 tracks "
                   "in partial/full-track mode (3.0x the 28,000 tracks FICON stages), plus the "
                   "record stages; the study: at most about twice. Completing a track once in "
                   "track mode (staging only what is missing) gives 28,112, but then the SSD "
                   "I/O time falls to 1.41 ms at 100 % (E9: 2.72 +/- 30 %) and rises to 2.48 "
                   "ms at 5 % (E9: 1.66 +/- 30 %): the re-reads keep E9's late I/O time up; "
                   "four other rules tried: docs/model-io.md, Known limits")
def test_lpo_full_scan_stages_at_most_about_twice_ficons_tracks():
    lpo = scan(100, "HDD10K")["tracks_staged"]
    ficon = scan(100, "HDD10K", "FICON")["tracks_staged"]
    assert lpo <= 2.2 * ficon, (lpo, ficon)
