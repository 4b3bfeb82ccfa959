"""RMF text reports: the published excerpts and a full listing read to their figures."""
from pathlib import Path

import pytest

from models.rmf import read_reports

SHARED = Path(__file__).resolve().parents[4] / "shared" / "rmf"
if not SHARED.is_dir():                      # a worktree beside /work/shared
    SHARED = Path("/work/shared/rmf")
DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"
FULL = DATA / "sysa-0900-full.txt"

# REDP-4862, figures 6, 9 and 14, as printed: (normal read rate, its hit ratio,
# sequential read rate, its hit ratio, staged tracks rate normal, sequential,
# host adapter read bytes per request, disk bytes per request).
PUBLISHED = {
    "redp4862-fig06-skip17-ficon.txt": (1066, 0.001, 0.0, None, 1067, 0.0, 4100, 55200),
    "redp4862-fig09-runstats50-ficon.txt": (3629, 0.746, 455.3, 0.991, 1179, 142.3, 8000,
                                            55300),
    "redp4862-fig14-index12-ficon.txt": (717.5, 0.469, 0.0, None, 381.9, 0.0, 4100, 55300),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_published_excerpts_read_to_exactly_their_figures(name):
    system = read_reports([SHARED / name])
    (unit,) = system.interval.cache_units.values()
    a = unit.activity
    got = (a.read_normal.rate, a.read_normal.hit_ratio, a.read_seq.rate, a.read_seq.hit_ratio,
           a.miss_normal.tracks_rate, a.miss_seq.tracks_rate, a.host_read.bytes_per_req,
           a.disk_read.bytes_per_req)
    assert got == PUBLISHED[name]


def test_fig9_counts_with_a_k_suffix_are_thousands():
    a = read_reports([SHARED / "redp4862-fig09-runstats50-ficon.txt"]).interval \
        .cache_units["?"].activity
    assert a.read_normal.count == 1_832_000 and a.read_normal.hits == 1_366_000
    assert a.read_seq.count == 229_902 and a.miss_seq.tracks == 71_861
    assert a.host_read.bytes_per_s == pytest.approx(32.7e6)
    assert a.disk_read.resp_ms == 0.952


def test_an_excerpt_states_what_its_missing_header_would_have_said():
    path = SHARED / "redp4862-fig14-index12-ficon.txt"
    system = read_reports([path])
    said = {a.what: a for a in system.assumptions}
    for what in ("interval start and length", "system", "control unit (SSID, CU-ID, type)",
                 "cache size"):
        assert said[what].file == str(path) and said[what].line == 1
    assert "no DEVICE report" in said["volumes, storage groups, response times"].why
    assert system.reason.endswith("the only interval")


def test_a_full_listing_gives_every_report_of_the_interval():
    iv = read_reports([FULL]).interval
    assert iv.reports == {"DEVICE", "CACHE", "CHAN", "CPU", "ESS"}
    assert iv.start == "2026-11-25T09:00:00" and iv.length_s == 900 and iv.system == "SYSA"
    v = iv.volumes["DB2001"]
    assert (v.devnum, v.storage_group, v.lcu, v.rate, v.resp_ms, v.iosq_ms, v.pend_ms,
            v.disc_ms, v.conn_ms, v.busy_pct, v.pav, v.hyperpav) == \
        ("9000", "SGDB2", "0006", 245.301, 0.612, 0.0, 0.141, 0.221, 0.25, 6.08, 1.9, True)
    assert iv.volumes["TSO001"].pav == 1 and not iv.volumes["TSO001"].hyperpav
    assert {g: len(vs) for g, vs in iv.storage_groups().items()} == {"SGDB2": 4, "SGTSO": 2}
    unit = iv.cache_units["0006"]
    assert (unit.cu_id, unit.type_model, unit.cache_mb, unit.nvs_mb) == \
        ("9000", "2107-951", 65536, 2048)
    assert unit.activity.read_normal.hit_ratio == 0.870
    assert unit.activity.write_normal.fast_rate == 143.0        # DASD fast writes
    assert unit.activity.miss_seq.tracks_rate == 161.0
    assert set(unit.volumes) == {"DB2001", "DB2002", "DB2003", "DB2004"}
    # the CACHE DEVICE ACTIVITY page of DB2001 follows unit 0007's pages
    assert unit.volumes["DB2001"].detail.read_seq.hit_ratio == 0.990
    assert iv.cache_units["0007"].volumes["TSO002"].read_hit_ratio == 0.960
    ch = iv.channels["40"]
    assert (ch.type, ch.busy_pct, round(ch.zhpf_share, 3)) == ("FC_S", 20.10, 0.966)
    assert iv.channels["50"].zhpf_share == 0.0 and iv.channels["F0"].zhpf_share is None
    assert [(e.type, e.busy_pct) for e in iv.engines][-2:] == [("zIIP", 30.11), ("zIIP", 28.40)]
    assert sum(e.type == "CP" for e in iv.engines) == 4
    assert iv.ranks["0001"].read_ops_s == 95.7 and iv.ranks["0001"].raid == "RAID 5"


def test_with_and_without_the_asa_column_read_the_same(tmp_path):
    plain = tmp_path / "no-asa.txt"
    plain.write_text("".join(ln[1:] + "\n" for ln in FULL.read_text().splitlines()))
    assert read_reports([plain]).intervals == read_reports([FULL]).intervals


def test_reports_of_one_interval_in_separate_files_meet(tmp_path):
    lines = FULL.read_text().splitlines()
    cut = next(i for i, ln in enumerate(lines) if "C H A N N E L" in ln)
    (tmp_path / "a.txt").write_text("\n".join(lines[:cut]) + "\n")
    (tmp_path / "b.txt").write_text("\n".join(lines[cut:]) + "\n")
    two = read_reports([tmp_path / "a.txt", tmp_path / "b.txt"])
    assert len(two.intervals) == 1 and two.intervals == read_reports([FULL]).intervals


def test_a_large_input_read_in_two_passes_gives_the_same_chosen_interval(tmp_path):
    """Large inputs keep only the chosen interval's figures (bounded memory):
    the same figures as reading everything."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from rmf_import_scale import write_listing
    path = tmp_path / "day.txt"
    write_listing(path, 0.5, 100)
    whole = read_reports([path])
    parts = read_reports([path], large_bytes=1000)
    assert len(whole.intervals) == len(parts.intervals) > 3
    assert parts.chosen == whole.chosen and parts.reason == whole.reason
    assert parts.interval == whole.interval and len(parts.interval.volumes) == 100
    others = [i for i in parts.intervals if i is not parts.interval]
    assert all(not i.volumes for i in others)
    assert [i.activity() for i in parts.intervals] == \
        pytest.approx([i.activity() for i in whole.intervals])
    picked = read_reports([path], interval=2, large_bytes=1000)
    assert picked.interval == read_reports([path], interval=2).interval


def test_the_summary_says_what_was_read_and_assumed():
    s = read_reports([SHARED / "redp4862-fig09-runstats50-ficon.txt"]).summary()
    assert s["counts"] == {"volumes": 0, "cache_units": 1, "channels": 0, "engines": 0,
                           "ranks": 0}
    assert s["intervals"][0]["reports"] == ["CACHE"] and s["chosen"] == 1
    assert any(a.startswith("cache size = unknown (assumed: no CACHE SUBSYSTEM STATUS")
               for a in s["assumptions"])
    full = read_reports([FULL]).summary()
    assert full["counts"] == {"volumes": 6, "cache_units": 2, "channels": 5, "engines": 6,
                              "ranks": 2}
    assert full["assumptions"] == []


def test_one_report_over_several_intervals_gives_each_page_its_own_interval(tmp_path):
    """Cache pages of 09.00 then of 09.15 (DATE/TIME headers, no other report between)."""
    lines = FULL.read_text().splitlines()
    a = next(i for i, ln in enumerate(lines) if "C A C H E   S U B" in ln)
    b = next(i for i, ln in enumerate(lines) if "C H A N N E L" in ln)
    cache = lines[a:b]
    later = [ln.replace("TIME 09.00.00", "TIME 09.15.00") for ln in cache]
    p = tmp_path / "two.txt"
    p.write_text("\n".join(cache + later) + "\n")
    system = read_reports([p])
    assert [i.start for i in system.intervals] == ["2026-11-25T09:00:00",
                                                   "2026-11-25T09:15:00"]
    first, second = system.intervals
    assert first.cache_units == second.cache_units and len(first.cache_units) == 2
