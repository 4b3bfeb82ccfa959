"""What an import read, in words a reader takes as written: a unit whose
SSID the report does not give is named as the drawing names it, never
'SSID ?', and a count of one is singular."""
from pathlib import Path

from models.rmf import read_reports
from models.rmf.readout import read_lines

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "rmf"
if not SHARED.is_dir():                  # a worktree: the shared folder of the session
    SHARED = Path("/work/shared/rmf")


def test_an_excerpt_without_its_header_names_no_ssid_and_one_unit():
    (line,) = read_lines(read_reports([SHARED / "redp4862-fig06-skip17-ficon.txt"]))
    assert line == ("CACHE (redp4862-fig06-skip17-ficon.txt:1): 1 control unit: "
                    "the control unit, no SSID given (no cache size, normal read H/R 0.001, "
                    "0 volumes)")
    assert "?" not in line


def test_the_real_units_keep_their_ssids():
    (line,) = read_lines(read_reports([SHARED / "dds-zos25" / "cache.xml"]))
    assert line.startswith("CACHE (cache.xml:18): 4 control units: SSID 5000 (CU-ID 5008")


def test_reports_of_other_intervals_are_said_read_and_not_used_not_counted_as_none():
    """The four real answers: the channel and CPU reports are of other days;
    the summary's first line read '0 channels, 0 engines' as if none were read."""
    from models.rmf.readout import counts_line, not_used
    dds = SHARED / "dds-zos25"
    four = [dds / f"{n}.xml" for n in ("device", "cache", "chan", "cpu")]
    line = counts_line(read_reports(four))
    assert line == ("97 volumes, 4 cache units, 0 ranks; read and not used (of other "
                    "intervals): 14 channels of the CHAN report of interval 2 (2022-07-26 "
                    "00:00:00), 2 engines of the CPU report of interval 1 (2022-04-06 12:30:00)")
    assert "0 channels" not in line and "0 engines" not in line
    assert not_used(read_reports(four))[1] == (
        "2 engines of the CPU report of interval 1 (2022-04-06 12:30:00), at cpu.xml:10: it "
        "does not meet interval 3 (2022-07-27 00:00:00), and reports are joined only when asked")
    joined = read_reports(four, join=True)
    assert counts_line(joined) == "97 volumes, 4 cache units, 14 channels, 2 engines, 0 ranks"
    assert not_used(joined) == []
