"""RMF XML (ddsml): the same figures as the text listing, many intervals, the busiest."""
from pathlib import Path

import pytest

from models.rmf import RmfError, read_reports

DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"


def test_text_and_xml_of_the_same_interval_read_the_same():
    text = read_reports([DATA / "sysa-0900-full.txt"])
    xml = read_reports([DATA / "sysa-0900-full.xml"])
    assert xml.intervals == text.intervals
    iv = xml.interval
    assert iv.cache_units["0006"].volumes["DB2001"].detail.read_seq.hit_ratio == 0.990
    assert iv.cache_units["0006"].cache_mb == 65536


def test_many_intervals_the_busiest_is_taken_and_said():
    system = read_reports([DATA / "sysa-many-intervals.xml"])
    assert [i.start[11:16] for i in system.intervals] == ["09:00", "09:15", "09:30", "09:45"]
    assert system.interval.number == 3
    assert "interval 3 (2026-11-25 09:30:00): the busiest of 4" in system.reason
    assert "DASD I/O per second" in system.reason
    engines = system.interval.engines
    assert [e.type for e in engines] == ["CP"] * 4 + ["zIIP"] * 2
    assert engines[0].busy_pct == pytest.approx(45.12 * 1.4, abs=0.01)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_any_interval_can_be_picked(n):
    system = read_reports([DATA / "sysa-many-intervals.xml"], interval=n)
    assert system.interval.number == n and "asked for" in system.reason
    loads = (0.6, 0.9, 1.4, 1.1)
    assert system.interval.volumes["DB2001"].rate == pytest.approx(245.301 * loads[n - 1],
                                                                   abs=1e-3)


def test_an_interval_that_is_not_there_is_named_with_those_that_are():
    with pytest.raises(RmfError, match=r"there is no interval 7: the reports hold 4 "
                                       r"\(interval 1 \(2026-11-25 09:00:00\)"):
        read_reports([DATA / "sysa-many-intervals.xml"], interval=7)


def test_a_large_xml_input_in_two_passes_keeps_only_the_chosen_interval():
    whole = read_reports([DATA / "sysa-many-intervals.xml"])
    parts = read_reports([DATA / "sysa-many-intervals.xml"], large_bytes=1000)
    assert parts.chosen == whole.chosen and parts.interval == whole.interval
    assert [i.activity() for i in parts.intervals] == \
        pytest.approx([i.activity() for i in whole.intervals])
    assert all(not i.volumes and not i.engines for i in parts.intervals
               if i is not parts.interval)


def test_a_recorded_zos_25_dds_cpu_response_reads_its_engines_and_intervals():
    """An excerpt of a real DDS answer (Zowe ZEBRA's recording, EPL-2.0; see the
    file's header): the CPU column names the reader looks for are the ones a
    z/OS 2.5 DDS sends ('CPU Number', 'CPU Type', 'Time% LPAR Busy', 'Time%
    MVS Busy'), and its TOTAL/AVERAGE row is not an engine."""
    recorded = DATA / "zebra-zos25-cpu-excerpt.xml"
    system = read_reports([recorded])
    assert [i.start for i in system.intervals] == [
        "2022-04-06T12:30:00", "2022-04-06T13:00:00", "2022-04-06T13:30:00"]
    assert system.interval.key == ("RPRT", "2022-04-06T12:30:00")
    assert "the busiest of 3" in system.reason
    engines = system.interval.engines
    assert [(e.number, e.type, e.busy_pct, e.mvs_busy_pct) for e in engines] == [
        ("0", "CP", 1.26, 1.24), ("1", "CP", 0.22, 0.22)]
    later = read_reports([recorded], interval=2).interval.engines
    assert [(e.busy_pct, e.mvs_busy_pct) for e in later] == [(1.20, 1.17), (0.17, 0.17)]
