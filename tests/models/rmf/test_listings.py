"""Issue 39, text listings: a report recognised by its table header when its
title line is missing, CPU Activity with SMT thread lines, the Synchronous
I/O (zHyperLink) section named as skipped, and the page header checked on
every page."""
from pathlib import Path

import pytest

from models.rmf import RmfError, read_reports

DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"
FULL = DATA / "sysa-0900-full.txt"
LINES = FULL.read_text().splitlines()
TITLES = [i for i, ln in enumerate(LINES) if ln.startswith("1 ")]


def _write(tmp_path, lines, name="r.txt"):
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return p


def _k(text):
    return next(i for i, ln in enumerate(LINES) if text in ln)


@pytest.fixture(scope="module")
def full():
    return read_reports([FULL]).interval


def test_reports_whose_title_lines_are_missing_read_the_same(tmp_path, full):
    """Every title line gone (pages pasted without them): each report is known
    by its table header and the page header above it, every figure the same."""
    p = _write(tmp_path, [ln for k, ln in enumerate(LINES) if k not in TITLES])
    system = read_reports([p])
    assert system.interval == full and system.interval.reports == full.reports
    said = [a for a in system.assumptions if a.what.startswith("report at line")]
    assert {a.value for a in said} >= {"Direct Access Device Activity", "Channel Path Activity",
                                       "CPU Activity", "ESS statistics"}
    assert all("title line is missing" in a.why for a in said)


def test_a_missing_title_between_two_reports_does_not_lose_the_second(tmp_path, full):
    k = _k("C H A N N E L")
    system = read_reports([_write(tmp_path, LINES[:k] + LINES[k + 1:])])
    assert system.interval.channels == full.channels and len(full.channels) == 5


def test_a_page_of_the_next_interval_without_its_title(tmp_path):
    """Its page header is read afresh: the rows go to 09:15, not to 09:00."""
    dev = LINES[:_k("C A C H E")]
    nxt = [ln.replace("09.15.00", "09.30.00").replace("09.00.00", "09.15.00")
           .replace("245.301", "100.000") for ln in dev[1:]]
    system = read_reports([_write(tmp_path, dev + nxt)])
    assert [(iv.start, iv.volumes["DB2001"].rate) for iv in system.intervals] == [
        ("2026-11-25T09:00:00", 245.301), ("2026-11-25T09:15:00", 100.0)]


def test_a_device_table_alone_on_a_slide(tmp_path):
    k = _k(" STORAGE  DEV")
    p = _write(tmp_path, [ln[1:] for ln in LINES[k - 1:_k("C A C H E")]])
    system = read_reports([p])
    assert sorted(system.interval.volumes) == ["DB2001", "DB2002", "DB2003", "DB2004",
                                               "TSO001", "TSO002"]
    unknown = {a.what for a in system.assumptions if a.value == "unknown"}
    assert unknown == {"interval start and length", "system"}


SMT_CPU = [
    "0---CPU---    ---------------- TIME % ----------------   --- MT % ----   LOG PROC"
    "      --I/O INTERRUPTS--",
    " NUM  TYPE    ONLINE    LPAR BUSY    MVS BUSY   PARKED   PROD   UTIL     SHARE %"
    "       RATE     % VIA TPI",
    "   0  CP     100.00      45.12        45.10      0.00   ------ ------   100.0  HIGH"
    "     1234      0.12",
    "   1  CP     100.00      44.80        44.77      0.00   ------ ------   100.0  HIGH"
    "     1234      0.12",
    " TOTAL/AVERAGE           44.96        44.94                              200.0",
    "   4  IIP    100.00      30.11        29.05      0.00    95.20  28.66   100.0  HIGH",
    "                                      27.80      0.00",
    "   5  IIP    100.00      28.40        28.36      0.00    94.10  26.72   100.0  HIGH",
    "                                      25.10      0.00",
    " TOTAL/AVERAGE           29.25        27.58                              200.0",
]


def test_cpu_activity_with_smt_thread_lines(tmp_path):
    """With multithreading each core has a line and each further thread a line
    of its own figures under it (SC34-2665): a core is one engine, its threads'
    MVS BUSY kept with it, nothing read as a processor of its own."""
    a, b = _k("0---CPU---"), _k("TOTAL/AVERAGE           29.25")
    p = _write(tmp_path, LINES[:a] + [" " + ln[1:] if ln[0] != "0" else ln for ln in SMT_CPU]
               + LINES[b + 1:])
    engines = read_reports([p]).interval.engines
    assert [(e.number, e.type, e.busy_pct, e.mvs_busy_pct, e.thread_mvs_busy_pct)
            for e in engines] == [("0", "CP", 45.12, 45.10, ()), ("1", "CP", 44.80, 44.77, ()),
                                  ("4", "zIIP", 30.11, 29.05, (27.80,)),
                                  ("5", "zIIP", 28.40, 28.36, (25.10,))]


SYNCH = [
    "                                          SYNCHRONOUS I/O DEVICE ACTIVITY",
    " STORAGE  DEV  DEVICE  NUMBER  VOLUME   LCU   ------ READ ------   ------ WRITE -----",
    " GROUP    NUM  TYPE    OF CYL  SERIAL         RATE  RESP  %SUCC   RATE  RESP  %SUCC",
    " SGDB2    9000 33909    10017  DB2001   0006  512.3  .020  98.1     0.0  .000   0.0",
    " SGDB2    9001 33909    10017  DB2002   0006  401.0  .021  97.9     0.0  .000   0.0",
]


def test_the_synchronous_io_section_is_named_as_skipped_not_read_as_volumes(tmp_path, full):
    k = _k("C A C H E")
    p = _write(tmp_path, LINES[:k] + SYNCH + LINES[k:])
    system = read_reports([p])
    assert system.interval.volumes == full.volumes
    assert system.skipped == [f"SYNCHRONOUS I/O (zHyperLink) DEVICE ACTIVITY, not read: "
                              f"zPerfLab draws no zHyperLink ({p}:{k + 1})"]


def test_a_volume_named_synch_is_a_volume(tmp_path):
    lines = [ln.replace("TSO001", "SYNCH1") for ln in LINES]
    system = read_reports([_write(tmp_path, lines)])
    assert "SYNCH1" in system.interval.volumes and len(system.interval.volumes) == 6
    assert system.skipped == []


def test_the_synchronous_io_report_under_its_own_title_is_named_once(tmp_path, full):
    title = "1" + "S Y N C H R O N O U S   I / O   D E V I C E   A C T I V I T Y".center(120)
    k = _k("C A C H E")
    p = _write(tmp_path, LINES[:k] + [title, LINES[1]] + LINES[2:4] + SYNCH[1:] +
               [title, LINES[1]] + LINES[2:4] + SYNCH[1:] + LINES[k:])
    system = read_reports([p])
    assert system.interval.volumes == full.volumes
    assert len(system.skipped) == 1 and "zHyperLink" in system.skipped[0]


def test_a_skipped_report_with_a_device_like_heading_is_not_read_as_devices(tmp_path, full):
    """The Shared DASD report heads its table much as the device report does; it is
    a report zPerfLab skips, and its rows (one per system) are no volumes."""
    title = "1" + "S H A R E D   D I R E C T   A C C E S S   D E V I C E   A C T I V I T Y" \
        .center(120)
    k = _k("C A C H E")
    rows = [ln.replace(" SGDB2    9000", " SYSA     9000") for ln in LINES[8:10]]
    p = _write(tmp_path, LINES[:k] + [title] + LINES[1:8] + rows + LINES[k:])
    system = read_reports([p])
    assert system.interval.volumes == full.volumes
    assert system.skipped == [f"SHARED DIRECT ACCESS DEVICE ACTIVITY ({p}:{k + 1})"]


# ---- bad input ---------------------------------------------------------------------
@pytest.mark.parametrize("title", TITLES)
def test_a_row_before_its_page_header_in_every_report_kind(tmp_path, title):
    """``sed '3d'`` of each report: its header line gone, the first row it reaches is
    one line naming file and line (before: an internal error for every kind)."""
    end = next((k for k in TITLES if k > title), len(LINES))
    report = LINES[title:end]
    p = _write(tmp_path, report[:2] + report[3:])
    with pytest.raises(RmfError, match="this row comes before the page header gave the "
                                       "system, the start and the interval") as e:
        read_reports([p])
    assert e.value.file == str(p) and e.value.line is not None and e.value.line > 2
    assert p.read_text().splitlines()[e.value.line - 1].split()


def test_a_duplicated_cpu_row_names_both_lines(tmp_path):
    k = _k("   1  CP")
    p = _write(tmp_path, LINES[:k + 1] + LINES[k:])
    with pytest.raises(RmfError, match=rf"CPU 1 appears twice in the interval of 2026-11-25 "
                                       rf"09:00:00 \(lines {k + 1} and {k + 2}\)") as e:
        read_reports([p])
    assert e.value.line == k + 2


def test_the_same_listing_given_twice_still_reads(tmp_path, full):
    p = _write(tmp_path, LINES, "copy.txt")
    assert read_reports([FULL, p]).interval == full


def test_a_device_overview_row_before_its_subsystem_line(tmp_path):
    """Found by the fuzz: the cache report's first page gone, its overview page
    names no control unit (an internal error before)."""
    first, second = TITLES[1], TITLES[2]
    lines = LINES[:first] + LINES[second:]
    row = next(i for i, ln in enumerate(lines) if ln.startswith(" DB2001   9000"))
    with pytest.raises(RmfError, match="device overview row of DB2001 before any SUBSYSTEM "
                                       r"line named its control unit \(SSID\)") as e:
        read_reports([_write(tmp_path, lines)])
    assert e.value.line == row + 1


def test_a_page_header_whose_date_is_no_date(tmp_path):
    k = _k("START 11/25/2026-09.00.00")
    lines = list(LINES)
    lines[k] = lines[k].replace("11/25/2026-09.00.00", "13/45/2026-09.00.00")
    with pytest.raises(RmfError, match=r"date and time \(2026-13-45 09:00:00\) is no date") as e:
        read_reports([_write(tmp_path, lines)])
    assert e.value.line == k + 1


@pytest.mark.parametrize("row,old,new,report", [
    ("DB2003", "9002 33909", "9z02 33909", "Direct Access Device Activity"),
    (" DB2003   9002 0000", "9002 0000", "9O02 0000", "Cache Subsystem Activity"),
    (" 50  FC_S", " 50  FC_S", " 5#  FC_S", "Channel Path Activity"),
])
def test_a_row_of_figures_that_names_nothing_known_is_listed(tmp_path, full, row, old, new,
                                                              report):
    """A damaged device number or CHPID: the row is said not read, not lost in silence."""
    k = _k(row)
    lines = list(LINES)
    lines[k] = lines[k].replace(old, new)
    p = _write(tmp_path, lines)
    system = read_reports([p])
    (said,) = system.skipped
    assert said.startswith(f"a row of {report} that names nothing zPerfLab knows, not read: '")
    assert said.endswith(f"({p}:{k + 1})")
