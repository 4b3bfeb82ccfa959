"""``zperflab predict``: calibrate on one interval of a recording, predict another.

On the four-interval sample (09:00 to 09:45, the third the busiest) the
command prints, per figure RMF measured of the predicted interval, the
measured and predicted values, the error and the tolerance, with a summary
line for each interval; bad input is one line, status 2.
"""
import json
import re
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[2]
MANY = str(ROOT / "tests" / "data" / "rmf" / "sysa-many-intervals.xml")
ONE = str(ROOT / "tests" / "data" / "rmf" / "sysa-0900-full.xml")
SUMMARY = r"\d+ of \d+ figures within tolerance \(\d+ %\)"


def test_predicting_the_busiest_interval_from_the_first_prints_each_figure_and_a_summary(
        capsys):
    assert main(["predict", MANY, "--calibrate-on", "1", "--predict", "3"]) == 0
    out = capsys.readouterr().out
    assert "Predicted interval 3 (2026-11-25 09:30:00)" in out
    head = next(line for line in out.splitlines() if line.split()[:2] == ["card", "figure"])
    assert head.split() == ["card", "figure", "measured", "predicted", "error", "tolerance",
                            "within"]
    # interval 3's own workload: its I/O rate (1,224/s), not the 524/s of the interval
    # calibrated on, and the model runs it (within 5 %): an input, said so
    rate = next(line for line in out.splitlines() if re.match(r"\s+SGDB2\s+I/O rate", line))
    assert "1,224" in rate and rate.split()[-4:] == ["5", "%", "yes", "input"]
    resp = next(line for line in out.splitlines() if re.match(r"\s+SGTSO\s+resp ms", line))
    assert "30 % or 0.03 ms" in resp and resp.split()[-1] in ("yes", "no")
    own = r"; the model's own: \d+ of 14 \(\d+ %\)"
    assert re.search(r"interval 1 \(2026-11-25 09:00:00\), fitted \(calibrated on itself\): "
                     + SUMMARY + own, out)
    assert re.search(r"interval 3 \(2026-11-25 09:30:00\), predicted: " + SUMMARY + own, out)
    assert "interval 2 (" not in out and "interval 4 (" not in out


def test_by_default_every_other_interval_is_predicted_from_the_first(capsys):
    assert main(["predict", MANY, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["calibrated_on"]["interval"] == 1
    assert [p["interval"] for p in got["predicted"]] == [2, 3, 4]
    for p in got["predicted"]:
        assert re.fullmatch(SUMMARY, p["summary"]) and p["figures"] == len(p["checks"]) > 0
        row = p["checks"][0]
        assert set(row) >= {"card", "figure", "measured", "model", "error", "tolerance",
                            "within", "input"}
        assert p["modelled"] == sum(not c["input"] for c in p["checks"]) > 0


def test_carried_quantities_keep_their_values_and_say_where_they_came_from(capsys):
    assert main(["predict", MANY, "--predict", "2", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    fitted = {(e["component"], e["quantity"]): e for e in got["calibrated_on"]["calibrated"]
              if not e.get("refused")}
    carried = {(e["component"], e["quantity"]): e for e in got["predicted"][0]["calibrated"]}
    assert fitted and carried.keys() == fitted.keys()
    for key, e in carried.items():
        assert e["value"] == fitted[key]["value"]
        assert e["from"] == "calibrated on interval 1 (2026-11-25 09:00:00): " + \
            fitted[key]["from"]


@pytest.mark.parametrize("args, said", [
    (["--predict", "9"], "there is no interval 9: the recording holds 4"),
    (["--calibrate-on", "9"], "there is no interval 9"),
    (["--predict", "1"], "interval 1 is the one calibrated on"),
    (["--predict", "two"], "'two' is not a whole number from 1"),
])
def test_an_interval_not_there_is_one_line_status_2(args, said, capsys):
    assert _status(["predict", MANY, *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and said in err and err.count("\n") == 1


def _status(argv: list[str]) -> int:
    """The exit status, whether main returns it or argparse exits with it."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


def test_a_recording_of_one_interval_is_one_line_status_2(capsys):
    assert main(["predict", ONE]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "holds one interval, interval 1 (2026-11-25 09:00:00): a prediction needs " \
           "another interval of the same system" in err


def test_another_systems_interval_is_refused_when_asked_and_said_by_default(tmp_path, capsys):
    text = Path(MANY).read_text()
    cut = text.rindex("<postprocessor>", 0, text.index("09.45.00</display-start>"))
    mixed = tmp_path / "two-systems.xml"
    mixed.write_text(text[:cut] + text[cut:].replace("<resname>SYSA<", "<resname>SYSB<"))
    assert main(["predict", str(mixed), "--predict", "4"]) == 2
    assert "it is of system SYSB, interval 1 (2026-11-25 09:00:00) of SYSA" in \
        capsys.readouterr().err
    assert main(["predict", str(mixed)]) == 0
    out = capsys.readouterr().out
    assert "interval 4 (2026-11-25 09:45:00): not predicted: it is of system SYSB" in out
    assert re.search(r"interval 3 \(2026-11-25 09:30:00\), predicted: " + SUMMARY, out)


DDS = ROOT.parent / "shared" / "rmf" / "dds-zos25"


def test_real_dds_answers_with_no_report_in_two_intervals_say_why_in_one_sentence(capsys):
    """z/OS 2.5 DDS answers: CHAN of one day, DEVICE and CACHE of the next.
    Nothing can be predicted, and the line says why in words a user reads."""
    files = [str(DDS / f) for f in ("device.xml", "cache.xml", "chan.xml")]
    assert main(["predict", *files]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "nothing to predict: no other interval of RPRT has a report that interval 1 " \
           "(2022-07-26 00:00:00) has (CHAN)" in err
    assert err.endswith("no two of its intervals have a report in common, and a prediction "
                        "needs one")
