"""A small real engine run that emits every trace kind the charts read.

When these tests were written no experiment model had landed yet (every
``Experiment.run`` was ``None``), so the chart, sweep, history and export
tests build their RunResults here: a genuine discrete-event run on
``models.engine.Engine`` — volumes and a channel with queues, a control-unit
cache with hits and misses, disk timing from ``models.io.devices``, a Natural
-like unit of work switching between a zIIP and a general CP, and two tape
drives with cartridge changes — recording rows per docs/trace.md. The
numbers come out of that run; nothing is typed in. ``toy_run`` has the
signature of ``models.experiments.run_experiment`` so sweeps can use it in
worker processes.
"""
from __future__ import annotations

from models.engine import Counters, Engine, Resource, Trace
from models.io.devices import profile
from models.core.run import RunResult, Table

PAGE = 4096
CHANNEL_MB_S = 800.0        # FICON Express 8S class link (for this toy only)
PEND_S = 0.0001


def _io(eng, tr, k, vol, chp, cache, cnt, ios, disk, stats, first_id):
    rng = eng.stream(f"toy/io{first_id}")
    for io_id in range(first_id, first_id + ios):
        pages = rng.randint(1, 8)
        track = rng.randrange(0, 40)
        t0 = eng.now
        if tr is not None:
            tr.record(t0, vol[1], k["io_start"], io_id, pages)
            tr.record(t0, vol[1], k["io_phase"], io_id, 0)
        yield vol[0]
        t1 = eng.now
        if tr is not None:
            tr.record(t1, vol[1], k["io_phase"], io_id, 1)
        yield chp
        yield PEND_S
        t2 = eng.now
        hit = track in cache
        if tr is not None:
            tr.record(t2, 0, k["cache_hit" if hit else "cache_miss"], track, 1)
        if not hit:
            tr is not None and tr.record(t2, vol[1], k["io_phase"], io_id, 2)
            yield (disk.seek_ms(rng.random()) + disk.avg_latency_ms) / 1e3
            cache.add(track)
            tr is not None and tr.record(eng.now, 0, k["stage"], track, 2)
        t3 = eng.now
        tr is not None and tr.record(t3, vol[1], k["io_phase"], io_id, 3)
        yield pages * PAGE / (CHANNEL_MB_S * 1e6)
        chp.release()
        vol[0].release()
        tr is not None and tr.record(eng.now, vol[1], k["io_end"], io_id, 0)
        cnt.add("hits", hit)
        cnt.add("ios")
        stats["iosq"] += t1 - t0
        stats["pend"] += t2 - t1
        stats["disc"] += t3 - t2
        stats["conn"] += eng.now - t3
        yield rng.expovariate(400.0)


def _natural(eng, tr, k, cnt, records):
    """Enclave SRB work on zIIP0; every 5th record needs a TCB-mode service."""
    zi, cp = (tr.component("zIIP0"), tr.component("CP0")) if tr is not None else (0, 0)
    for rec in range(records):
        tr is not None and tr.record(eng.now, zi, k["cpu_busy"], 1, 40)
        cnt.add("ziip_us", 40)
        yield 40e-6
        if rec % 5 == 0:
            cause = rec // 5 % 3
            tr is not None and tr.record(eng.now, zi, k["srb_to_tcb"], 1, cause)
            tr is not None and tr.record(eng.now, cp, k["cpu_busy"], 1, 15)
            cnt.add("switches")
            cnt.add("gcp_us", 15)
            yield 15e-6
            tr is not None and tr.record(eng.now, cp, k["tcb_to_srb"], 1, cause)


def _tape(eng, tr, k, drive, blocks, change_s, per_cart):
    comp = tr.component(f"TAPE{drive}") if tr is not None else 0
    buf = tr.component("BUF") if tr is not None else 0
    for blk in range(blocks):
        if blk and blk % per_cart == 0:
            tr is not None and tr.record(eng.now, comp, k["tape_change_start"], blk // per_cart, 0)
            yield change_s
            tr is not None and tr.record(eng.now, comp, k["tape_change_end"], blk // per_cart, 0)
        yield 32768 / 3e6      # 3490 class drive, 3 MB/s
        tr is not None and tr.record(eng.now, comp, k["tape_write"], 32768, 1)
        if drive == 0:
            tr is not None and tr.record(eng.now, buf, k["buffer_level"], blocks - blk, blocks)


KINDS = ("io_start", "io_phase", "io_end", "cache_hit", "cache_miss", "stage", "cpu_busy",
         "srb_to_tcb", "tcb_to_srb", "tape_write", "tape_change_start", "tape_change_end",
         "buffer_level")


def toy_run(name: str = "toy", overrides: dict | None = None, seed: int = 1,
            trace: bool = True, **_ignored) -> RunResult:
    """Run the toy scenario. ``overrides``: ``ios`` (per volume), ``volumes``, ``device``."""
    p = {"ios": 60, "volumes": 2, "device": "HDD15K", **(overrides or {})}
    eng = Engine(seed)
    tr = Trace() if trace else None
    k = {n: tr.kind(n) for n in KINDS} if tr is not None else {n: 0 for n in KINDS}
    if tr is not None:
        tr.component("CU")
        tr.meta["causes"] = ["timer", "GETMAIN", "I/O wait"]
    chp, cache, cnt = Resource(eng, 1, "CHP0"), set(), Counters()
    stats = {"iosq": 0.0, "pend": 0.0, "disc": 0.0, "conn": 0.0}
    disk = profile(p["device"])
    for v in range(p["volumes"]):
        vol = (Resource(eng, 1, f"VOL{v}"), tr.component(f"VOL{v}") if tr is not None else 0)
        for user in range(2):   # two users per volume, so I/Os queue (IOSQ)
            first = (v * 2 + user) * p["ios"]
            eng.process(_io(eng, tr, k, vol, chp, cache, cnt, p["ios"], disk, stats, first))
    eng.process(_natural(eng, tr, k, cnt, 200))
    for d in range(2):
        eng.process(_tape(eng, tr, k, d, 40 + 20 * d, 0.05, 15))
    eng.run()
    n = max(1, cnt["ios"])
    metrics = {"iosq_ms": stats["iosq"] / n * 1e3, "pend_ms": stats["pend"] / n * 1e3,
               "disc_ms": stats["disc"] / n * 1e3, "conn_ms": stats["conn"] / n * 1e3,
               "cache_hit_ratio": cnt["hits"] / n, "srb_switches": float(cnt["switches"]),
               "ziip_cpu_ms": cnt["ziip_us"] / 1e3, "gcp_cpu_ms": cnt["gcp_us"] / 1e3,
               "elapsed_s": eng.now, "throughput_mb_s": cnt["ios"] * 4.5 * PAGE / 1e6 / eng.now}
    metrics["io_ms"] = sum(metrics[m] for m in ("iosq_ms", "pend_ms", "disc_ms", "conn_ms"))
    table = Table("Device activity", ("Volume", "IOSQ ms", "PEND ms", "DISC ms", "CONN ms"),
                  (("all", metrics["iosq_ms"], metrics["pend_ms"], metrics["disc_ms"],
                    metrics["conn_ms"]),))
    return RunResult(name, p, seed, metrics, (table,), tr)


def test_toy_run_is_deterministic_and_emits_every_kind():
    a, b = toy_run(seed=5), toy_run(seed=5)
    assert dict(a.metrics) == dict(b.metrics)
    assert set(KINDS) <= set(a.trace.kinds)
    assert 0 < a.metrics["cache_hit_ratio"] < 1


def test_toy_run_ssd_has_shorter_disconnect_than_hdd():
    hdd = toy_run(overrides={"device": "HDD10K"})
    ssd = toy_run(overrides={"device": "SSD"})
    assert ssd.metrics["disc_ms"] < hdd.metrics["disc_ms"]
