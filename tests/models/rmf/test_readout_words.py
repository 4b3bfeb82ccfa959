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
