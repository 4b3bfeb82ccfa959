"""Engine speed against SimPy on the same M/M/1 disk model.

One disk, one server, FIFO queue, Poisson arrivals, exponential service,
utilisation 0.9, 200,000 requests. Both engines run in this process with the
same random draws; the script prints requests per second for each, the
ratio, and each engine's mean response time against M/M/1 theory
(1/(mu - lambda)).

    python bench/engine_vs_simpy.py [--requests N] [--repeat R]

Needs the ``bench`` extra (``pip install simpy``).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.engine import Engine, Resource  # noqa: E402

LAMBDA = 0.9      # arrivals per ms
MU = 1.0          # services per ms


def draws(n: int, seed: int) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    return ([rng.expovariate(LAMBDA) for _ in range(n)],
            [rng.expovariate(MU) for _ in range(n)])


def run_ours(inter: list[float], serv: list[float]) -> tuple[float, float]:
    eng = Engine(seed=1)
    disk = Resource(eng, 1, "disk")
    total = [0.0]

    def request(s: float):
        t0 = eng.now
        yield disk
        yield s
        disk.release()
        total[0] += eng.now - t0

    def arrivals():
        process = eng.process
        for ia, s in zip(inter, serv):
            yield ia
            process(request(s))

    t = time.perf_counter()
    eng.process(arrivals())
    eng.run()
    wall = time.perf_counter() - t
    return wall, total[0] / len(inter)


def run_simpy(inter: list[float], serv: list[float]) -> tuple[float, float]:
    import simpy

    env = simpy.Environment()
    disk = simpy.Resource(env, capacity=1)
    total = [0.0]

    def request(s: float):
        t0 = env.now
        with disk.request() as req:
            yield req
            yield env.timeout(s)
        total[0] += env.now - t0

    def arrivals():
        for ia, s in zip(inter, serv):
            yield env.timeout(ia)
            env.process(request(s))

    t = time.perf_counter()
    env.process(arrivals())
    env.run()
    wall = time.perf_counter() - t
    return wall, total[0] / len(inter)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3, help="best of R runs each")
    args = ap.parse_args()
    try:
        import simpy  # noqa: F401
    except ImportError:
        print("bench needs simpy: .venv/bin/pip install simpy", file=sys.stderr)
        return 2
    theory = 1.0 / (MU - LAMBDA)
    ours, theirs = [], []
    for r in range(args.repeat):
        inter, serv = draws(args.requests, seed=r + 1)
        ours.append(run_ours(inter, serv))
        theirs.append(run_simpy(inter, serv))
    best_ours = min(w for w, _ in ours)
    best_simpy = min(w for w, _ in theirs)
    mean_ours = statistics.fmean(m for _, m in ours)
    mean_simpy = statistics.fmean(m for _, m in theirs)
    n = args.requests
    print(f"M/M/1 disk, rho={LAMBDA / MU:.2f}, {n:,} requests, best of {args.repeat}")
    print(f"  zperflab engine : {n / best_ours:12,.0f} requests/s  ({best_ours:.3f} s)")
    print(f"  SimPy           : {n / best_simpy:12,.0f} requests/s  ({best_simpy:.3f} s)")
    print(f"  ratio           : {best_simpy / best_ours:.2f}x SimPy")
    print(f"  mean response   : ours {mean_ours:.3f} ms, SimPy {mean_simpy:.3f} ms, "
          f"M/M/1 theory {theory:.3f} ms")
    print(f"  deviation       : ours {100 * (mean_ours / theory - 1):+.2f}%, "
          f"SimPy {100 * (mean_simpy / theory - 1):+.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
