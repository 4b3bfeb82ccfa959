"""A calibrated drawing is the calibrated baseline, not a what-if (issue 41):
"Calibrate to RMF" sets quantities on the cards, and the run of the drawing
it leaves is named the "calibrated baseline" in History, Compare and the
decks; a what-if made after it is named by its own change only."""
import copy

import pytest

from app import run_names, scenario_io
from models import experiments
from models.rmf.calibrate import calibrate


@pytest.fixture(scope="module")
def docs():
    sc = scenario_io.load_case("rmf_sysa")
    opened = sc.to_dict()
    calibrate(sc, experiments.run_experiment)
    return opened, sc.to_dict()


def on_ssd(doc: dict) -> dict:
    out = copy.deepcopy(doc)
    next(n for n in out["nodes"] if n["label"] == "SGDB2")["kind"] = "sg_ssd"
    return out


def test_a_calibrated_drawing_is_the_calibrated_baseline_not_a_what_if(docs):
    opened, tuned = docs
    name = run_names.run_name(opened, tuned)
    assert not name.is_whatif
    assert name.label == "calibrated baseline"
    assert run_names.changes(opened, tuned) == []


def test_a_what_if_after_calibration_is_named_by_its_own_change(docs):
    opened, tuned = docs
    name = run_names.run_name(opened, on_ssd(tuned))
    assert name.label == "what-if: SGDB2 on SSD"
    assert name.against == "what-if: SGDB2 on SSD, against the calibrated baseline"


def test_editing_a_calibrated_value_afterwards_is_a_what_if(docs):
    opened, tuned = docs
    edited = copy.deepcopy(tuned)
    sg = next(n for n in edited["nodes"] if n["label"] == "SGDB2")
    sg["properties"]["conn_overhead_ms"] = 1.0
    assert run_names.run_name(opened, edited).is_whatif


def test_a_drawing_whose_calibration_was_all_refused_is_the_baseline_as_imported(docs):
    opened, tuned = docs
    refused = copy.deepcopy(opened)
    refused["imported"]["calibrated"] = [dict(e, refused="test") for e in
                                         tuned["imported"]["calibrated"]]
    assert run_names.run_name(opened, refused).label == "baseline as imported"
