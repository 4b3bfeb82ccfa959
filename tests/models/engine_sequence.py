"""Run a small model and print, as JSON, every event it ran in order.

``tests/models/test_engine_compiled.py`` runs this twice in fresh
interpreters, once with the compiled engine (when one is built) and once
with ``ZPERFLAB_ENGINE=python``, and compares the two outputs.

The toy model uses every part of the engine: scheduled callbacks at equal
times and priorities, processes yielding float and int timeouts, events,
other processes, a FIFO resource taken by yielding it and by request, a
priority resource, a store, a queued request withdrawn, the queue's
statistics while it holds waiters, ``all_of``, ``timeout``, interrupts of a process
waiting on a timeout and on an event, ``step``, ``peek`` and ``run(until)``.
Times sit on a coarse grid, so many events tie on time and their order rests
on (priority, seq). Real models follow (every figure and a digest of
their traces, as in tests/models/fixed_runs.py), chosen to run every path of
the compiled I/O model (models/io/__init__.py), and which I/O modules were
loaded from their builds.

    .venv/bin/python -m tests.models.engine_sequence
"""
from __future__ import annotations

import json
import sys

from models.engine import COMPILED, Engine, Interrupt, PriorityResource, Resource, Store


def toy_events() -> list:
    eng = Engine(seed=3)
    rng = eng.stream("toy")
    log: list = []
    disk = Resource(eng, 2, "disk")
    cpu = PriorityResource(eng, 1, "cpu")
    buf = Store(eng, capacity=2)

    def note(label):
        log.append([eng.now, label])

    def grid() -> float:
        return rng.randrange(0, 6) * 0.5

    def user(i: int):
        yield grid()
        if i % 2:
            yield disk                      # acquire by yielding the resource
            note(f"u{i} disk")
            yield rng.randrange(1, 3)       # an int timeout
            disk.release()
        else:
            req = disk.request(priority=i)
            yield req
            note(f"u{i} disk req")
            yield grid()
            disk.release(req)
        req = cpu.request(priority=rng.randrange(0, 3))
        yield req
        note(f"u{i} cpu")
        yield 0.5
        cpu.release(req)
        yield buf.put(i)
        note(f"u{i} put")
        return i * 10

    def consumer():
        for _ in range(8):
            item = yield buf.get()
            note(f"got {item}")
            yield grid()

    def sleeper(ev):
        try:
            yield 100.0
        except Interrupt as stop:
            note(f"sleeper interrupted {stop.cause}")
        try:
            yield ev
        except Interrupt as stop:
            note(f"waiter interrupted {stop.cause}")
        value = yield eng.timeout(1.5, "late")
        note(f"timeout {value}")

    def boss(users, sleeper_proc):
        done = yield eng.all_of(users)
        note(f"all done {done}")
        sleeper_proc.interrupt("one")
        yield 0.0
        sleeper_proc.interrupt("two")
        first = yield users[0]              # a process that has already ended
        note(f"first {first}")

    def impatient():
        # A request that may still be queued when it is given up (withdrawn).
        yield 1.0
        req = disk.request()
        note(f"impatient queued {not req.triggered}, queue {disk.queue_length}")
        yield 0.5
        disk.release(req)
        note(f"impatient gave up, queue {disk.queue_length}")

    def watcher():
        # The FIFO queue's statistics while processes and requests wait in it.
        for _ in range(12):
            yield 0.5
            note(f"disk q {disk.queue_length} mean queue {disk.mean_queue():.12g} "
                 f"mean wait {disk.mean_wait():.12g} busy {disk.utilisation():.12g}")

    for k in range(6):
        eng.schedule(grid(), lambda a: note(f"cb {a}"), k, priority=k % 2)
    eng.process(impatient(), "impatient")
    eng.process(watcher(), "watcher")
    users = [eng.process(user(i), f"u{i}") for i in range(8)]
    eng.process(consumer(), "consumer")
    ev = eng.event()
    sleeper_proc = eng.process(sleeper(ev), "sleeper")
    eng.process(boss(users, sleeper_proc), "boss")
    for _ in range(5):
        note(f"peek {eng.peek()}")
        eng.step()
    eng.run(until=4.0)
    note("until 4")
    eng.run()
    note(f"end, events {eng.events_run}")
    return log


def model_figures() -> dict:
    from tests.models.fixed_runs import run_case

    out: dict = {}
    # The I/O model's paths: zHPF reads with the LPO, sequential detection,
    # misses and fast writes over shared paths (io_config_scale), FICON
    # command mode and FEx8's split lists, cold-cache staging; the general
    # workload's open and closed arrivals (models/io/driver.py).
    for case in ("vsam_rls", "db2_index_scan", "io_config_scale", "db2_io_cold_ficon",
                 "custom_seq_writes", "custom_closed", "db2_runstats_sampling"):
        out.update(run_case(case))
    out.update(background_case())
    return out


def background_case() -> dict:
    """zHPF and FICON paths carrying a calibrated background busy (other
    systems' work queued on their timelines, models/io/paths.py), volumes a
    connect overhead per I/O (models/io/volume.py)."""
    from pathlib import Path

    from models.experiments import run_experiment
    from models.rmf import read_reports
    from models.rmf.drawing import build

    sample = Path(__file__).resolve().parents[1] / "data" / "rmf" / "sysa-0900-full.txt"
    sc = build(read_reports([str(sample)]), run_s=0.5)
    for n in sc.nodes.values():
        if n.category == "channel":
            n.properties["background_pct"] = 40.0
        elif n.category == "volume":      # and a connect overhead per I/O
            n.properties["conn_overhead_ms"] = 0.2
    res = run_experiment("custom", {}, seed=3, scenario=sc)
    return {f"background/{k}/{f}": float(v) for k, figs in res.components.items()
            for f, v in figs.items()}


def io_modules() -> dict:
    """Each module of models.io.COMPILED_MODULES: whether it was loaded from a build."""
    import importlib

    import models.io

    return {name: not importlib.import_module(f"models.io.{name}").__file__.endswith(".py")
            for name in models.io.COMPILED_MODULES}


def main() -> int:
    import models.io

    json.dump({"compiled": COMPILED, "io_compiled": models.io.COMPILED, "io_modules": io_modules(),
               "events": toy_events(), "models": model_figures()}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
