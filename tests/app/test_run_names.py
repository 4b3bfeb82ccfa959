"""A what-if says it is one: runs named baseline or what-if, and charts that
never set RMF's bars against a what-if called "model" (issue 40, item 4)."""
import copy

import pytest

from app import run_names, scenario_io
from app.document import Document
from app.replay import series
from models import experiments


def sysa() -> dict:
    return scenario_io.load_case("rmf_sysa").to_dict()


def on_ssd(doc: dict, label: str = "SGDB2") -> dict:
    """``doc`` with the storage group ``label`` on SSD (its kind changed in place)."""
    out = copy.deepcopy(doc)
    node = next(n for n in out["nodes"] if n["label"] == label)
    node["kind"] = "sg_ssd"
    return out


@pytest.fixture(scope="module")
def runs():
    base = sysa()
    what = on_ssd(base)
    return (base, what, experiments.run_experiment(base["experiment"], {}, scenario=base),
            experiments.run_experiment(what["experiment"], {}, scenario=what))


def test_an_imported_drawing_as_opened_is_the_baseline_as_imported():
    doc = sysa()
    name = run_names.run_name(doc, copy.deepcopy(doc))
    assert not name.is_whatif and name.label == "baseline as imported"
    assert name.beside_rmf() == "model"


def test_a_case_study_as_opened_is_the_baseline():
    doc = scenario_io.load_case("db2_io").to_dict()
    assert run_names.run_name(doc, copy.deepcopy(doc)).label == "baseline"


def test_a_kind_changed_after_import_is_a_what_if_named_by_its_change():
    doc = sysa()
    name = run_names.run_name(doc, on_ssd(doc))
    assert name.label == "what-if: SGDB2 on SSD"
    assert name.against == "what-if: SGDB2 on SSD, against the baseline as imported"
    assert name.beside_rmf() == "what-if: SGDB2 on SSD"


def test_the_document_knows_its_run_is_a_what_if():
    """The app tells a what-if from the baseline by the drawing the run ran
    against the drawing as opened."""
    doc = Document(scenario_io.load_case("rmf_sysa"))
    doc.set_result(object(), doc.snapshot())
    assert doc.run_name().label == "baseline as imported"
    doc.set_result(object(), on_ssd(doc.snapshot()))
    assert doc.run_name().label == "what-if: SGDB2 on SSD"


def test_a_channel_group_protocol_change_reads_as_the_new_protocol():
    change = {"component": "FICON CHPIDs", "property": "device",
              "old": "FICON channel group", "new": "zHPF channel group"}
    assert run_names.change_text(change) == "FICON CHPIDs on zHPF"


def test_a_what_ifs_measured_charts_never_call_it_model(runs):
    *_, whatif = runs
    charts = {c.key: c for c in series.derive_charts(whatif, "what-if: SGDB2 on SSD")}
    rate = charts["measured_rate"]
    assert [s.name for s in rate.series] == ["measured (RMF)", "what-if: SGDB2 on SSD"]
    assert rate.title == "Measured vs what-if (SGDB2 on SSD): I/O rate"
    resp = charts["measured_response"]
    assert "SGDB2\nwhat-if" in resp.categories and not any("model" in c for c in resp.categories)
    header_and_rows = charts["measured_hit"].csv_rows()
    assert {row[0] for row in header_and_rows[1:]} == {"measured (RMF)", "what-if: SGDB2 on SSD"}


def test_rmf_stands_beside_baseline_and_what_if_each_labelled(runs):
    _, _, base, whatif = runs
    charts = {c.key: c for c in series.measured_beside(base, whatif, "baseline as imported",
                                                        "what-if: SGDB2 on SSD")}
    rate = charts["measured_rate"]
    assert [s.name for s in rate.series] == ["measured (RMF)", "baseline as imported",
                                             "what-if: SGDB2 on SSD"]
    assert rate.categories == ("SGDB2", "SGTSO")
    resp = charts["measured_response"]
    assert resp.categories[:3] == ("SGDB2\nRMF", "SGDB2\nbaseline", "SGDB2\nwhat-if")
    total = sum(s.y for s in resp.series)
    # SSD takes the drives' seek and rotation out of SGDB2's DISC.
    assert total[2] < 0.6 * total[1]


def test_align_puts_the_groups_in_the_other_sides_order():
    import numpy as np
    data = series.ChartData("x", "t", "", "", "y", "", (
        series.Series("s", np.arange(3.0), np.array([1.0, 2.0, 3.0]), "bar"),), ("B", "C", "A"))
    out = series.align(data, ("A", "B", "C"))
    assert out.categories == ("A", "B", "C") and out.series[0].y.tolist() == [3.0, 1.0, 2.0]


def test_align_keeps_a_groups_bars_together():
    """RMF's and the run's bar of one group stay side by side whatever the
    other side calls its run."""
    import numpy as np
    cats = ("SGTSO\nRMF", "SGTSO\nwhat-if", "SGDB2\nRMF", "SGDB2\nwhat-if")
    data = series.ChartData("x", "t", "", "", "y", "", (
        series.Series("s", np.arange(4.0), np.arange(4.0), "stack"),), cats)
    out = series.align(data, ("SGDB2\nRMF", "SGDB2\nbaseline", "SGTSO\nRMF", "SGTSO\nbaseline"))
    assert out.categories == ("SGDB2\nRMF", "SGDB2\nwhat-if", "SGTSO\nRMF", "SGTSO\nwhat-if")
