"""Measured vs model names the figures a calibrated quantity was set from
(issue 41, part 3): accepted quantities only, by the figure's title."""
import copy

import pytest

from app import scenario_io
from models import experiments
from models.rmf import fitted
from models.rmf.calibrate import FITTED_TO, calibrate
from models.rmf.measured import TABLE_TITLE, figure_title


@pytest.fixture(scope="module")
def tuned():
    sc = scenario_io.load_case("rmf_sysa")
    calibrate(sc, experiments.run_experiment)
    return sc


def test_each_accepted_quantity_marks_the_figure_it_was_fitted_to(tuned):
    done = [e for e in tuned.imported["calibrated"] if not e.get("refused")]
    assert set(fitted.fitted(tuned.imported)) == {(e["component"], FITTED_TO[e["quantity"]])
                                                  for e in done}


def test_a_refused_quantity_marks_nothing(tuned):
    imported = copy.deepcopy(tuned.imported)
    first = imported["calibrated"][0]
    first["refused"] = "test"
    assert (first["component"], FITTED_TO[first["quantity"]]) not in fitted.fitted(imported)


def test_the_table_note_names_the_calibrated_figures_by_their_titles(tuned):
    result = experiments.run_experiment(tuned.experiment, {}, scenario=tuned)
    table = next(t for t in result.reports if t.title == TABLE_TITLE)
    assert "Calibrated, a quantity set from the figure: " in table.note
    assert "CONN ms of SGDB2" in table.note and "connect overhead per I/O" in table.note
    assert "conn_ms" not in table.note and "conn_overhead_ms" not in table.note
    bare = scenario_io.load_case("rmf_sysa")
    assert fitted.note(fitted.by_title(bare.imported, figure_title)) == ""
