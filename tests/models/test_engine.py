"""The event engine: ordering, processes, resources, streams, trace."""
import numpy as np
import pytest

from models.engine import Counters, Engine, Interrupt, PriorityResource, Resource, Store, Trace
from models.engine.trace_vocab import KINDS


def test_events_run_in_time_then_priority_then_schedule_order():
    eng = Engine()
    seen = []
    eng.schedule(2.0, seen.append, "late")
    eng.schedule(1.0, seen.append, "b", priority=1)
    eng.schedule(1.0, seen.append, "a", priority=0)
    eng.schedule(1.0, seen.append, "c", priority=1)
    eng.run()
    assert seen == ["a", "b", "c", "late"]
    assert eng.now == 2.0


def test_run_until_stops_and_advances_clock():
    eng = Engine()
    seen = []
    for t in (1.0, 2.0, 3.0):
        eng.schedule(t, seen.append, t)
    eng.run(until=2.5)
    assert seen == [1.0, 2.0] and eng.now == 2.5
    eng.step()
    assert seen == [1.0, 2.0, 3.0]


def test_scheduling_in_the_past_is_refused():
    with pytest.raises(ValueError):
        Engine().schedule(-1.0, print)


def test_process_timeouts_and_return_value_reach_waiter():
    eng = Engine()

    def child():
        yield 1.5
        yield 0.5
        return "done"

    def parent(log):
        value = yield eng.process(child())
        log.append((eng.now, value))

    log = []
    eng.process(parent(log))
    eng.run()
    assert log == [(2.0, "done")]


def test_fifo_resource_serves_in_arrival_order_and_accounts_busy_time():
    eng = Engine()
    disk = Resource(eng, 1, "disk")
    order = []

    def user(name, arrive, hold):
        yield arrive
        req = disk.request()
        yield req
        order.append((name, eng.now))
        yield hold
        disk.release(req)

    for i, name in enumerate("abc"):
        eng.process(user(name, 0.1 * i, 1.0))
    eng.run()
    assert order == [("a", 0.0), ("b", 1.0), ("c", 2.0)]
    assert disk.utilisation() == pytest.approx(1.0)
    assert disk.wait_total == pytest.approx((1.0 - 0.1) + (2.0 - 0.2))


def test_priority_resource_serves_lowest_priority_value_first():
    eng = Engine()
    cpu = PriorityResource(eng, 1)
    order = []

    def user(name, prio):
        req = cpu.request(priority=prio)
        yield req
        order.append(name)
        yield 1.0
        cpu.release(req)

    eng.process(user("first", 5))
    eng.process(user("low", 9))
    eng.process(user("high", 1))
    eng.process(user("high2", 1))
    eng.run()
    assert order == ["first", "high", "high2", "low"]


def test_capacity_two_serves_two_at_once():
    eng = Engine()
    rank = Resource(eng, 2)
    done = []

    def read():
        req = rank.request()
        yield req
        yield 1.0
        rank.release(req)
        done.append(eng.now)

    for _ in range(4):
        eng.process(read())
    eng.run()
    assert done == [1.0, 1.0, 2.0, 2.0]


def test_interrupt_reaches_a_waiting_process():
    eng = Engine()
    log = []

    def sleeper():
        try:
            yield 10.0
        except Interrupt as intr:
            log.append((eng.now, intr.cause))
            yield 1.0
            log.append(eng.now)

    p = eng.process(sleeper())
    eng.schedule(2.0, lambda _: p.interrupt("wake"))
    eng.run()
    assert log == [(2.0, "wake"), 3.0]


def test_store_blocks_putter_when_full():
    eng = Engine()
    buf = Store(eng, capacity=2)
    log = []

    def producer():
        for i in range(4):
            yield buf.put(i)
            log.append(("put", i, eng.now))

    def consumer():
        yield 5.0
        for _ in range(4):
            item = yield buf.get()
            log.append(("got", item, eng.now))

    eng.process(producer())
    eng.process(consumer())
    eng.run()
    puts = [e for e in log if e[0] == "put"]
    assert [p[2] for p in puts] == [0.0, 0.0, 5.0, 5.0]
    assert [e[1] for e in log if e[0] == "got"] == [0, 1, 2, 3]


def test_named_streams_do_not_depend_on_each_other():
    a = Engine(seed=7)
    x1 = [a.stream("disk").random() for _ in range(3)]
    b = Engine(seed=7)
    b.stream("new component").random()  # another component asks first
    x2 = [b.stream("disk").random() for _ in range(3)]
    assert x1 == x2
    assert Engine(seed=8).stream("disk").random() != x1[0]
    assert np.array_equal(Engine(3).np_stream("s").random(4), Engine(3).np_stream("s").random(4))


def test_same_seed_same_run():
    def run(seed):
        eng = Engine(seed)
        disk = Resource(eng, 1)
        rng = eng.stream("arrivals")
        out = []

        def job():
            req = disk.request()
            yield req
            yield rng.expovariate(10)
            disk.release(req)
            out.append(eng.now)

        def gen():
            for _ in range(200):
                yield rng.expovariate(9)
                eng.process(job())

        eng.process(gen())
        eng.run()
        return out

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_trace_records_columns_and_ring_limit():
    tr = Trace(limit=3)
    head = tr.component("head")
    read = tr.kind("track_read")
    for i in range(10):
        tr.record(float(i), head, read, i, 2 * i)
    cols = tr.columns()
    assert list(cols["t"]) == [7.0, 8.0, 9.0]
    assert list(cols["b"]) == [14, 16, 18]
    assert tr.components == ["head"] and tr.kinds == ["track_read"]
    assert tr.dropped == 7


def test_counters_start_at_zero():
    c = Counters()
    c.add("hits")
    c.add("hits", 2)
    assert c["hits"] == 3 and c["misses"] == 0


def test_queued_request_can_be_withdrawn():
    eng = Engine()
    drive = Resource(eng, 1)
    got = []

    def holder():
        yield drive
        yield 5.0
        drive.release()

    def impatient():
        req = drive.request()
        yield 1.0            # gives up before the drive is free
        drive.release(req)   # withdraws the queued request
        got.append(("gave up", eng.now))

    def patient():
        yield 0.5
        yield drive
        got.append(("patient", eng.now))
        drive.release()

    eng.process(holder())
    eng.process(impatient())
    eng.process(patient())
    eng.run()
    assert got == [("gave up", 1.0), ("patient", 5.0)]


def test_mean_queue_follows_littles_law():
    eng = Engine()
    disk = Resource(eng, 1)

    def job():
        yield disk
        yield 1.0
        disk.release()

    for _ in range(3):
        eng.process(job())
    eng.run()
    # waits 0, 1 and 2 seconds over a 3-second run: mean queue length 1.0
    assert disk.mean_queue() == pytest.approx(1.0)
    assert disk.mean_wait() == pytest.approx(1.0)


# -- bounded trace (issue 29) ---------------------------------------------------------
def test_a_trace_keeps_two_million_events_by_default():
    from models.engine.trace import DEFAULT_LIMIT

    assert Trace().limit == DEFAULT_LIMIT == 2_000_000


def test_a_bounded_trace_keeps_the_newest_and_says_which_part():
    tr = Trace(limit=1000)
    comp, kind = tr.component("VOL1", "VOL"), tr.kind(KINDS[0])
    for i in range(5000):
        tr.record(1.0 + i * 0.001, comp, kind, i)
    cols = tr.columns()
    assert len(cols) == 1000 and tr.dropped == 4000
    assert cols["a"][0] == 4000 and cols["a"][-1] == 4999       # the newest, in order
    kept = tr.kept()
    assert "newest 1,000 of 5,000" in kept and "5–5.999 s" in kept and "starts at 1 s" in kept
    assert "4,000 oldest were dropped" in kept


def test_an_unbounded_trace_says_it_holds_everything():
    tr = Trace(limit=None)
    comp, kind = tr.component("VOL1", "VOL"), tr.kind(KINDS[0])
    for i in range(3000):
        tr.record(i, comp, kind)
    assert len(tr.columns()) == 3000 and tr.dropped == 0
    assert tr.kept() == "every one of the run's 3,000 trace events"


def test_try_take_counts_as_yielding_the_resource_and_leaves_a_busy_one_alone():
    """Taking a free server without yielding keeps the resource's statistics
    exactly as yielding it would; a busy one is left as it was."""
    def run(take_inline: bool):
        eng = Engine(1)
        res = Resource(eng, 2, "VOL")
        waits = []

        def job(k):
            yield 0.001 * k
            t0 = eng.now
            if not (take_inline and res.try_take()):
                yield res
            waits.append(eng.now - t0)
            yield 0.005
            res.release()

        for k in range(6):
            eng.process(job(k))
        eng.run()
        return (res.requests, res.queued_requests, res.utilisation(), res.wait_total, waits)

    assert run(True) == run(False)
    eng = Engine(1)
    res = Resource(eng, 1, "VOL")
    assert res.try_take() and res.users == 1 and res.requests == 1
    assert not res.try_take() and res.users == 1 and res.requests == 1


def test_a_process_the_caller_keeps_is_never_reused_for_a_new_one():
    """The compiled engine reuses finished processes nothing else holds; one
    the caller keeps still has its value, and can still be waited on, after
    hundreds of new processes have started and ended."""
    eng = Engine()

    def job(value):
        yield 0.5
        return value

    kept = eng.process(job("kept"))
    eng.run()
    for i in range(600):                 # more than the engine keeps spare
        eng.process(job(i))
    eng.run()
    later = [eng.process(job(i)) for i in range(300)]
    assert kept.value == "kept" and all(p is not kept for p in later)

    def waiter():
        got = yield kept                 # an ended process: resumes at once with its value
        return got

    w = eng.process(waiter())
    eng.run()
    assert w.value == "kept"
    assert [p.value for p in later] == list(range(300))


def test_a_run_pauses_the_cyclic_collector_and_leaves_it_as_it_found_it():
    """The collector walks young objects every 700 allocations, about a tenth
    of an I/O model's run; the engine pauses it while events run, and gives
    it back enabled (or still disabled, as the GUI keeps it) even when a
    model raises."""
    import gc

    def model(eng, seen, fail):
        yield 1.0
        seen.append(gc.isenabled())
        if fail:
            raise RuntimeError("a model's bug")

    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            for fail in (False, True):
                eng, seen = Engine(), []
                eng.process(model(eng, seen, fail))
                if fail:
                    with pytest.raises(RuntimeError, match="a model's bug"):
                        eng.run()
                else:
                    eng.run()
                assert seen == [False]                  # paused while the model ran
                assert gc.isenabled() == enabled        # as it was before the run
    finally:
        (gc.enable if was else gc.disable)()


def test_a_step_on_the_heap_fires_at_its_time_in_order_with_callbacks_and_processes():
    """A Step (an I/O request, a workload's arrivals) is its own event: the
    engine calls its ``fire`` at its time, in the same order as a callback
    or a process scheduled alike, compiled or not."""
    from models.engine import Step

    eng = Engine()
    seen = []

    class Tick(Step):
        def __init__(self, label):
            self.label = label

        def fire(self, arg):
            seen.append((eng.now, self.label, arg))

    def proc():
        yield 1.0
        seen.append((eng.now, "process", None))

    eng.schedule(1.0, Tick("first"), "a")
    eng.process(proc())
    eng.schedule(1.0, seen.append, (1.0, "callback", None))
    eng.schedule(0.5, Tick("early"), "b")
    eng.run()
    assert seen == [(0.5, "early", "b"), (1.0, "first", "a"), (1.0, "process", None),
                    (1.0, "callback", None)]
