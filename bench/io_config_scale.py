"""Bench: a large I/O configuration under a mixed load, simulated vs wall time.

64 volumes (3390-9, HDD15K, 3 HyperPAV aliases each) on 8 RAID-5 ranks (8
volumes a rank), behind 2 control units (32 volumes and 64 GB each), both
reached by 8 zHPF channel paths. Poisson arrivals at ``rate`` I/Os per
second, each to a random volume:

* 75 % single-page random reads of a hot set (mostly cache hits),
* 5 % single-page random reads anywhere on the volume (misses),
* 10 % 32-page sequential reads continuing one of the volume's streams
  (sequential detection and prestage),
* 10 % writes of 1–4 pages of the hot set (DASD fast write; each destage
  is a RAID-5 small write, 4 drive operations, in the background).

The ranks do most of the work (destages and misses); the channels and
the cache have room.

Prints simulated I/Os per wall second, simulated seconds per wall second,
events per I/O, and the RMF figures of a few components; ``--profile``
adds the top of a cProfile listing.

    .venv/bin/python bench/io_config_scale.py [sim_seconds] [rate] [--profile]
"""
from __future__ import annotations

import cProfile
import pstats
import random
import sys
import time

from models.drawing.config import ChannelPath, Configuration, ControlUnit, Rank, Volume
from models.engine import Engine
from models.io.system import IOSystem

VOLUMES, RANKS, CHANNELS, CUS = 64, 8, 8, 2
HOT_TRACKS = 2_000          # per volume: 24,000 pages, ~94 MB; 64 of them fit 2 x 64 GB
VOLUME_TRACKS = 150_000     # a 3390-9


def configuration() -> Configuration:
    cus = tuple(f"DS8K-{c + 1}" for c in range(CUS))
    return Configuration(
        channels=tuple(ChannelPath(f"CHPID {0x40 + i:02X}", "zHPF", "FEx8S", control_units=cus)
                       for i in range(CHANNELS)),
        control_units=tuple(ControlUnit(c, 64.0) for c in cus),
        ranks=tuple(Rank(f"R{r + 1}", "HDD15K") for r in range(RANKS)),
        volumes=tuple(Volume(f"PRD{v:03d}", "HDD15K", cus[v % CUS], (f"R{v % RANKS + 1}",), 3)
                      for v in range(VOLUMES)))


def build(sim_s: float, rate: float, seed: int = 1):
    eng = Engine(seed)
    system = IOSystem(eng, configuration())
    vols = [system.volume(v.name) for v in system.config.volumes]
    for v in vols:
        v.warm_tracks(0, HOT_TRACKS)
    rng = random.Random(seed)
    seq_next = {v.name: 12 * (VOLUME_TRACKS // 2) for v in vols}
    n = int(sim_s * rate)

    def arrivals():
        rnd = rng.random
        expo = rng.expovariate
        rr = rng.randrange
        for _ in range(n):
            yield expo(rate)
            vol = vols[rr(VOLUMES)]
            u = rnd()
            if u < 0.75:
                io = vol.read([(rr(HOT_TRACKS), 1 << rr(12))])
            elif u < 0.8:
                io = vol.read([(rr(VOLUME_TRACKS), 1 << rr(12))])
            elif u < 0.9:
                first = seq_next[vol.name]
                seq_next[vol.name] = first + 32
                io = vol.read_range(first, 32)
            else:
                first = rr(12 * HOT_TRACKS)
                io = vol.write_pages(range(first, first + 1 + rr(4)))
            eng.process(io)

    eng.process(arrivals())
    return eng, system


def run(sim_s: float, rate: float, profile: bool = False) -> None:
    eng, system = build(sim_s, rate)
    prof = cProfile.Profile() if profile else None
    t0, c0 = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    eng.run()
    if prof:
        prof.disable()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    ios = sum(v.completed for v in system.volumes())
    print(f"{ios} I/Os in {eng.now:.2f} simulated s at {rate:g}/s: wall {wall:.2f} s, "
          f"CPU {cpu:.2f} s")
    print(f"  {ios / wall:,.0f} simulated I/Os per wall second, "
          f"{eng.now / wall:.2f} simulated s per wall s, {cpu / ios * 1e6:.1f} us CPU per I/O, "
          f"{eng.events_run / ios:.2f} events per I/O")
    figs = system.component_figures(eng.now)
    for name in ("CHPID 40", "CHPID 47", "DS8K-1", "DS8K-2", "R1", "PRD000", "PRD063"):
        print(f"  {name}: " + ", ".join(f"{k}={v:.3g}" for k, v in figs[name].items()))
    waits = sum(v.path_waits for v in system.volumes())
    print(f"  connects whose channel work queued behind other I/Os: {waits}")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(14)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    run(float(args[0]) if args else 5.0, float(args[1]) if len(args) > 1 else 20_000.0,
        "--profile" in sys.argv)
