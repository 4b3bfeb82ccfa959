"""List Prefetch Optimizer reconnects, sequential prestage runs and drive streaming."""
import pytest

from models.engine import Engine
from models.io import backend as be
from models.io.devices import profile
from models.io.subsystem import IOSubsystem, pages_to_groups, range_to_groups
from tests.models.io_helpers import run_requests


_run = run_requests


def _skip_lists(skip, ios, first=0):
    return [pages_to_groups([first + skip * (32 * i + j) for j in range(32)]) for i in range(ios)]


def test_records_queued_on_one_drive_cost_one_disconnect():
    """Three records of one RAID strip come off one drive in one pass: one miss, two hits."""
    sub = IOSubsystem(Engine(1), protocol="zHPF", seq_detect=False)
    pages = [12 * 400 + 1, 12 * 401 + 1, 12 * 402 + 1]      # tracks 400-402: one strip
    assert len({sub.backend.locate(p // 12)[0] for p in pages}) == 1
    res = _run(sub, [pages_to_groups(pages)])[0]
    assert (res.misses, res.hits) == (1, 2)
    assert sub.stats.stages[0] == 3                          # still three record stages


def test_records_on_different_drives_are_waited_for_separately():
    """A record whose drive is still busy when the channel reaches it is a miss.

    One record on each of 8 strips: 8 drives, each with its own (random)
    rotational delay. The channel disconnects for every record that comes
    in later than all before it, ~2.7 of 8 on average (harmonic number).
    """
    pages = [12 * 4 * s for s in range(8)]
    misses = []
    for seed in range(40):
        sub = IOSubsystem(Engine(seed), protocol="zHPF", seq_detect=False)
        res = _run(sub, [pages_to_groups(pages)])[0]
        assert res.misses + res.hits == 8
        misses.append(res.misses)
    assert 2.0 < sum(misses) / len(misses) < 3.5
    assert max(misses) >= 4


def test_lpo_skip17_hit_ratio_near_published():
    """REDP-4862: skip-sequential every 17th page, 15K disks, zHPF+LPO: H/R 0.876 ± 0.08."""
    lpo = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF")
    _run(lpo, _skip_lists(17, 300))
    assert lpo.stats.hit_ratio == pytest.approx(0.876, abs=0.08)
    ficon = IOSubsystem(Engine(1), device="HDD15K", protocol="FICON")
    _run(ficon, _skip_lists(17, 100))
    assert ficon.stats.hit_ratio == pytest.approx(0.001, abs=0.05)


def test_lpo_hit_ratio_rises_when_pages_share_strips():
    """Denser lists put more pages behind each other on a drive: fewer disconnects per page."""
    ratios = []
    for skip in (65, 17, 5):
        sub = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF", seq_detect=False)
        _run(sub, _skip_lists(skip, 100))
        ratios.append(sub.stats.hit_ratio)
    assert ratios[0] < ratios[1] < ratios[2]


def test_lpo_only_adds_hits_it_does_not_change_what_is_staged():
    """The reconnect rule changes hit counting and timing, not the disk traffic."""
    sub = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF")
    _run(sub, _skip_lists(17, 50))
    assert sub.stats.disk_requests == 50 * 32
    assert sub.stats.disk_bytes_per_request == pytest.approx(4700, rel=0.2)


def test_prestage_reads_a_strip_in_one_disk_access():
    sub = IOSubsystem(Engine(1), protocol="FICON")
    _run(sub, [range_to_groups(32 * i, 32) for i in range(100)])   # 3,200 pages, 267 tracks
    st = sub.stats
    assert st.seq_tracks_staged > 200
    # Four 3390 tracks of 4 KB pages per 256 KB strip: about one access per strip.
    assert st.disk_requests < st.seq_tracks_staged / 3
    assert st.disk_bytes_per_request > 3 * 55296


def test_sequential_read_runs_near_the_drives_media_rate():
    """Prestaged strips keep a sequential stream channel-bound, not drive-bound.

    Staging track by track would lose most of a turn per track (the head has
    passed the next track's start by the time a new read is issued): about
    90 MB/s on 15K drives, with the I/Os mostly disconnected.
    """
    sub = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF")
    ios = 2000
    _run(sub, [range_to_groups(32 * i, 32) for i in range(ios)])
    mb_s = ios * 32 * 4096 / 1e6 / sub.engine.now
    assert mb_s > 150
    assert sub.totals.disc < 0.3 * sub.totals.total
    assert sub.stats.hit_ratio > 0.95


def test_drive_streams_on_when_a_read_continues_the_previous_one():
    b = be.Backend(profile("HDD15K"), 4096, 1, "7+P", Engine(1).stream("d"))
    d, off = b.locate(0)
    first = b._hdd(0.0, d, off, 55296)
    second = b._hdd(0.0, d, off + 55296, 55296)           # queued behind, contiguous
    assert second - first == pytest.approx(55296 / b.rate)
    # Issued after the drive went idle: its read look-ahead has the next
    # track already; a read beyond the look-ahead needs a new positioning.
    b2 = be.Backend(profile("HDD15K"), 4096, 1, "7+P", Engine(1).stream("d"))
    f2 = b2._hdd(0.0, d, off, 55296)
    late = b2._hdd(f2 + 1e-3, d, off + 55296, 55296)
    assert late == pytest.approx(f2 + 1e-3)
    far = b2._hdd(late + 1e-3, d, off + 2 * 55296 + be.READ_AHEAD_BYTES, 55296)
    assert far - (late + 1e-3) > 55296 / b2.rate + b2.access


def test_a_queued_read_a_track_past_the_previous_one_reads_on_without_positioning():
    """Queued behind a read, a read starting one track (55 KB) past its end
    costs that track's passage at the media rate; one starting beyond the
    drive's look-ahead window needs a new positioning (issue 16: sparse
    RUNSTATS lists on HDD)."""
    b = be.Backend(profile("HDD10K"), 4096, 1, "7+P", Engine(1).stream("d"))
    d, off = b.locate(0)
    first = b._hdd(0.0, d, off, 4608)
    near = b._hdd(0.0, d, off + 4608 + 55296, 4608)     # queued, one track further on
    assert near - first == pytest.approx((55296 + 4608) / b.rate)
    far = b._hdd(0.0, d, off + 2 * 4608 + 55296 + be.READ_AHEAD_BYTES + 4608, 4608)
    assert far - near > b.access + 4608 / b.rate


def test_run_tracks_stops_at_strip_and_cylinder_ends():
    b = be.Backend(profile("HDD15K"), 4096, 1, "7+P", Engine(1).stream("d"))
    assert b.run_tracks(0, 100) == 4 and b.run_tracks(5, 100) == 3 and b.run_tracks(8, 2) == 2
    n = be.Backend(profile("3390"), 4096, 1, "7+P", Engine(1).stream("d"))
    assert n.run_tracks(0, 100) == 15 and n.run_tracks(14, 100) == 1


def test_ssd_lanes_overlap_access_but_share_the_drive_bandwidth():
    """Eight record reads on one SSD finish in about one access; eight track reads queue for the port."""
    b = be.Backend(profile("SSD"), 4096, 1, "7+P", Engine(1).stream("d"))
    small = max(b._ssd(0.0, 0, 4608) for _ in range(8))
    assert small < b.access + 8 * 4608 / b.rate + 1e-9
    b2 = be.Backend(profile("SSD"), 4096, 1, "7+P", Engine(1).stream("d"))
    big = max(b2._ssd(0.0, 0, 55296) for _ in range(8))
    assert big == pytest.approx(b2.access + 8 * 55296 / b2.rate)
