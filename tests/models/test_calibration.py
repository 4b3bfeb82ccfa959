"""The validator's arithmetic: tolerances, ratios against a baseline."""
import math

from models.studies import calibration


def test_check_tolerances():
    assert calibration.check(1.1, {"value": 1.0, "rel_tol": 0.1})
    assert not calibration.check(1.11, {"value": 1.0, "rel_tol": 0.1})
    assert calibration.check(12, {"value": 10, "abs_tol": 2})
    assert not calibration.check(13, {"value": 10, "abs_tol": 2})
    assert calibration.check(0.5, {"min": 0.45, "max": 0.65})
    assert not calibration.check(0.7, {"min": 0.45, "max": 0.65})
    assert not calibration.check(math.nan, {"min": 0, "max": 1})


def test_baseline_is_a_ratio_of_two_runs(monkeypatch):
    calls = []

    def fake_metrics(self, experiment, params):
        calls.append(dict(params))
        return {"m": 3.0 if params["x"] == 1 else 2.0}

    monkeypatch.setattr(calibration.Evaluator, "metrics", fake_metrics)
    v = calibration.Evaluator().evaluate({"id": "t", "experiment": "e", "params": {"x": 1},
                                          "metric": "m", "expect": {"min": 1.4, "max": 1.6},
                                          "baseline": {"x": 2}})
    assert v.model == 1.5 and v.ok
    assert calls == [{"x": 1}, {"x": 2}]


def test_bundled_targets_load():
    targets = calibration.load_targets()
    assert len(targets) > 40
    assert all(t["experiment"] for t in targets)


def test_a_crashing_model_fails_its_target_with_the_error(monkeypatch):
    from models import experiments

    def boom(name, params, seed=1):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(experiments, "run_experiment", boom)
    v = calibration.Evaluator().evaluate({"id": "t", "experiment": "db2_io", "params": {},
                                          "metric": "io_ms", "expect": {"value": 1, "rel_tol": 0.1}})
    assert not v.ok and v.model is None
    assert "ZeroDivisionError" in v.error
