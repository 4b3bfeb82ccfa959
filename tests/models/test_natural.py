"""The Natural session: switches follow counted events, CPU follows switches."""
import math

import pytest

from models.studies.calibration import check, load_targets
from models.cpu import ProcessorComplex
from models.engine import Engine, Trace
from models.experiments import get, run_experiment
from models.natural import (STORAGE_INCREMENT_KB, FetchPrograms, NaturalSession, Profile,
                            WriteLines)
from models.core.run import RunContext


def _metrics(**params):
    return run_experiment("natural_ziip", params).metrics


def _session(program, **profile):
    eng = Engine(1)
    cpx = ProcessorComplex(eng)
    session = NaturalSession(cpx, Profile(**profile))
    eng.process(session.run(program))
    eng.run()
    return cpx.account


@pytest.mark.parametrize("target", [t for t in load_targets() if t["id"].startswith("D")],
                         ids=lambda t: t["id"])
def test_published_natural_figures(target):
    value = _metrics(**target["params"])[target["metric"]]
    assert check(value, target["expect"]), (target["id"], value, target["expect"])


@pytest.mark.parametrize("n", [1, 3, 8, 64, 1000])
def test_adabas_switches_fall_as_one_call_per_multi_fetch(n):
    records = 10_000
    assert _metrics(records=records, multi_fetch=n, mt=0)["srb_switches"] == math.ceil(records / n)
    # MT > 0 adds exactly the timer request at program start.
    assert _metrics(records=records, multi_fetch=n, mt=60)["srb_switches"] == math.ceil(records / n) + 1


def test_enclave_cpu_falls_with_the_switches_avoided():
    cpu = [_metrics(records=20_000, multi_fetch=n)["cpu_ms"] for n in (1, 2, 8, 64)]
    assert cpu == sorted(cpu, reverse=True)
    # What multi-fetch saves is what the avoided round trips cost, nothing else.
    saved = cpu[0] - cpu[2]
    per_trip = saved / (20_000 - 2_500)
    assert 20 < per_trip * 1000 < 100     # tens of µs per avoided Adabas round trip


@pytest.mark.parametrize("cache_kb,line", [(132, 132), (8, 128), (64, 256), (1, 100)])
def test_print_cache_writes_one_buffer_at_a_time(cache_kb, line):
    lines = 5_000
    acc = _session((WriteLines(lines, line),), print_cache_kb=cache_kb, mt=0)
    per_buffer = cache_kb * 1024 // line
    assert acc.by_cause["put"] == math.ceil(lines / per_buffer)
    if (cache_kb * 1024) % line == 0:
        assert acc.by_cause["put"] == math.ceil(lines * line / (cache_kb * 1024))


def test_without_print_cache_every_line_is_a_switch():
    acc = _session((WriteLines(777, 80),), mt=0)
    assert acc.by_cause["put"] == acc.srb_to_tcb == 777


def test_work_file_cache_reads_buffers_and_opens_and_closes_once():
    plain = _metrics(operation="work_read", records=10_000, line_bytes=200, mt=0)
    cached = _metrics(operation="work_read", records=10_000, line_bytes=200, mt=0, work_cache_kb=32)
    assert plain["srb_switches"] == 10_000 + 2
    assert cached["srb_switches"] == math.ceil(10_000 / (32 * 1024 // 200)) + 2
    assert cached["cpu_ms"] < plain["cpu_ms"]      # the share kept: see below


def test_external_sort_switches_twice_per_record_internal_sort_not_at_all():
    n = 5_000
    ext = _metrics(operation="sort", records=n, multi_fetch=1000, mt=0, sort="external")
    nat = _metrics(operation="sort", records=n, multi_fetch=1000, mt=0, sort="natural",
                   thsize_kb=4096)
    reads = math.ceil(n / 1000)
    assert ext["srb_switches"] == reads + 1 + 2 * n          # LINK, E15 and E35 per record
    assert nat["srb_switches"] == reads + 2                  # thread GETMAIN + FREEMAIN
    assert nat["cpu_ms"] < ext["cpu_ms"]
    assert nat["ziip_share"] > ext["ziip_share"]


def test_internal_sort_without_thsize_getmains_its_storage_piecemeal():
    n, rb = 10_000, 132
    piece = math.ceil(n * rb / 1024 / STORAGE_INCREMENT_KB)
    m = _metrics(operation="sort", records=n, line_bytes=rb, multi_fetch=1000, mt=0,
                 sort="natural", thsize_kb=0)
    assert m["srb_switches"] == math.ceil(n / 1000) + 2 * piece


def test_mt_timer_and_thsize_getmains_per_fetched_program():
    n = 400
    prog = (FetchPrograms(n, data_kb=16),)
    base = _session(prog, mt=60, thsize_kb=0)
    assert base.by_cause["timer"] == n + 1            # main program + each fetch
    assert base.by_cause["getmain"] == base.by_cause["freemain"] == n
    no_mt = _session(prog, mt=0, thsize_kb=0)
    assert no_mt.srb_to_tcb == base.srb_to_tcb - (n + 1)
    thread = _session(prog, mt=0, thsize_kb=256)
    assert thread.by_cause["getmain"] == thread.by_cause["freemain"] == 1
    assert thread.us() < no_mt.us() < base.us()


def test_3gl_calls_always_switch():
    m0 = _metrics(records=2_000, multi_fetch=100, calls_3gl=0)
    m3 = _metrics(records=2_000, multi_fetch=100, calls_3gl=3)
    assert m3["srb_switches"] - m0["srb_switches"] == 3 * 2_000
    assert m3["gcp_cpu_ms"] > m0["gcp_cpu_ms"]


def test_ziip_and_cp_time_add_up_and_no_ziip_puts_all_on_cps():
    m = _metrics(records=5_000)
    assert m["ziip_cpu_ms"] + m["gcp_cpu_ms"] == pytest.approx(m["cpu_ms"])
    assert m["ziip_cpu_ms"] > 0
    none = _metrics(records=5_000, ziips=0)
    assert none["ziip_cpu_ms"] == 0
    assert none["cpu_ms"] == pytest.approx(m["cpu_ms"])


@pytest.mark.parametrize("params", [
    {"records": 20_000, "multi_fetch": 7, "calls_3gl": 1},
    {"operation": "print", "records": 9_999, "print_cache_kb": 16},
    {"operation": "fetch_programs", "records": 3_000, "thsize_kb": 64},
    {"operation": "sort", "records": 3_000, "sort": "external"},
])
def test_aggregated_round_trips_equal_one_event_per_switch(params):
    fast = run_experiment("natural_ziip", params)            # aggregates when exact
    exp = get("natural_ziip")
    # Tracing forces an event per switch. (RunContext directly: run_experiment
    # drops an empty Trace because it is falsy.)
    slow = exp.run(exp.resolve(params), RunContext(seed=1, trace=Trace()))
    for k in ("srb_switches", "cpu_ms", "ziip_cpu_ms", "gcp_cpu_ms", "elapsed_ms"):
        assert fast.metrics[k] == pytest.approx(slow.metrics[k], rel=1e-9), k
    tr = slow.trace
    switches = tr.of_kind(["srb_to_tcb"])
    assert len(switches) == slow.metrics["srb_switches"]


def test_background_load_stretches_elapsed_time_not_cpu():
    calm = _metrics(records=5_000, background_util=0.0, ziip_help=False)
    busy = _metrics(records=5_000, background_util=0.7, ziip_help=False)
    assert busy["cpu_ms"] == pytest.approx(calm["cpu_ms"])
    assert busy["elapsed_ms"] > 1.5 * calm["elapsed_ms"]


def test_extremes_run_and_stay_consistent():
    one = _metrics(records=1, operation="print", print_cache_kb=4096, line_bytes=32760)
    assert one["srb_switches"] == 2
    big = _metrics(records=100_000_000, multi_fetch=1000, mt=0)
    assert big["srb_switches"] == 100_000
    long_line = _metrics(operation="print", records=100, print_cache_kb=1, line_bytes=5000, mt=0)
    assert long_line["srb_switches"] == 100      # a line longer than the cache is written alone


def test_cached_work_file_still_costs_a_large_share_of_the_uncached_cpu():
    """D: the work-file cache removes the GET switches, not the per-record
    work (loop statement, record move, field conversions), so a cached
    work file keeps a large share of its CPU, unlike a cached print file."""
    plain = _metrics(operation="work_read", records=10_000)
    cached = _metrics(operation="work_read", records=10_000, work_cache_kb=64)
    assert cached["srb_switches"] < 0.01 * plain["srb_switches"]
    assert 0.3 < cached["cpu_ms"] / plain["cpu_ms"] < 0.7
    p_plain = _metrics(operation="print", records=10_000)
    p_cached = _metrics(operation="print", records=10_000, print_cache_kb=132)
    assert p_cached["cpu_ms"] / p_plain["cpu_ms"] < 0.3
    # A work-file record costs more than a print line once the switches are gone.
    assert cached["cpu_ms"] > 2 * p_cached["cpu_ms"]


def test_the_traced_cpu_of_each_engine_adds_up_to_its_busy_time():
    """The replay sums the trace's CPU slices; rounded one by one to whole µs
    they drifted (the animation's zIIP 30,012 µs against the run's 30.276 ms):
    each engine's slices now add up to its reported busy time."""
    from models.engine import trace_vocab as V
    from models.experiments import run_experiment

    res = run_experiment("natural_ziip", trace=True)
    rows = res.trace.of_kind([V.CPU_BUSY])
    busy = {row[0]: row[1] for row in next(t for t in res.reports
                                             if t.title.startswith("CPU activity")).rows}
    for engine, ms in busy.items():
        comp = res.trace.components.index(engine) if engine in res.trace.components else -1
        traced_us = int(rows["b"][rows["comp"] == comp].sum())
        assert traced_us == pytest.approx(ms * 1000, abs=1.0), engine
