"""Predicting one interval from another's calibration (models/rmf/predict.py).

The quantities calibrated on one interval go onto the other interval's
cards of the same label with their values, each saying the interval it was
calibrated on; nothing is fitted to the interval predicted; a card the
other interval does not draw is named and skipped.
"""
import re
from pathlib import Path

import pytest

from models.experiments import run_experiment
from models.rmf import read_reports
from models.rmf import calibrate as cal
from models.rmf import predict as pr
from models.rmf.drawing import build

MANY = str(Path(__file__).resolve().parents[2] / "data" / "rmf" / "sysa-many-intervals.xml")


@pytest.fixture(scope="module")
def calibrated():
    sc = build(read_reports([MANY], interval=1))
    cal.calibrate(sc, run_experiment)
    return sc


def _properties(sc, e) -> object:
    card = next(n for n in sc.nodes.values() if n.label == e["component"])
    return card.properties.get(cal.QUANTITIES[e["quantity"]][1])


def test_carried_quantities_keep_their_values_on_the_cards_and_name_the_interval(calibrated):
    fitted = [e for e in cal.entries(calibrated.imported) if not e.get("refused")]
    assert fitted
    sc_b = build(read_reports([MANY], interval=3))
    carried, left = pr.carry(calibrated, sc_b, "interval 1 (2026-11-25 09:00:00)")
    assert left == []
    assert sc_b.imported["calibrated"] == carried
    assert [(e["component"], e["quantity"], e["value"], e["unit"]) for e in carried] == \
        [(e["component"], e["quantity"], e["value"], e["unit"]) for e in fitted]
    for e, a in zip(carried, fitted):
        assert _properties(sc_b, e) == a["value"]          # what the model runs
        assert e["from"] == f"calibrated on interval 1 (2026-11-25 09:00:00): {a['from']}"


def test_a_card_the_other_interval_does_not_draw_is_named_and_skipped(calibrated):
    sc_b = build(read_reports([MANY], interval=2))
    gone = next(e for e in cal.entries(calibrated.imported) if not e.get("refused"))
    card = next(n for n in sc_b.nodes.values() if n.label == gone["component"])
    card.label = "renamed"
    carried, left = pr.carry(calibrated, sc_b, "interval 1")
    assert gone["component"] not in {e["component"] for e in carried}
    assert left == [f"{cal.title(e)} of {e['component']}: {e['component']} is not drawn in "
                    "this interval" for e in cal.entries(calibrated.imported)
                    if e["component"] == gone["component"] and not e.get("refused")]


def test_a_quantity_refused_where_it_was_calibrated_is_not_carried(calibrated):
    sc_a = build(read_reports([MANY], interval=1))
    sc_a.imported["calibrated"] = [dict(e, value=-1.0) if k == 0 else e
                                   for k, e in enumerate(calibrated.imported["calibrated"])]
    bad = sc_a.imported["calibrated"][0]
    carried, left = pr.carry(sc_a, build(read_reports([MANY], interval=2)), "interval 1")
    assert bad["component"] not in {e["component"] for e in carried if
                                    e["quantity"] == bad["quantity"]}
    assert left == [f"not used on interval 1 either (refused there): {cal.title(bad)} of "
                    f"{bad['component']}"]


def test_the_predicted_interval_is_not_calibrated_on_its_own_figures(tmp_path):
    """Interval 3's CONN doubled: the prediction carries interval 1's overhead
    and misses it, where a calibration on interval 3 would have fitted it."""
    text = Path(MANY).read_text()
    start = text.rindex("<postprocessor>", 0, text.index("09.30.00</display-start>"))
    end = text.index("</postprocessor>", start)
    # CONN is the third cell from the end (% Dev Util, % Dev Resv follow it)
    doubled = re.sub(r"<col>([\d.]+)</col>(<col>[\d.]+</col><col>[\d.]+</col></row>)",
                     lambda m: f"<col>{2 * float(m[1]):.3f}</col>{m[2]}", text[start:end])
    assert doubled != text[start:end]
    recording = tmp_path / "conn-doubled.xml"
    recording.write_text(text[:start] + doubled + text[end:])
    fitted, [b] = pr.predict([str(recording)], 1, [3], run_experiment)
    assert [e["value"] for e in b.calibrated] == \
        [e["value"] for e in fitted.calibrated if not e.get("refused")]
    conn = {c.label: c for c in b.checks if c.key == "conn_ms"}
    assert conn and all(not c.ok and c.error / c.measured < -0.4 for c in conn.values())
    assert all(c.ok for c in fitted.checks if c.key == "conn_ms")
