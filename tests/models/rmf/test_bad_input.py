"""Bad input: each gets one clear RmfError naming the file and the line."""
from pathlib import Path

import pytest

from models.rmf import RmfError, read_reports
from models.rmf.numbers import NumberError, number, pav, storage_mb

DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"
FULL = DATA / "sysa-0900-full.txt"
LINES = FULL.read_text().splitlines()


def _write(tmp_path, lines, name="r.txt"):
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return p


def _line_of(text):
    return next(i for i, ln in enumerate(LINES) if text in ln)


def _fails(paths, match, line=None, **kw):
    with pytest.raises(RmfError, match=match) as e:
        read_reports(paths, **kw)
    if line is not None:
        assert e.value.line == line, str(e.value)
    assert e.value.file == str(paths[-1])
    return e.value


def test_a_report_of_another_kind_is_named(tmp_path):
    p = _write(tmp_path, ["1" + "W O R K L O A D   A C T I V I T Y".center(120),
                          "            z/OS V2R4     SYSTEM ID SYSA   START 11/25/2026-09.00.00"
                          "  INTERVAL 000.15.00", " SERVICE CLASS=BATCH   RESOURCE GROUP=*NONE"])
    err = _fails([p], "this is a WORKLOAD ACTIVITY report; zPerfLab reads", line=1)
    assert str(err).startswith(f"{p}:1: ")


def test_other_reports_in_a_listing_are_skipped_and_listed(tmp_path):
    other = ["1" + "P A G I N G   A C T I V I T Y".center(120), " PAGE-INS  12.0"]
    p = _write(tmp_path, other + LINES)
    system = read_reports([p])
    assert system.skipped == [f"PAGING ACTIVITY ({p}:1)"]
    assert len(system.interval.volumes) == 6


def test_a_text_file_that_is_no_report_at_all(tmp_path):
    p = _write(tmp_path, ["Dear sysprog,", "here are the figures you wanted."])
    _fails([p], "not an RMF Postprocessor report", line=1)


def test_an_ebcdic_file_says_how_to_transfer_it(tmp_path):
    p = tmp_path / "binary.txt"
    p.write_bytes("".join(f"{ln:133s}" for ln in LINES).encode("cp037"))
    _fails([p], r"EBCDIC \(it was transferred from z/OS in binary mode\).*text \(ASCII\) mode",
           line=1)


def test_xml_entity_expansion_is_refused(tmp_path):
    p = tmp_path / "laughs.xml"
    p.write_text('<?xml version="1.0"?>\n<!DOCTYPE ddsml [\n <!ENTITY a "aaaaaaaaaa">\n'
                 ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n'
                 "<ddsml><postprocessor>&b;</postprocessor></ddsml>\n")
    _fails([p], "declares a DTD or entities.*refused, nothing was expanded", line=2)


def test_an_external_entity_is_refused_not_fetched(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    p = tmp_path / "xxe.xml"
    p.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE ddsml [<!ENTITY x SYSTEM "file://{secret}">]>'
                 "\n<ddsml><postprocessor><metric id=\"CPU\"/>&x;</postprocessor></ddsml>\n")
    err = _fails([p], "refused", line=2)
    assert "TOPSECRET" not in str(err)


def test_a_truncated_xml_file(tmp_path):
    text = (DATA / "sysa-0900-full.xml").read_text()
    p = tmp_path / "cut.xml"
    p.write_text(text[: len(text) // 2])
    _fails([p], "the XML ends early.*truncated")


def test_a_page_cut_off_inside_its_header(tmp_path):
    k = _line_of("C A C H E")
    p = _write(tmp_path, LINES[:k + 2])           # title and PAGE line, no header
    _fails([p], r"Cache Subsystem Activity report's page header .* missing or cut off",
           line=k + 1)


def test_a_row_cut_off_in_the_middle(tmp_path):
    k = _line_of("DB2003")
    lines = LINES[:k] + [LINES[k][:60]]
    p = _write(tmp_path, lines)
    _fails([p], r"Direct Access Device Activity: a volume row needs .* at least 11 figures",
           line=k + 1)


def test_a_line_that_does_not_parse_names_its_column(tmp_path):
    k = _line_of("DB2002")
    lines = list(LINES)
    lines[k] = lines[k].replace("198.220", "198.2x0")
    p = _write(tmp_path, lines)
    _fails([p], r"DEVICE ACTIVITY RATE: '198.2x0' is not a number", line=k + 1)


def test_suffixed_numbers_and_na_cells():
    assert number("1940K") == 1_940_000 and number("125.4M") == pytest.approx(125.4e6)
    assert number(".612") == 0.612 and number("N/A") is None
    assert storage_mb("65536M") == 65536 and storage_mb("256.0G") == 262144
    assert pav("1.9H") == (1.9, True) and pav("8*") == (8, False)
    with pytest.raises(NumberError, match="too large for its column"):
        number("*****")


def test_suffixed_counts_in_a_row_read_and_a_needed_na_is_refused(tmp_path):
    k = _line_of("DB2001")
    lines = list(LINES)
    lines[k] = lines[k].replace("  245.301", "     1.9K")
    system = read_reports([_write(tmp_path, lines)])
    assert system.interval.volumes["DB2001"].rate == 1900
    lines[k] = lines[k].replace("     1.9K", "      N/A")
    _fails([_write(tmp_path, lines, "na.txt")], "DEVICE ACTIVITY RATE is N/A", line=k + 1)


def test_duplicate_volsers_name_both_devices(tmp_path):
    k = _line_of("DB2002")
    lines = list(LINES)
    lines[k] = lines[k].replace("DB2002", "DB2001")
    _fails([_write(tmp_path, lines)], r"volume serial DB2001 appears twice in the interval of 2026-11-25 09:00:00: "
           rf"device 9000 \(line {_line_of('DB2001') + 1}\) and device 9001", line=k + 1)


def test_an_interval_with_no_activity(tmp_path):
    end = _line_of("C A C H E")
    lines = []
    for ln in LINES[:end]:
        if ln.startswith(" SG"):
            cells = ln.split()
            ln = ln.replace(cells[7], "0.000").replace(f" {cells[17]} ", " 0.00 ")
        lines.append(ln)
    p = _write(tmp_path, lines)
    _fails([p], r"interval 1 \(2026-11-25 09:00:00\) shows no activity", line=1)


def test_duplicate_volsers_in_xml_name_the_row(tmp_path):
    text = (DATA / "sysa-0900-full.xml").read_text()
    p = tmp_path / "dup.xml"
    p.write_text(text.replace("<col>DB2002</col>", "<col>DB2001</col>", 1))
    err = _fails([p], r"volume serial DB2001 appears twice .*devices 9000 and 9001")
    assert err.line is not None and "DB2001" in p.read_text().splitlines()[err.line - 1]


def test_a_bad_cell_in_xml_names_its_line(tmp_path):
    text = (DATA / "sysa-0900-full.xml").read_text()
    p = tmp_path / "bad.xml"
    p.write_text(text.replace("<col>245.301</col>", "<col>24x.301</col>", 1))
    err = _fails([p], r"Device Activity Rate: '24x.301' is not a number")
    assert "24x.301" in p.read_text().splitlines()[err.line - 1]


# ---- issue 39: files that are no report, or not in the encoding expected ------------------
def test_a_utf16_listing_is_decoded_not_called_binary_smf(tmp_path):
    """A Windows editor's "Unicode" save: before, 'the file is binary … SMF records'."""
    want = read_reports([FULL]).interval
    for enc in ("utf-16", "utf-16-le", "utf-32"):
        p = tmp_path / f"{enc}.txt"
        p.write_bytes(FULL.read_text().encode(enc))
        assert read_reports([p]).interval == want, enc


def test_a_utf16_xml_file_says_so(tmp_path):
    p = tmp_path / "u16.xml"
    p.write_bytes((DATA / "sysa-0900-full.xml").read_text().encode("utf-16"))
    _fails([p], r"the file is UTF-16 \(a Windows editor's \"Unicode\"\) but its XML declaration "
                r"says utf-8: save it as UTF-8 \(iconv -f UTF-16 -t UTF-8\)", line=1)


@pytest.mark.parametrize("encoding,match", [
    ("x-klingon", 'encoding="x-klingon", an encoding no one knows'),
    ("shift_jis", 'encoding="shift_jis", an encoding the XML reader cannot read'),
])
def test_an_xml_encoding_that_cannot_be_read(tmp_path, encoding, match):
    text = (DATA / "sysa-0900-full.xml").read_text()
    p = tmp_path / "enc.xml"
    p.write_text(text.replace('encoding="UTF-8"', f'encoding="{encoding}"', 1))
    _fails([p], match, line=1)


def test_an_unknown_encoding_straight_to_the_xml_parser(tmp_path):
    """The DDS's answer goes to the parser without the file check: the same error type."""
    import io

    from models.rmf import ddsml
    data = (DATA / "sysa-0900-full.xml").read_bytes().replace(b'"UTF-8"', b'"x-klingon"', 1)
    with pytest.raises(RmfError, match="an encoding no one knows"):
        ddsml.parse(io.BytesIO(data), lambda rep: None, "https://dds:8803/gpm/rmfpp.xml")


def test_a_folder_or_a_device_is_not_a_regular_file(tmp_path):
    with pytest.raises(RmfError, match="this is a folder, not a regular file: name the report "
                                       "files in it"):
        read_reports([tmp_path])
    with pytest.raises(RmfError, match=r"/dev/zero: not a regular file \(a device"):
        read_reports(["/dev/zero"])
    with pytest.raises(RmfError, match="no such file"):
        read_reports([tmp_path / "nope.txt"])
