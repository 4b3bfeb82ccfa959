"""Monitor III answers of a real z/OS 2.5 DDS (../shared/rmf/dds-zos25) read
into the records the Postprocessor import fills."""
from pathlib import Path

import pytest

from models.rmf import RmfError, read_reports

DDS = Path(__file__).resolve().parents[4] / "shared" / "rmf" / "dds-zos25"
if not DDS.is_dir():                       # a worktree beside /work/shared
    DDS = Path("/work/shared/rmf/dds-zos25")
DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"


def test_the_channel_answer_gives_every_chpid_with_its_figures():
    system = read_reports([DDS / "m3-channel.xml"])
    iv = system.interval
    assert (iv.system, iv.start, iv.length_s) == ("RPRT", "2022-08-23T11:55:00", 100.0)
    assert iv.reports == {"CHAN"}
    assert sorted(iv.channels) == ["00", "01", "02", "08", "10", "11", "12", "14", "40",
                                   "41", "ED", "FC", "FD"]
    c = iv.channels["10"]
    assert (c.type, c.part_busy_pct, c.busy_pct, c.ficon_rate, c.zhpf_rate) == \
        ("FC", 0.0, 0.1, 9.0, 2.0)
    assert (c.read_mb_s, c.write_mb_s) == (0.031, 0.034)         # 31000 and 34000 B/s
    assert iv.channels["14"].read_mb_s == 0.05
    assert iv.channels["02"].read_mb_s == 1.0                     # an OSD at 1000000 B/s
    assert [iv.channels[k].type for k in ("ED", "FC", "FD")] == ["IQD", "ICP", "ICP"]
    assert iv.channels["FC"].busy_pct is None                    # '----': not measured
    assert iv.channels["08"].ficon_rate == 0.0                    # idle FICON
    assert iv.channels["10"].source.line > 18


def test_the_cpc_answer_gives_the_home_partitions_logical_processors():
    system = read_reports([DDS / "m3-cpc.xml"])
    iv = system.interval
    assert (iv.system, iv.start, iv.reports) == ("RPRT", "2022-08-23T11:46:40", {"CPU"})
    # VIRPT (the caption's partition, system RPRT): 2 logical CPs, 0.5 % effective
    assert [(e.number, e.type, e.busy_pct) for e in iv.engines] == [("0", "CP", 0.5),
                                                                    ("1", "CP", 0.5)]
    # the other partitions (KVMOCP2's IFLs at 80 %) are other systems' work
    assert len(iv.engines) == 2
    assert any("Logical Effective %" in str(a) for a in system.assumptions)


def test_the_real_devr_answer_has_no_rows_and_is_refused_naming_its_columns():
    with pytest.raises(RmfError) as e:
        read_reports([DDS / "m3-devr.xml"])
    msg = str(e.value)
    assert msg.startswith(f"{DDS / 'm3-devr.xml'}:18: DEVR (Device Resource Delays): no "
                          "device row (the answer has no rows)")
    assert "DVRPVOLU, DVRPDVN5" in msg


def test_the_dev_answer_is_recognised_and_said_to_hold_nothing_to_draw():
    with pytest.raises(RmfError, match=r"skipped: DEV \(Device delays\): the jobs a volume "
                                       r"delays, nothing the drawing uses"):
        read_reports([DDS / "m3-dev.xml"])
    # beside a report that draws, it is listed as skipped
    system = read_reports([DDS / "m3-dev.xml", DDS / "m3-cpc.xml"])
    assert any(s.startswith("DEV (Device delays)") for s in system.skipped)


def test_answers_of_different_ranges_stay_apart_and_the_busiest_is_chosen():
    system = read_reports([DDS / "m3-channel.xml", DDS / "m3-cpc.xml"])
    assert [i.start for i in system.intervals] == ["2022-08-23T11:46:40",
                                                   "2022-08-23T11:55:00"]
    assert system.interval.engines and "busiest of 2" in system.reason


def test_devr_rows_become_volumes_with_their_response_components():
    """Our own sample (the real DEVR answer with rows added, see its header)."""
    system = read_reports([DATA / "m3-devr-sample.xml"])
    iv = system.interval
    assert sorted(iv.volumes) == ["DB2P01", "DB2P02", "DB2P03", "SYSRES", "TSO001",
                                  "TSO002"]                    # the job row is not a volume
    v = iv.volumes["DB2P01"]
    assert (v.devnum, v.lcu, v.device_type, v.pav, v.rate) == ("5100", "0010", "33909", 3.0,
                                                               310.4)
    assert (v.resp_ms, v.iosq_ms) == (0.66, 0.01)             # the fields in ms
    # % Connect, % Disconnect, % Pending of the range over the rate: ms per I/O
    assert v.conn_ms == pytest.approx(10 * 6.5 / 310.4)
    assert v.disc_ms == pytest.approx(10 * 10.9 / 310.4)
    assert v.pend_ms == pytest.approx(10 * 2.8 / 310.4)
    assert v.busy_pct == pytest.approx(6.5 + 10.9)            # (CONN + DISC) %, as % DEV UTIL
    assert sum(v.rate for v in iv.volumes.values()) == pytest.approx(886.1)


@pytest.mark.parametrize("old, new, message", [
    ("0.1", "nan", "CHPID 10 Total Util % 'nan' is not a number"),
    ("0.1", "-1", "CHPID 10 Total Util % -1 is out of range"),
    ("0.1", "101", "CHPID 10 Total Util % 101 is out of range"),
    ("0.1", "1" + "0" * 400, "is not a number"),
    ("0.1", "****", "a value too large for its field"),
])
def test_a_bad_cell_is_refused_at_its_line(tmp_path, old, new, message):
    text = (DDS / "m3-channel.xml").read_text()
    row = text.index("\t\t\t\t10\n")                 # CHPID 10's row
    cell = text.index(f"\t\t\t\t{old}\n", row)
    bad = tmp_path / "m3-channel.xml"
    bad.write_text(text[:cell] + f"\t\t\t\t{new}\n" + text[cell + len(old) + 5:])
    with pytest.raises(RmfError) as e:
        read_reports([bad])
    line = text[:text.rindex("<row", 0, row)].count("\n") + 1
    assert str(e.value).startswith(f"{bad}:{line}: CHANNEL (I/O Channels): ")
    assert message in str(e.value)



def test_a_bad_range_length_names_the_report_line(tmp_path):
    """Found by a mutation fuzz: a duplicated line in <data-range> was an internal error."""
    text = (DDS / "m3-cpc.xml").read_text()
    bad = tmp_path / "m3-cpc.xml"
    bad.write_text(text.replace("\t\t\t\t100\n\t\t\t</data-range>",
                                "\t\t\t\t100\n\t\t\t\t100\n\t\t\t</data-range>", 1))
    with pytest.raises(RmfError, match=r"m3-cpc.xml:18: CPC \(Central Processor Complex\): "
                                       r"data-range \(seconds\) '100\s+100' is not a number"):
        read_reports([bad])


def test_a_devr_row_named_by_its_device_number_is_a_device_without_a_volume(tmp_path):
    """DVRPVOLU is "Volume / Dev Number": a number there is no volser."""
    text = (DATA / "m3-devr-sample.xml").read_text()
    bad = tmp_path / "m3-devr.xml"
    bad.write_text(text.replace("\t\t\t\tSYSRES\n", "\t\t\t\t05202\n", 1))
    iv = read_reports([bad]).interval
    assert "SYSRES" not in iv.volumes and "05202" not in iv.volumes and len(iv.volumes) == 5
    assert [d for d, _, _ in iv.offline] == ["05202"]
