"""Bench: a large I/O configuration under a mixed load, simulated vs wall time.

By default 64 volumes (3390-9, HDD15K, 3 HyperPAV aliases each) on 8 RAID-5
ranks (8 volumes a rank), behind 2 control units (64 GB each, the volumes
dealt out between them), all reached by 8 zHPF channel paths. Poisson
arrivals at ``rate`` I/Os per second, each to a random volume:

* 75 % single-page random reads of a hot set (mostly cache hits),
* 5 % single-page random reads anywhere on the volume (misses),
* 10 % 32-page sequential reads continuing one of the volume's streams
  (sequential detection and prestage),
* 10 % writes of 1–4 pages of the hot set (DASD fast write; each destage
  is a RAID-5 small write, 4 drive operations, in the background).

The ranks do most of the work (destages and misses); the channels and
the cache have room. ``--volumes``, ``--channels`` and ``--control-units``
size the configuration (still 8 volumes a rank, every path to every
unit); ``--reference`` is the shop of issue 29: 1,000 volumes, 16
channels, 4 control units, 200,000 I/O/s. ``--kind`` makes every I/O
one kind of the mix (a hit, a miss, a sequential read or a write): what
an I/O of that kind costs.

Prints simulated seconds per wall second, µs of CPU per I/O, engine events
per I/O and the peak RSS of the process, then the RMF figures of a few
components; ``--profile`` adds the top of a cProfile listing. It says which
engine and I/O model ran (compiled by packaging/setup.sh, or interpreted)
and prints a machine-speed peer measured in the same run: the CPU time of a
bare heapq push and pop, and the CPU per I/O in those units, which compares
across machines; then the share of the bench's own load generator
(interpreted Python: the same draws and calls on volumes that start
nothing) and the model's rest, in both units. ``--ab`` runs the same command in fresh interpreters,
compiled and interpreted (ZPERFLAB_ENGINE=python: the engine and the I/O
model) in turn, best of 3 each.

    .venv/bin/python bench/io_config_scale.py [sim_seconds] [rate] [--profile]
        [--volumes N] [--channels N] [--control-units N] [--rate R] [--seconds S]
        [--reference] [--large-shop] [--seed N] [--kind hit|miss|seq|write] [--ab]
"""
from __future__ import annotations

import argparse
import cProfile
import math
import os
import pstats
import random
import re
import resource
import subprocess
import sys
import time
from heapq import heappop, heappush
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.drawing.config import ChannelPath, Configuration, ControlUnit, Rank, Volume  # noqa: E402
from models.engine import COMPILED, Engine  # noqa: E402
from models.io.request import pages_to_groups, range_to_groups  # noqa: E402
from models.io.system import IOSystem  # noqa: E402

VOLUMES, CHANNELS, CUS = 64, 8, 2
VOLUMES_PER_RANK = 8
#: Issue 29's reference shop: (volumes, channels, control units, I/O/s).
REFERENCE = (1000, 16, 4, 200_000.0)
#: ``--kind``: the draw of the mix that picks each kind's branch.
KINDS = {"hit": 0.0, "miss": 0.77, "seq": 0.85, "write": 0.95}
HOT_TRACKS = 2_000          # per volume: 24,000 pages, ~94 MB; 64 of them fit 2 x 64 GB
VOLUME_TRACKS = 150_000     # a 3390-9


def configuration(volumes: int = VOLUMES, channels: int = CHANNELS,
                  control_units: int = CUS) -> Configuration:
    """Volumes dealt out over the units and the ranks in turn; every path reaches every unit."""
    cus = tuple(f"DS8K-{c + 1}" for c in range(control_units))
    ranks = max(1, volumes // VOLUMES_PER_RANK)
    return Configuration(
        channels=tuple(ChannelPath(f"CHPID {0x40 + i:02X}", "zHPF", "FEx8S", control_units=cus)
                       for i in range(channels)),
        control_units=tuple(ControlUnit(c, 64.0) for c in cus),
        ranks=tuple(Rank(f"R{r + 1}", "HDD15K") for r in range(ranks)),
        volumes=tuple(Volume(f"PRD{v:03d}", "HDD15K", cus[v % control_units],
                             (f"R{v % ranks + 1}",), 3)
                      for v in range(volumes)))


def build(sim_s: float, rate: float, seed: int = 1, volumes: int = VOLUMES,
          channels: int = CHANNELS, control_units: int = CUS, kind: str | None = None):
    """The engine and I/O system with ``sim_s * rate`` I/Os to start (not run yet).

    ``kind`` (one of :data:`KINDS`): every I/O of that kind of the mix
    instead (the same draws, then the kind's branch)."""
    eng = Engine(seed)
    system = IOSystem(eng, configuration(volumes, channels, control_units))
    vols = [system.volume(v.name) for v in system.config.volumes]
    for v in vols:
        v.warm_tracks(0, HOT_TRACKS)
    eng.process(arrivals(vols, int(sim_s * rate), rate, random.Random(seed), kind))
    return eng, system


def arrivals(vols: list, n: int, rate: float, rng: random.Random, kind: str | None = None):
    """The bench's load: ``n`` Poisson arrivals at ``rate``, each started on a
    random volume of ``vols`` (an engine process: it yields the time to the
    next arrival). Interpreted Python: its CPU is part of every figure the
    bench prints (see :func:`generator_us`)."""
    nvols = len(vols)
    # The draws of random.Random's expovariate and randrange, inlined (the
    # same numbers in the same order: ``randrange(n)`` is ``getrandbits(k)``
    # with ``k = n.bit_length()``, drawn again while ``>= n``): the calls
    # were a tenth of the run.
    rnd = rng.random
    bits = rng.getrandbits
    log = math.log
    k_vols, k_hot, k_all = nvols.bit_length(), HOT_TRACKS.bit_length(), VOLUME_TRACKS.bit_length()
    hot_pages = 12 * HOT_TRACKS
    k_pages = hot_pages.bit_length()
    # Each volume's request start and sequential cursor by number (no
    # attribute or dictionary look-up per I/O). ``start`` runs a request
    # without a process, as the drawn shop's workloads do
    # (models/io/driver.py): the same events as ``process(v.read(groups))``.
    starts = [v.start for v in vols]
    # A one-record read is a request of one track (VolumeIO.start_track,
    # as the drawn shop's one-page I/Os): no list of groups.
    start_tracks = [v.start_track for v in vols]
    rpt = vols[0].rpt           # 4 KB records: 12 a track on every volume
    pick = None if kind is None else KINDS[kind]
    seq_next = [12 * (VOLUME_TRACKS // 2)] * nvols
    for _ in range(n):
        yield -log(1.0 - rnd()) / rate
        v = bits(k_vols)
        while v >= nvols:
            v = bits(k_vols)
        u = rnd() if pick is None else pick
        if u < 0.8:
            if u < 0.75:
                track = bits(k_hot)
                while track >= HOT_TRACKS:
                    track = bits(k_hot)
            else:
                track = bits(k_all)
                while track >= VOLUME_TRACKS:
                    track = bits(k_all)
            r = bits(4)
            while r >= 12:
                r = bits(4)
            start_tracks[v](track, 1 << r, False)
        elif u < 0.9:
            first = seq_next[v]
            seq_next[v] = first + 32
            starts[v](range_to_groups(first, 32, rpt), False, False)
        else:
            first = bits(k_pages)
            while first >= hot_pages:
                first = bits(k_pages)
            r = bits(3)
            while r >= 4:
                r = bits(3)
            starts[v](pages_to_groups(range(first, first + 1 + r), rpt), True, False)


class _NoVolume:
    """A volume that starts nothing (:func:`generator_us`)."""

    rpt = 12

    def __init__(self, number: int):
        pass

    def start(self, groups, write, list_prefetch):
        pass

    def start_track(self, track, mask, write):
        pass


def generator_us(n: int, rate: float, volumes: int, seed: int = 1,
                 kind: str | None = None, volume=_NoVolume) -> float:
    """µs of CPU per I/O of the bench's own load generator: the same draws
    and calls as in the run, on volumes that start nothing, without the
    engine (its arrival events are the model's, as anything that starts
    I/Os needs them). ``volume``: the class of those volumes (called with
    the volume's number)."""
    gen = arrivals([volume(v) for v in range(volumes)], n, rate, random.Random(seed), kind)
    c0 = time.process_time()
    for _ in gen:
        pass
    return (time.process_time() - c0) / n * 1e6


def heapq_peer_us(n: int = 300_000) -> float:
    """Machine-speed peer: µs of CPU for one heapq push and pop of an event tuple
    on a heap of 64 pending events (a simulation's steady state)."""
    rng = random.Random(1)
    times = [rng.random() for _ in range(n)]
    heap: list = [(t, 1, -1, None, None) for t in times[:64]]
    heap.sort()
    c0 = time.process_time()
    for i, t in enumerate(times):
        heappush(heap, (heap[0][0] + t, 1, i, None, None))
        heappop(heap)
    return (time.process_time() - c0) / n * 1e6


def engine_kind() -> str:
    import models.io

    kind = "compiled (Cython)" if COMPILED else "interpreted (core.py as Python)"
    return kind + (", I/O model compiled" if models.io.COMPILED else ", I/O model interpreted")


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(sim_s: float, rate: float, profile: bool = False, volumes: int = VOLUMES,
        channels: int = CHANNELS, control_units: int = CUS, seed: int = 1,
        kind: str | None = None) -> dict:
    """Build, run and print the figures; returns them."""
    print(f"{volumes} volumes, {channels} channels, {control_units} control units, "
          f"{rate:,.0f} I/O/s for {sim_s:g} simulated s"
          + ("" if kind is None else f", every I/O a {kind}"))
    t_build = time.perf_counter()
    eng, system = build(sim_s, rate, seed, volumes, channels, control_units, kind)
    t_build = time.perf_counter() - t_build
    prof = cProfile.Profile() if profile else None
    t0, c0 = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    eng.run()
    if prof:
        prof.disable()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    vols = system.volumes()
    ios = sum(v.completed for v in vols)
    figs = {"sim_s_per_wall_s": eng.now / wall, "us_cpu_per_io": cpu / ios * 1e6,
            "events_per_io": eng.events_run / ios, "peak_rss_mb": peak_rss_mb(),
            "ios_per_wall_s": ios / wall}
    print(f"{ios} I/Os in {eng.now:.2f} simulated s: wall {wall:.2f} s, CPU {cpu:.2f} s "
          f"(set-up {t_build:.2f} s)")
    print(f"  {figs['sim_s_per_wall_s']:.2f} simulated s per wall s, "
          f"{figs['us_cpu_per_io']:.2f} us CPU per I/O, {figs['events_per_io']:.2f} events per I/O, "
          f"peak RSS {figs['peak_rss_mb']:,.0f} MB, {figs['ios_per_wall_s']:,.0f} simulated I/Os "
          "per wall s")
    comp = system.component_figures(eng.now)
    names = [p.name for p in system.config.channels][:1] + [system.config.channels[-1].name]
    names += [c.name for c in system.config.control_units] + ["R1", vols[0].name, vols[-1].name]
    for name in dict.fromkeys(names):
        print(f"  {name}: " + ", ".join(f"{k}={v:.3g}" for k, v in comp[name].items()))
    waits = sum(v.path_waits for v in vols)
    print(f"  connects whose channel work queued behind other I/Os: {waits}")
    peer = heapq_peer_us()
    figs["heapq_peer_us"] = peer
    print(f"  engine {engine_kind()}; machine peer: a bare heapq push+pop takes {peer:.3f} us CPU, "
          f"so one I/O costs {figs['us_cpu_per_io'] / peer:.1f} of them")
    gen = generator_us(int(sim_s * rate), rate, volumes, seed, kind)
    figs["generator_us_per_io"] = gen
    print(f"  of which the bench's own load generator (interpreted: its draws and calls, on "
          f"volumes that start nothing) {gen:.2f} us, {gen / peer:.1f} units; the model "
          f"{figs['us_cpu_per_io'] - gen:.2f} us, {(figs['us_cpu_per_io'] - gen) / peer:.1f} units")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(14)
    return figs


def run_large_shop(sim_s: float, seed: int = 1) -> dict:
    """The reference point as drawn: the built-in Large shop (1,000 volumes in 10
    storage groups, 16 channels in 4 channel groups, 4 units, 200,000 I/O/s)
    through the one run path (``zperflab run --scenario large_shop``)."""
    from app import scenario_io
    from models import experiments

    sc = scenario_io.load_case("large_shop")
    print(f"Large shop as drawn ({len(sc.nodes)} cards), {sim_s:g} simulated s")
    t0, c0 = time.perf_counter(), time.process_time()
    result = experiments.run_experiment("custom", {"duration_s": sim_s}, seed=seed, scenario=sc)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    ios = result.metrics["io_rate"] * sim_s
    figs = {"sim_s_per_wall_s": sim_s / wall, "us_cpu_per_io": cpu / max(ios, 1) * 1e6,
            "peak_rss_mb": peak_rss_mb()}
    print(f"{ios:,.0f} I/Os: wall {wall:.2f} s, CPU {cpu:.2f} s (set-up and warm-up included)")
    print(f"  {figs['sim_s_per_wall_s']:.3f} simulated s per wall s, "
          f"{figs['us_cpu_per_io']:.1f} us CPU per I/O, peak RSS {figs['peak_rss_mb']:,.0f} MB")
    for name, f in result.components.items():
        if "members" in f:
            print(f"  {name}: " + ", ".join(f"{k}={v:.3g}" for k, v in f.items()))
    return figs


_FIGURES = re.compile(r"([\d.]+) simulated s per wall s, ([\d.]+) us CPU per I/O")


def run_ab(argv: list[str], repeat: int = 3) -> int:
    """This bench's figures with the compiled and the interpreted engine, alternating."""
    best: dict[str, tuple[float, float]] = {}
    for r in range(repeat):
        for mode in ("compiled", "python"):
            env = dict(os.environ, ZPERFLAB_ENGINE="" if mode == "compiled" else "python")
            out = subprocess.run([sys.executable, __file__, *argv], env=env, capture_output=True,
                                 text=True, check=True).stdout
            if mode == "compiled" and "engine compiled" not in out:
                print("no compiled engine is built (bash packaging/setup.sh builds it)")
                return 1
            found = _FIGURES.search(out)
            assert found, out
            fig = (float(found.group(1)), float(found.group(2)))
            print(f"  run {r + 1} {mode:<8}: {fig[0]:.2f} simulated s per wall s, "
                  f"{fig[1]:.1f} us CPU per I/O")
            if mode not in best or fig[1] < best[mode][1]:
                best[mode] = fig
    (cs, cu), (ps, pu) = best["compiled"], best["python"]
    print(f"best of {repeat}: compiled {cs:.2f} simulated s per wall s, {cu:.1f} us CPU per I/O; "
          f"interpreted {ps:.2f}, {pu:.1f} us: the compiled engine is {pu / cu:.2f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sim_seconds", nargs="?", type=float, help="simulated seconds (default 5)")
    ap.add_argument("io_rate", nargs="?", type=float, help="I/Os per second (default 20,000)")
    ap.add_argument("--seconds", type=float, help="simulated seconds (as the first argument)")
    ap.add_argument("--rate", type=float, help="I/Os per second (as the second argument)")
    ap.add_argument("--volumes", type=int, default=None, help=f"volumes (default {VOLUMES})")
    ap.add_argument("--channels", type=int, default=None, help=f"channel paths (default {CHANNELS})")
    ap.add_argument("--control-units", type=int, default=None,
                    help=f"control units (default {CUS})")
    ap.add_argument("--reference", action="store_true",
                    help="issue 29's shop: 1,000 volumes, 16 channels, 4 units, 200,000 I/O/s "
                         "(1 simulated s unless --seconds)")
    ap.add_argument("--large-shop", action="store_true",
                    help="the reference point as drawn: the built-in Large shop's storage and "
                         "channel groups through the one run path (0.2 simulated s unless "
                         "--seconds; set-up and cache warm-up included)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=tuple(KINDS), default=None,
                    help="every I/O of one kind of the mix: the CPU an I/O of that kind costs")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile listing")
    ap.add_argument("--ab", action="store_true",
                    help="compiled vs interpreted engine: this command in fresh interpreters, "
                         "alternating, best of 3 each")
    args = ap.parse_args(argv)
    if args.ab:
        rest = [a for a in (sys.argv[1:] if argv is None else argv) if a != "--ab"]
        return run_ab(rest)
    vols, chans, cus, rate = REFERENCE if args.reference else (VOLUMES, CHANNELS, CUS, 20_000.0)
    sim_s = 1.0 if args.reference else 5.0
    sim_s = next(x for x in (args.seconds, args.sim_seconds, sim_s) if x is not None)
    rate = next(x for x in (args.rate, args.io_rate, rate) if x is not None)
    vols = vols if args.volumes is None else args.volumes
    chans = chans if args.channels is None else args.channels
    cus = cus if args.control_units is None else args.control_units
    if min(vols, chans, cus) < 1 or sim_s <= 0 or rate <= 0:
        ap.error("volumes, channels, control units, seconds and rate must be positive")
    if args.large_shop:
        run_large_shop(args.seconds or args.sim_seconds or 0.2, args.seed)
        return 0
    run(sim_s, rate, args.profile, vols, chans, cus, args.seed, args.kind)
    return 0


if __name__ == "__main__":
    sys.exit(main())
