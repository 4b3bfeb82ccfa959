"""Compare of the calibrated baseline and a what-if made from it (issue 41,
part 5): History names the runs "calibrated baseline" and "what-if: SGDB2 on
SSD", and the table beside RMF's figures heads its columns Measured,
calibrated baseline and what-if."""
import copy
import json

import pytest

from app import run_names, scenario_io
from app.history import RunRecord
from models import experiments
from models.rmf.calibrate import calibrate
from ui.compare import CompareView
from ui.history_panel import changes_text


@pytest.fixture(scope="module")
def runs():
    sc = scenario_io.load_case("rmf_sysa")
    opened = sc.to_dict()
    calibrate(sc, experiments.run_experiment)
    tuned = sc.to_dict()
    ssd = copy.deepcopy(tuned)
    next(n for n in ssd["nodes"] if n["label"] == "SGDB2")["kind"] = "sg_ssd"
    out = []
    for rid, doc in ((1, tuned), (2, ssd)):
        run = experiments.run_experiment("custom", scenario=doc)
        record = RunRecord(rid, 0.0, "custom", json.dumps(doc), "", dict(run.params), run.seed,
                           dict(run.metrics), tuple(run_names.changes(opened, doc)))
        out.append((record, run))
    return out


def test_history_names_the_calibrated_baseline_and_the_what_if(runs):
    (base, _), (ssd, _) = runs
    assert changes_text(base) == "calibrated baseline"
    assert changes_text(ssd) == "what-if: SGDB2 on SSD"


def test_compare_heads_measured_calibrated_baseline_and_what_if(runs, qtbot):
    (base, a), (ssd, b) = runs
    view = CompareView()
    qtbot.addWidget(view)
    view.show()
    view.set_results(a, b, f"Run #1: {changes_text(base)}", f"Run #2: {changes_text(ssd)}")
    t = view.measured_table
    assert t.isVisible()
    heads = [t.horizontalHeaderItem(c).text() for c in range(5)]
    assert heads == ["", "Measured", "calibrated baseline", "what-if",
                     "what-if / calibrated baseline"]
    assert t.horizontalHeaderItem(3).toolTip() == "Run #2: what-if: SGDB2 on SSD"
    # an uncalibrated baseline keeps the short heads
    view.set_results(a, b, "Run #1: baseline as imported", "Run #2: what-if: SGDB2 on SSD")
    assert [t.horizontalHeaderItem(c).text() for c in (2, 3)] == ["Run #1", "Run #2"]
