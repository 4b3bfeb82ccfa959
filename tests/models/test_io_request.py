"""A request started without a process (``VolumeIO.start``, what the drawn
shop's workloads and the scale bench do) runs exactly as the same request
run as a process (``engine.process(volume._io(...))``, what every other
model does): the same waits, the same figures, the same events.

Both are driven by one :class:`models.io.volume.IORequest`; these tests mix
what takes its less common paths: requests queued for a busy volume
(IOSQ), drive reads and reconnects, zHPF requests split at FEx8's address
limit, writes, and sequential runs that prestage.
"""
from __future__ import annotations

import random

import pytest

from models.drawing.config import ChannelPath, Configuration, ControlUnit, Rank, Volume
from models.engine import Engine, Trace
from models.io.request import pages_to_groups, range_to_groups
from models.io.system import IOSystem
from tests.models.fixed_runs import trace_digest


def _config(generation: str, protocol: str = "zHPF") -> Configuration:
    """Four volumes without aliases on two ranks, one path: volumes and the
    path are busy often enough that requests queue."""
    return Configuration(
        channels=(ChannelPath("CHP01", protocol, generation, control_units=("CU1",)),),
        control_units=(ControlUnit("CU1", 64.0),),
        ranks=(Rank("R1", "HDD15K"), Rank("R2", "HDD15K")),
        volumes=tuple(Volume(f"V{i}", "HDD15K", "CU1", (f"R{i % 2 + 1}",), 0) for i in range(4)))


def _requests(n: int, seed: int = 5) -> list:
    """``(delay, volume, groups, write)``: bursts at one volume, cache hits
    and misses, long lists that FEx8 splits, sequential runs and writes."""
    rng = random.Random(seed)
    out = []
    seq = [60_000] * 4
    for _ in range(n):
        delay = 0.0 if rng.random() < 0.3 else rng.expovariate(2000.0)   # bursts queue
        v = rng.randrange(4)
        u = rng.random()
        if u < 0.4:
            groups, write = [(rng.randrange(400), 1 << rng.randrange(12))], False    # mostly hits
        elif u < 0.55:
            groups, write = [(400 + rng.randrange(50_000), 1 << rng.randrange(12))], False
        elif u < 0.7:
            pages = sorted(rng.sample(range(12 * 3000), 40))      # a list: split on FEx8
            groups, write = pages_to_groups(pages), False
        elif u < 0.85:
            groups, write = range_to_groups(seq[v], 24), False
            seq[v] += 24
        else:
            first = rng.randrange(12 * 400)
            groups, write = pages_to_groups(range(first, first + 1 + rng.randrange(4))), True
        out.append((delay, v, groups, write))
    return out


def _run(generation: str, inline: bool, protocol: str = "zHPF", lpo=None,
         one_track: bool = False) -> dict:
    """Figures of the mix run one way or the other: per volume, and the
    trace (every request's phases, waits, stages and hits, in time order).
    ``one_track``: a request of one group starts as a request of one track
    (``start_track``, no list)."""
    eng = Engine(seed=1)
    trace = Trace(limit=None)
    options = {} if lpo is None else {"lpo": lpo}
    system = IOSystem(eng, _config(generation, protocol), trace=trace, **options)
    vols = [system.volume(f"V{i}") for i in range(4)]
    for v in vols:
        v.warm_tracks(0, 400)

    def arrivals():
        for delay, v, groups, write in _requests(400):
            yield delay
            if one_track and len(groups) == 1:
                vols[v].start_track(groups[0][0], groups[0][1], write)
            elif inline:
                vols[v].start(groups, write, False)
            else:
                eng.process(vols[v]._io(groups, write, False))

    eng.process(arrivals())
    eng.run()
    figures: dict = {"now": eng.now, "events": eng.events_run, "trace": trace_digest(trace),
                     "records": len(trace)}
    for v in vols:
        t = v.totals
        figures[v.name] = {"requests": v.requests, "completed": v.completed, "iosq": t.iosq,
                           "pend": t.pend, "disc": t.disc, "conn": t.conn, "pages": t.pages,
                           "ios": t.ios, "hits": v.stats.hits, "misses": v.stats.misses,
                           "stages": v.stats.disk_requests, "writes": v.stats.write_requests}
    return figures


@pytest.mark.parametrize("generation", ["FEx8S", "FEx8"])
def test_a_request_started_without_a_process_runs_as_the_same_request_as_a_process(generation):
    inline = _run(generation, inline=True)
    process = _run(generation, inline=False)
    assert inline == process                    # same figures, trace and engine events
    vols = [inline[f"V{i}"] for i in range(4)]
    assert sum(v["completed"] for v in vols) == 400
    # The mix took the paths it is there for.
    assert all(v["iosq"] > 0.0 for v in vols)            # queued for a busy volume (IOSQ)
    assert all(v["disc"] > 0.0 and v["stages"] > 0 for v in vols)   # drive reads, reconnects
    assert all(v["writes"] > 0 for v in vols)
    split = sum(v["ios"] for v in vols) > 400            # lists split at FEx8's address limit
    assert split == (generation == "FEx8")


@pytest.mark.parametrize("protocol, generation, lpo", [("zHPF", "FEx8S", None),
                                                      ("zHPF", "FEx8", None),
                                                      ("zHPF", "FEx8S", False),
                                                      ("FICON", "FEx8S", None)])
def test_a_request_of_one_track_runs_as_the_same_request_as_a_list_of_one(protocol, generation,
                                                                           lpo):
    """``start_track`` (no list of groups: the drawn shop's one-page I/Os)
    gives every figure, the trace and the engine's events of ``start`` with
    ``[(track, mask)]``: hits, misses with the LPO's schedule (zHPF) or
    without, command mode (FICON), one-track writes, alongside lists."""
    track = _run(generation, True, protocol, lpo, one_track=True)
    assert track == _run(generation, True, protocol, lpo)
    assert track == _run(generation, False, protocol, lpo)
    assert sum(track[f"V{i}"]["completed"] for i in range(4)) == 400


def test_a_request_resumed_after_its_end_says_so():
    eng = Engine(seed=1)
    system = IOSystem(eng, _config("FEx8S"))
    vol = system.volume("V0")
    vol.warm_tracks(0, 1)
    proc = eng.process(vol._io([(0, 1)], False, False))
    eng.run()
    rq = proc.value
    assert rq.total > 0.0 and rq.hits == 1                  # an ordinary hit, ended
    with pytest.raises(RuntimeError, match="after its end"):
        rq.step()


def test_small_records_fill_a_whole_track_mask_compiled_as_interpreted():
    """1 KB records put 33 on a 3390 track: the volume's full-track mask and a
    warmed track's records must count all 33 (compiled, the mask was built
    with a C int shift and came out as 1 record)."""
    from models.io.subsystem import IOSubsystem

    sub = IOSubsystem(Engine(seed=1), record_bytes=1024)
    assert sub.rpt == 33
    assert sub.full_mask == (1 << 33) - 1
    sub.warm_pages(range(0, 33))                    # one whole track
    sub.warm_pages(range(33 + 2, 33 + 33))          # most of the next
    assert sub.cache.valid(sub.kb + 0, 0.0) == (1 << 33) - 1
    assert sub.cache.valid(sub.kb + 1, 0.0) == ((1 << 31) - 1) << 2
    proc = sub.engine.process(sub.read_range(0, 33))
    sub.engine.run()
    assert proc.value.hits == 33 and proc.value.misses == 0


def test_a_write_to_a_native_3390_completes():
    """A native 3390 has no RAID stripes: its writes destage track by track
    (the stripe-row path divided by a stripe of no tracks and crashed)."""
    from models.io.subsystem import IOSubsystem

    sub = IOSubsystem(Engine(seed=1), device="3390", protocol="FICON", channel="FEx8")
    assert sub.backend.native
    proc = sub.engine.process(sub.write_pages(range(0, 30)))
    sub.engine.run()
    res = proc.value
    assert res.pages == 30 and res.total > 0.0
    assert sub.stats.destages >= 3                   # one per track written


def test_plan_of_nothing_books_nothing_on_fex8():
    """``plan`` splits a list at FEx8's zHPF address limit first, as it did
    before the request became a state machine: an empty list, or a track
    with no records, is then no channel I/O at all."""
    eng = Engine(seed=1)
    system = IOSystem(eng, _config("FEx8"))
    vol = system.volume("V0")
    for groups in ([], [(5, 0)]):
        res = vol.plan(groups)
        assert (res.ios, res.pend, res.conn, res.pages) == (0, 0.0, 0.0, 0)
    assert vol.paths.paths[0].starts == 0            # no path was taken


def test_a_planned_request_cannot_be_resumed():
    """What ``plan`` returns is a finished request: stepping it again says so
    (compiled, it read past its groups)."""
    eng = Engine(seed=1)
    system = IOSystem(eng, _config("FEx8S"))
    vol = system.volume("V0")
    vol.warm_tracks(0, 1)
    res = vol.plan([(0, 1)])
    assert res.hits == 1
    with pytest.raises(RuntimeError, match="after its end"):
        res.step()


@pytest.mark.parametrize("per_track", [0, 65])
def test_groups_of_a_track_no_mask_holds_are_refused_with_a_message(per_track):
    """A request's groups are built with 64-bit masks: 0 or 65 records a
    track is refused by name, not turned into wrong masks."""
    from models.io.request import pages_to_groups, range_to_groups

    with pytest.raises(ValueError, match="masks hold 1 to 64"):
        range_to_groups(0, 5, per_track)
    with pytest.raises(ValueError, match="masks hold 1 to 64"):
        pages_to_groups([1, 2], per_track)


def test_a_constant_set_before_a_run_holds_in_it(monkeypatch):
    """The channel program and the drive timing keep their constants as C
    fields, read when a volume or back end is built, not at import: a
    constant set before a run (bench/sensitivity.py moves them so) changes
    that run. A zHPF read's TCW decode is in its CONN; a stage's device
    adapter work in its DISC."""
    from models.io import backend, volume
    from models.io.subsystem import IOSubsystem

    def read_once():
        sub = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF", seq_detect=False)
        return sub.plan(pages_to_groups([5]))
    base = read_once()
    assert base.disc < 0.03
    monkeypatch.setattr(volume, "TCW_S", volume.TCW_S + 1e-3)
    assert read_once().conn == pytest.approx(base.conn + 1e-3)
    monkeypatch.setattr(backend, "DA_OP_S", 0.05)        # the adapter, not the drive, is last
    assert read_once().disc > 0.045
