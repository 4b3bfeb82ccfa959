"""The canvas is the configuration: counts and wiring change what a run does.

Each test builds a :class:`models.drawing.config.Configuration` directly, runs a
workload through :class:`models.io.system.IOSystem` and checks what a user
would see in RMF's reports: channel utilisation and PEND, IOSQ, DISC, the
cache hit ratio, under the volumes' and channels' canvas names.
"""
from __future__ import annotations

import random

import pytest

from models.drawing.config import ChannelPath, Configuration, ControlUnit, Rank, Volume
from models.engine import Engine, Trace
from models.io.request import pages_to_groups
from models.io.system import IOSystem


def config(volumes=4, channels=1, ranks=None, aliases=7, cache_gb=64.0, cus=1,
           device="HDD15K", protocol="zHPF", generation="FEx8S") -> Configuration:
    """``volumes`` volumes spread over ``cus`` control units; every channel
    reaches every unit; ``ranks``: rank names per volume (None: own rank)."""
    cu_names = tuple(f"CU{i + 1}" for i in range(cus))
    rank_names = sorted({r for rs in (ranks or []) for r in rs})
    return Configuration(
        channels=tuple(ChannelPath(f"CHP{i + 1:02X}", protocol, generation, control_units=cu_names)
                       for i in range(channels)),
        control_units=tuple(ControlUnit(n, cache_gb) for n in cu_names),
        ranks=tuple(Rank(r, device) for r in rank_names),
        volumes=tuple(Volume(f"DB2V{i + 1:02d}", device, cu_names[i % cus],
                             tuple(ranks[i]) if ranks else (), aliases)
                      for i in range(volumes)))


def closed(system, streams_per_volume, requests, seed=1):
    """``streams_per_volume`` processes per volume, each issuing ``requests``
    reads made by ``requests(rng, i)``, back to back."""
    eng = system.engine
    results = []
    for v in system.config.volumes:
        vol = system.volume(v.name)
        for s in range(streams_per_volume):
            rng = random.Random(f"{seed}/{v.name}/{s}")

            def stream(vol=vol, rng=rng):
                for i in range(requests.count):
                    results.append((yield from vol.read(requests(vol, rng, i))))
            eng.process(stream())
    eng.run()
    return results


class Hits:
    """32-page cache-resident list reads (warm): pure channel work."""

    count = 150

    def __call__(self, vol, rng, i):
        pages = sorted(rng.sample(range(12 * 2000), 32))
        return pages_to_groups(pages)


class RandomMisses:
    """One random page of a big data set per read: a drive access each."""

    def __init__(self, count, tracks=100_000):
        self.count, self.tracks = count, tracks

    def __call__(self, vol, rng, i):
        return [(rng.randrange(self.tracks), 1 << rng.randrange(12))]


def _warm(system, tracks=2000):
    for vol in (system.volume(v.name) for v in system.config.volumes):
        vol.warm_tracks(0, tracks)


class SmallHits:
    """Single 4 KB page cache hits: the I/O of IBM's channel I/O-rate benchmark."""

    count = 150

    def __call__(self, vol, rng, i):
        return [(rng.randrange(2000), 1 << rng.randrange(12))]


def _small_hit_rate(protocol, generation):
    """I/Os per second of 64 concurrent single-page hit streams (8 volumes,
    8 exposures each) through ONE channel path, and its utilisation."""
    system = IOSystem(Engine(1), config(volumes=8, channels=1, protocol=protocol,
                                        generation=generation), seq_detect=False)
    _warm(system)
    res = closed(system, 8, SmallHits())
    elapsed = system.engine.now
    return len(res) / elapsed, system.component_figures(elapsed)["CHP01"]["utilization_pct"]


def test_one_channel_path_multiplexes_tens_of_thousands_of_small_hits():
    """A FEx8S zHPF path is not held for each I/O's connected time
    (~0.17 ms): many I/Os share it and it saturates on its own work at
    tens of thousands of 4 KB hits a second. Command mode costs the
    channel several times the work per I/O (five information units
    against three, each slower), so a FICON path tops out several times
    lower; the firmware zHPF of FEx8 reaches little more than half of
    FEx8S's hardware data router. Bands from the published channel rates
    (92,000 / 52,000 zHPF, ~23,000 / ~20,000 command mode: FEx8S/FEx8),
    the ratios with room for the model's queueing."""
    zhpf, util = _small_hit_rate("zHPF", "FEx8S")
    ficon, _ = _small_hit_rate("FICON", "FEx8S")
    zhpf8, _ = _small_hit_rate("zHPF", "FEx8")
    assert util > 97.0                        # the channel is the limit, not the unit
    assert 60_000 < zhpf < 100_000
    assert 15_000 < ficon < 30_000
    assert 3.0 < zhpf / ficon < 5.0           # published 92/23 = 4.0 (FEx4: 2.2)
    assert 1.5 < zhpf / zhpf8 < 2.0           # published 92/52 = 1.77


def test_a_second_channel_relieves_a_channel_bound_control_unit():
    """32-page cache hits over four volumes behind one unit, twelve at a
    time: their transfers (128 KB each at 800 MB/s) saturate one channel
    (PEND grows, the channel is ~100 % busy); a second path nearly
    doubles throughput."""
    out = {}
    for n in (1, 2):
        system = IOSystem(Engine(1), config(channels=n), seq_detect=False)
        _warm(system)
        res = closed(system, 3, Hits())
        elapsed = system.engine.now
        figs = system.component_figures(elapsed)
        out[n] = (len(res) / elapsed, sum(r.pend for r in res) / len(res),
                  [figs[f"CHP{i + 1:02X}"]["utilization_pct"] for i in range(n)])
    rate1, pend1, util1 = out[1]
    rate2, pend2, util2 = out[2]
    assert util1[0] > 97.0                       # the one channel is saturated
    assert rate2 > 1.6 * rate1
    assert pend2 < pend1 / 1.6


def test_open_load_on_one_channel_queues_in_pend_and_halves_on_two():
    """A fixed arrival rate that keeps one channel ~80 % busy with the
    work of 32-page transfers: adding a path halves each path's
    utilisation and cuts PEND by a large factor."""
    out = {}
    for n in (1, 2):
        eng = Engine(3)
        system = IOSystem(eng, config(channels=n), seq_detect=False)
        _warm(system)
        vols = [system.volume(v.name) for v in system.config.volumes]
        rng = random.Random(5)
        results = []

        def one(vol, groups):
            results.append((yield from vol.read(groups)))

        def arrivals():
            for i in range(3000):
                yield rng.expovariate(3500.0)        # ~0.23 ms channel work each: ~80 %
                vol = vols[i % len(vols)]
                eng.process(one(vol, Hits()(vol, rng, i)))
        eng.process(arrivals())
        eng.run()
        figs = system.component_figures(eng.now)
        out[n] = (sum(r.pend for r in results) / len(results),
                  [figs[f"CHP{i + 1:02X}"]["utilization_pct"] for i in range(n)])
    (pend1, util1), (pend2, util2) = out[1], out[2]
    assert 65.0 < util1[0] < 95.0
    assert all(0.35 * util1[0] < u < 0.65 * util1[0] for u in util2)
    assert pend2 < pend1 / 3


def test_volumes_sharing_a_rank_wait_for_each_others_drives():
    """Two busy volumes of random misses: on one rank their reads queue for
    the same eight drives; on two ranks each has its own. (DISC shared /
    own is 1.5-1.7 over workload seeds: the bands leave room for one
    sample's noise.)"""
    out = {}
    for shared in (True, False):
        ranks = [("R1",), ("R1",)] if shared else [("R1",), ("R2",)]
        system = IOSystem(Engine(2), config(volumes=2, channels=4, ranks=ranks),
                          seq_detect=False, staging="record")
        res = closed(system, 8, RandomMisses(60))
        figs = system.component_figures(system.engine.now)
        out[shared] = (sum(r.disc for r in res) / len(res),
                       sum(r.total for r in res) / len(res), figs["R1"]["busy_pct"])
    disc_shared, resp_shared, busy_shared = out[True]
    disc_own, resp_own, busy_own = out[False]
    assert disc_shared > 1.4 * disc_own
    assert resp_shared > 1.35 * resp_own
    assert busy_shared > busy_own + 20.0          # rank R1 does both volumes' work


def test_hyperpav_aliases_cut_iosq():
    """Four concurrent readers of one volume: without aliases three of them
    wait in IOSQ; with three aliases they start at once."""
    iosq = {}
    for aliases in (0, 3):
        system = IOSystem(Engine(4), config(volumes=1, channels=4, aliases=aliases),
                          seq_detect=False, staging="record")
        closed(system, 4, RandomMisses(50))
        iosq[aliases] = system.component_figures(system.engine.now)["DB2V01"]["iosq_ms"]
    assert iosq[0] > 5.0                          # a drive access or more, queued
    assert iosq[3] < 0.1 * iosq[0]


def test_volumes_behind_one_control_unit_compete_for_its_cache():
    """A reader re-reading 150 tracks keeps hitting a small cache (0.01 GB,
    ~2,600 slots) alone; a second volume reading new tracks at the same
    pace through the same unit evicts its tracks; behind another unit it
    does not."""
    def run(cus):
        system = IOSystem(Engine(6), config(volumes=2, channels=2, cus=cus, cache_gb=0.01,
                                            aliases=0, protocol="FICON"),
                          seq_detect=False, staging="full")
        hot, cold = (system.volume(n) for n in ("DB2V01", "DB2V02"))
        rng = random.Random(9)

        def reread():
            for _ in range(1500):
                yield from hot.read([(rng.randrange(150), 1 << rng.randrange(12))])
                yield 0.01

        def stream():
            for i in range(1500):
                yield from cold.read([(1000 + i, 1)])
                yield 0.01
        system.engine.process(reread())
        system.engine.process(stream())
        system.engine.run()
        return system.component_figures(system.engine.now), hot.stats.hit_ratio
    (figs_shared, hot_shared), (figs_apart, hot_apart) = run(1), run(2)
    assert hot_apart > 0.85                      # 150 full tracks fit (1,800 slots)
    assert hot_shared < hot_apart - 0.25
    assert figs_shared["CU1"]["read_hit_ratio"] < 0.6 * figs_apart["CU1"]["read_hit_ratio"]


def test_components_are_reported_under_their_canvas_names():
    trace = Trace()
    system = IOSystem(Engine(1), config(volumes=2, channels=2, ranks=[("RANK A",), ("RANK A",)]),
                      trace=trace, seq_detect=False)
    closed(system, 1, RandomMisses(5))
    figs = system.component_figures(system.engine.now)
    assert set(figs) == {"CHP01", "CHP02", "CU1", "DB2V01", "DB2V02", "RANK A"}
    assert set(figs["CHP01"]) == {"utilization_pct"}
    assert set(figs["DB2V01"]) == {"io_rate", "resp_ms", "iosq_ms", "pend_ms", "disc_ms",
                                   "conn_ms", "busy_pct"}
    assert set(figs["CU1"]) == {"read_hit_ratio"}
    dev, chan, cache, rank = system.reports(system.engine.now)
    assert [r[0] for r in dev.rows] == ["DB2V01", "DB2V02"]
    assert [r[0] for r in chan.rows] == ["CHP01", "CHP02"]
    assert cache.rows[0][0] == "CU1" and rank.rows[0][0] == "RANK A"
    names = set(trace.components)
    assert {"DB2V01", "DB2V02", "CU1", "RANK A drive 1"} <= names
    assert not {n for n in names if n.startswith(("VOL", "DRV"))}
    assert trace.meta["roles"]["RANK A drive 1"] == "DRV"


def test_wiring_errors_name_the_component():
    cfg = Configuration(control_units=(ControlUnit("CU9"),),
                        volumes=(Volume("LONELY", "HDD15K", None), Volume("V2", "HDD15K", "CU9")))
    system = IOSystem(Engine(1), cfg)
    with pytest.raises(ValueError, match="LONELY"):
        system.volume("LONELY")
    with pytest.raises(ValueError, match="CU9"):
        system.volume("V2")
    with pytest.raises(ValueError, match="SSD"):
        IOSystem(Engine(1), Configuration(ranks=(Rank("R", "HDD10K"),),
                                          volumes=(Volume("V", "SSD", None, ("R",)),)))


def test_one_channel_fewer_costs_ficon_list_prefetch_its_channel_work_not_double():
    """Two DB2 prefetch engines' dense FICON list prefetches (32 pages,
    a Locate Record domain each, ~1.6 ms connected, cache resident) on
    one path instead of two: the control unit's domain set-up is not
    channel work, so one path carries both streams at the price of its
    own work (~0.9 ms an I/O), not at half their rate (an ESCON-style
    path held for the connected time)."""
    out = {}
    for n in (1, 2):
        system = IOSystem(Engine(1), config(volumes=1, channels=n, aliases=1, protocol="FICON"),
                          seq_detect=False)
        vol = system.volume("DB2V01")
        vol.warm_tracks(0, 2000)
        lists = iter(range(0, 12 * 1980, 33))

        def engine():
            for first in lists:
                yield from vol.read(pages_to_groups(range(first, first + 32)),
                                    list_prefetch=True)
        for _ in range(2):
            system.engine.process(engine())
        system.engine.run()
        out[n] = (system.engine.now,
                  system.component_figures(system.engine.now)["CHP01"]["utilization_pct"])
    (t1, util1), (t2, _) = out[1], out[2]
    assert util1 > 90.0                           # the one path is nearly saturated ...
    assert t1 < 1.35 * t2                         # ... but far from twice as slow


def test_an_io_started_inline_never_waits_for_a_later_reconnect():
    """A process that starts I/Os inline (``engine.process`` runs each to its
    first yield at once) must not make the second wait in PEND for the
    first one's reconnect, booked ahead of time while the first step had
    not yet scheduled its next event."""
    from models.io.subsystem import simple_config

    eng = Engine(seed=1)
    system = IOSystem(eng, simple_config(("A", "B"), paths=1))
    a, b = system.volume("A"), system.volume("B")
    b.warm_pages([5])                    # B's page is a hit, A's a miss
    done = {}

    def one(vol, page, key):
        res = yield from vol.read_pages([page])
        done[key] = res

    def arrivals():
        eng.process(one(a, 7, "miss"))   # stages from the drives: disconnects
        yield 0.0001                     # the next arrival, 0.1 ms later
        eng.process(one(b, 5, "hit"))
        yield 0.0

    eng.process(arrivals())
    eng.run()
    assert done["miss"].disc > 0.0005                 # it did disconnect for the drive
    # The hit starts on a free channel: PEND is the start alone (0.12 ms),
    # not the time until the miss's reconnect.
    assert done["hit"].pend < 0.0002


def test_a_saturated_rank_reads_100_percent_busy_in_its_table_as_in_the_metric():
    """Ranks with more drive work than the interval holds read 188 % and
    144 % in the Rank activity table while Busiest rank said 100 % (the Large
    shop: 209 %): the table now shows what a drive can be busy, and says
    which ranks were saturated."""
    from models.experiments import run_experiment

    res = run_experiment("custom", {"duration_s": 0.5, "read_pct": 40.0, "seq_pct": 30.0,
                                    "pages_per_io": 8, "io_rate": 3000.0}, seed=42)
    table = next(t for t in res.reports if t.title == "Rank activity")
    busy = {row[0]: row[3] for row in table.rows}
    assert max(busy.values()) == pytest.approx(res.metrics["rank_busy_pct"], abs=0.05) == 100.0
    for name, pct in busy.items():
        assert pct <= 100.0 and pct == pytest.approx(res.components[name]["busy_pct"], abs=0.05)
    assert "saturated" in table.note and max(busy, key=busy.get) in table.note


def test_a_units_cache_activity_is_its_volumes_summed_counter_by_counter():
    """The unit's Cache Activity line adds up its volumes' counters, every
    one of them (reads, hits, stages by mode, writes, destages), and takes
    the evictions from its own directory."""
    from models.io.cache import CacheStats

    system = IOSystem(Engine(1), config(volumes=3, channels=1))
    vols = [system.volume(f"DB2V0{i}") for i in (1, 2, 3)]
    for k, v in enumerate(vols):
        for i, f in enumerate(CacheStats.FIELDS):
            setattr(v.stats, f, (k + 1) * 1000 + i)
        v.stats.stages = [k + 1, 10 * (k + 1), 100 * (k + 1)]
    unit = system.control_units["CU1"]
    unit.cache.evicted = 77
    total = unit.stats()
    for i, f in enumerate(CacheStats.FIELDS):
        want = 77 if f == "evicted_slots" else sum((k + 1) * 1000 + i for k in range(3))
        assert getattr(total, f) == want, f
    assert total.stages == [6, 60, 600]


@pytest.mark.parametrize("channels", [1, 2])
def test_a_lone_channel_paths_background_busy_delays_reads_too(channels):
    """Half a channel's time taken by work the drawing lacks: cache-hit reads
    find it busy and wait in PEND, whether the unit has one path or two (a
    lone path's reads used to book past the background, leaving it at 3 %)."""
    system = IOSystem(Engine(1), config(volumes=1, channels=channels), seq_detect=False)
    for p in system.paths.values():
        p.set_background(0.5)
    vol = system.volume("DB2V01")
    vol.warm_tracks(0, 100)
    rng = random.Random(3)
    pend = []

    def reads():
        for _ in range(3000):
            r = yield from vol.read([(rng.randrange(100), 1)])
            pend.append(r.pend)
            yield rng.expovariate(5000.0)
    system.engine.process(reads())
    system.engine.run()
    for name in system.paths:
        assert 45.0 < 100 * system.paths[name].total_utilisation(system.engine.now) < 60.0
    assert sum(pend) / len(pend) > 1.01 * vol.start_s        # some reads waited
