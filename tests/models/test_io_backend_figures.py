"""Back-end figures from their sources (issue 32, item 3).

The HDD media rates are the drives' published maxima; the SSD access time
has no source and is the one figure a target bounds: at the 0.25 ms once
quoted for 2012 enterprise SSDs the SSD/10K ratio of E9 leaves its band.
That miss is kept visible here rather than hidden in the constant.
"""
import dataclasses
import random

import pytest

from models.experiments import run_experiment
from models.io import devices
from models.io.backend import Backend


def _ratio_ssd_to_10k() -> float:
    params = dict(index_tracks=28000, cache="cold", db2_version=10, protocol="FICON", pct_read=5)
    ssd = run_experiment("db2_index_scan", dict(params, device="SSD")).metrics["throughput_mb_s"]
    hdd = run_experiment("db2_index_scan", dict(params, device="HDD10K")).metrics["throughput_mb_s"]
    return ssd / hdd


@pytest.mark.parametrize("drive, published_max", [("HDD10K", 135e6), ("HDD15K", 202e6)])
def test_a_strip_read_is_no_faster_than_the_drives_published_maximum(drive, published_max):
    """A stage of a whole RAID strip (one drive access) moves its bytes no
    faster than Savvio 10K.4's 135 MB/s or 15K.3's 202 MB/s (the 10K drive
    ran at 150 MB/s before issue 32)."""
    be = Backend(devices.profile(drive), 4096, 1, "7+P", random.Random(1))
    n = be.run_tracks(0, 100)
    first, _ = be.stage_tracks(0.0, 0, n)
    # The same drive's strip in the next RAID row lies right after it: queued
    # behind the first read, it streams on with no new positioning.
    d0, off0 = be.locate(0)
    nxt = next(k * be.strip_tracks for k in range(1, 3 * be.data_per_row)
               if be.locate(k * be.strip_tracks) == (d0, off0 + be.strip_bytes))
    done, nbytes = be.stage_tracks(0.0, nxt, n)
    rate = nbytes / (done - first)
    assert 0.9 * published_max <= rate <= published_max * (1 + 1e-9)


@pytest.mark.xfail(strict=True, reason="open (issue 32): with the data-sheet SSD access of "
                   "0.25 ms, E9 SSD/10K (DB2 10, FICON, 5 % of the index) is 8.42x against a "
                   "published 3-8x (7.14x at the assumed 0.35 ms; seed 1, merged issue-32 model). No DS8800 SSD access or "
                   "device-adapter figure was found to say which mechanism holds SSD back")
def test_e9_ssd_to_10k_holds_with_the_data_sheet_ssd_access(monkeypatch):
    monkeypatch.setitem(devices.PROFILES, "SSD",
                        dataclasses.replace(devices.PROFILES["SSD"], access_ms=0.25))
    assert 3.0 <= _ratio_ssd_to_10k() <= 8.0


def test_e9_ssd_to_10k_holds_with_the_assumed_ssd_access():
    assert 3.0 <= _ratio_ssd_to_10k() <= 8.0
