"""Replications: the seed list, the Student-t interval, intervals that shrink
as 1/sqrt(N), and the warm-up mechanism for models with open arrivals."""
import math

import numpy as np
import pytest

from models import experiments

from models.studies import replicate
from models.core.params import ParamError
from models.studies.replicate import after_warmup, estimate, seed_list, summarize, t_quantile
from models.core.run import RunContext, RunResult

#: Two-sided 95 % Student t from printed tables (4 decimals).
T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 9: 2.2622, 10: 2.2281,
           20: 2.0860, 29: 2.0452, 30: 2.0423, 60: 2.0003, 120: 1.9799, 1000: 1.9623}


def test_t_quantile_matches_the_printed_table():
    for df, want in T_TABLE.items():
        assert t_quantile(df) == pytest.approx(want, abs=6e-5), df
    assert t_quantile(10 ** 7) == pytest.approx(1.95996, abs=1e-5)


def test_seed_list_is_documented_and_replications_are_checked():
    assert seed_list(7, 4) == [7, 8, 9, 10]
    assert seed_list(2 ** 63 - 1, 2) == [2 ** 63 - 1, 0]
    for bad in (0, 1, 1001, True, 2.5):
        with pytest.raises(ParamError):
            replicate.check_replications(bad)


def test_estimate_is_mean_plus_minus_t_s_over_root_n():
    e = estimate([1.0, 2.0, 3.0, 4.0])
    half = T_TABLE[3] * np.std([1, 2, 3, 4], ddof=1) / 2
    assert e.mean == 2.5 and e.half == pytest.approx(half, rel=1e-4)
    assert estimate([5.0, 5.0, 5.0]).ci_json() == [5.0, 5.0]      # no spread, no noise
    assert estimate([1.0, math.nan]).ci_json() is None


def noisy_run(name, overrides, seed=1, scenario=None, progress=None, cancel=None, warmup_s=0.0):
    """A stand-in model: an open queue's mean response over a fixed horizon,
    honouring the warm-up with :func:`after_warmup`."""
    ctx = RunContext(seed, cancel=cancel, warmup_s=warmup_s)
    rng = np.random.default_rng(seed)
    times = np.sort(rng.uniform(0, 100, 400))
    resp = rng.exponential(2.0, 400) + np.where(times < 10, 5.0, 0.0)   # a cold start
    kept = after_warmup(ctx, times, resp, end_s=100.0)
    return RunResult(name, dict(overrides or {}), seed, {"resp_ms": float(kept.mean())},
                     components={"VOL1": {"busy_pct": float(kept.mean() * 10)}},
                     warmup_removed_s=ctx.warmup_removed_s)


def test_intervals_shrink_as_one_over_root_n():
    halves = {n: replicate.replicate("toy", {}, n, 1, run=noisy_run).metrics["resp_ms"].half
              for n in (4, 16, 64, 256)}
    assert halves[4] > halves[16] > halves[64] > halves[256]
    # Each fourfold N halves the interval, give or take the t factor and the noise.
    for a, b in ((16, 64), (64, 256)):
        assert 1.4 < halves[a] / halves[b] < 2.9, (a, b, halves)
    assert halves[4] / halves[256] == pytest.approx(8 * T_TABLE[3] / 1.969, rel=0.6)


def test_a_case_study_interval_shrinks_and_the_same_seeds_give_the_same_numbers():
    few = replicate.replicate("program_fetch", {}, 4, 11)
    again = replicate.replicate("program_fetch", {}, 4, 11)
    many = replicate.replicate("program_fetch", {}, 16, 11)
    assert few.as_json() == again.as_json()
    assert few.seeds == (11, 12, 13, 14) and many.seeds[:4] == few.seeds
    e4, e16 = few.metrics["elapsed_s"], many.metrics["elapsed_s"]
    assert 0 < e16.half < e4.half
    assert e16.lo < e4.mean < e16.hi
    # Replication 1 is the single run of the first seed.
    single = experiments.run_experiment("program_fetch", {}, seed=11)
    one = summarize([single, experiments.run_experiment("program_fetch", {}, seed=12)])
    assert one.metrics["excps"].mean == single.metrics["excps"]
    data = few.as_json()
    assert set(data["ci95"]) == set(data["metrics"])
    lo, hi = data["ci95"]["elapsed_s"]
    assert lo < data["metrics"]["elapsed_s"] < hi
    for label, figures in data["components"].items():
        assert set(data["components_ci95"][label]) == set(figures)


def test_warm_up_is_removed_where_the_model_honours_it_and_said_where_not():
    cold = replicate.replicate("toy", {}, 8, 1, run=noisy_run)
    warm = replicate.replicate("toy", {}, 8, 1, run=noisy_run, warmup_s=10.0)
    assert warm.metrics["resp_ms"].mean < cold.metrics["resp_ms"].mean - 0.3
    assert cold.warmup_line().startswith("Warm-up: none removed (none asked")
    assert warm.warmup_line() == "Warm-up: the first 10 s of each run removed from the figures."
    assert warm.as_json()["warmup"]["removed_s"] == [10.0] * 8
    closed = replicate.replicate("program_fetch", {}, 2, 1, warmup_s=5.0)
    assert closed.warmup_removed_s == (None, None)
    assert "none removed (5 s asked)" in closed.warmup_line()
    result = experiments.run_experiment("program_fetch", {}, warmup_s=5.0)
    assert result.warmup_removed_s is None and any("none removed" in n for n in result.notes)


def test_a_figure_only_some_seeds_measured_is_their_mean_and_says_so(capsys):
    """At a trickle of I/O some seeds see none: their mean response is no
    figure. It was averaged in as NaN and printed 'nan ± nan ms'."""
    from app.cli import main

    code = main(["run", "custom", "--set", "duration_s=0.01", "--set", "io_rate=50",
                 "--set", "cpu_demand=0.01", "--replications", "8"])
    out = capsys.readouterr().out
    assert code == 0 and "nan" not in out.lower()
    line = next(x for x in out.splitlines() if x.strip().startswith("I/O response time"))
    assert line.rstrip().endswith("of 8 seeds)") and " ms " in line, line
