"""Issue 39: a cell RMF could not have printed is refused where it stands,
naming the file, the line and the column, in text and in XML alike."""
import json
from pathlib import Path

import pytest

from app.cli import main
from models.rmf import RmfError, read_reports

DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"
FULL = DATA / "sysa-0900-full.txt"
XML = DATA / "sysa-0900-full.xml"
LINES = FULL.read_text().splitlines()


def _k(text):
    return next(i for i, ln in enumerate(LINES) if text in ln)


def _edit(tmp_path, row_text, old, new, name="bad.txt"):
    k = _k(row_text)
    lines = list(LINES)
    assert old in lines[k]
    lines[k] = lines[k].replace(old, new, 1)
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return p, k + 1


@pytest.mark.parametrize("row,old,new,match", [
    ("DB2001", "245.301", "    nan", r"DEVICE ACTIVITY RATE: 'nan' is not a number RMF prints"),
    ("DB2001", "245.301", "    inf", r"DEVICE ACTIVITY RATE: 'inf' is not a number"),
    ("DB2001", "245.301", "Infinity", r"'Infinity' is not a number"),
    ("DB2001", " 245.301", "-245.301", r"DEVICE ACTIVITY RATE: '-245.301' is negative"),
    ("DB2001", "  6.08 ", " 211.5 ", r"% DEV UTIL 211.5 is over 100 %"),
    ("DB2001", "245.301", "9999999999", r"DEVICE ACTIVITY RATE 9,999,999,999 is over "
                                        r"1,000,000/s, more than a volume reaches"),
    ("DB2001", "10017", "1" * 400, r"NUMBER OF CYL: '1{21}\.\.\.' has 400 digits"),
    ("0  CP", " 45.12 ", " 145.1 ", r"CPU Activity: LPAR BUSY 145.1 is over 100 %"),
    ("40  FC_S", "20.10", "120.1", r"UTILIZATION\(%\) TOTAL 120.1 is over 100 %"),
    ("NORMAL        513000", "0.870", "1.870", r"H/R 1.87 is over 1"),
    ("CONFIGURED           65536M", "65536M", "65536T", r"'65536T' is 65,536 TB"),
    ("0000  CKD", "120.3", "-120.", r"'-120.' is negative"),
])
def test_a_cell_out_of_range_is_refused_at_its_line(tmp_path, row, old, new, match):
    p, line = _edit(tmp_path, row, old, new)
    with pytest.raises(RmfError, match=match) as e:
        read_reports([p])
    assert (e.value.file, e.value.line) == (str(p), line)


@pytest.mark.parametrize("cell", ["NaN", "-INF", "1e999", "-3", "101.0"])
def test_a_bad_cell_in_xml_is_refused_at_its_line(tmp_path, cell):
    text = XML.read_text()
    p = tmp_path / "bad.xml"
    # the first volume's % Dev Util (6.08) or rate: both are checked the same way
    old = "<col>6.08</col>" if cell == "101.0" else "<col>245.301</col>"
    assert old in text
    p.write_text(text.replace(old, f"<col>{cell}</col>", 1))
    with pytest.raises(RmfError, match="not a number RMF prints|is negative|has 3 digits|"
                                        "is over 100 %") as e:
        read_reports([p])
    assert e.value.line is not None and cell in p.read_text().splitlines()[e.value.line - 1]


def test_nan_is_never_written_and_the_old_file_stays(tmp_path, capsys):
    """Before: NaN and Infinity went into the scenario file (which the app's
    own loader then called corrupt) and a negative rate changed the fit."""
    out = tmp_path / "shop.zpl.json"
    assert main(["import-rmf", str(FULL), "--out", str(out)]) == 0
    before = out.read_bytes()
    json.loads(before, parse_constant=lambda c: pytest.fail(f"{c} in the file"))
    for new in ("    nan", "    inf", "-245.30"):
        p, line = _edit(tmp_path, "DB2001", "245.301", new, name=f"{new.strip()}.txt")
        assert main(["import-rmf", str(p), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"zperflab: error: {p}:{line}: ") and err.count("\n") == 1
        assert out.read_bytes() == before
