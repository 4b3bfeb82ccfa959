"""Engine speed against SimPy on the same M/M/1 disk model.

One disk, one server, FIFO queue, Poisson arrivals, exponential service,
utilisation 0.9, 200,000 requests. Every engine runs in this process with
the same random draws; the script prints requests per second for each, the
ratio, and each engine's mean response time against M/M/1 theory
(1/(mu - lambda)).

Besides SimPy, two peers in the same run make the figures comparable across
machines: zPerfLab's engine interpreted (core.py as Python, whether or not
the compiled engine is built) and a bare heapq loop, the same queue as a
hand-written event loop with no processes (about the limit of interpreted
Python). The "ratio" line is the engine models use (compiled when
packaging/setup.sh has built it). Runs alternate, best of R each.

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

import models.engine as engine  # noqa: E402

LAMBDA = 0.9      # arrivals per ms
MU = 1.0          # services per ms


def draws(n: int, seed: int) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    return ([rng.expovariate(LAMBDA) for _ in range(n)],
            [rng.expovariate(MU) for _ in range(n)])


def run_ours(inter: list[float], serv: list[float], core=engine) -> tuple[float, float]:
    eng = core.Engine(seed=1)
    disk = core.Resource(eng, 1, "disk")
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


def run_heapq(inter: list[float], serv: list[float]) -> tuple[float, float]:
    """The same queue as a bare event loop: a heapq of (time, seq, kind, service)."""
    from collections import deque
    from heapq import heappop, heappush

    t = time.perf_counter()
    heap: list = []
    queue: deque = deque()
    seq = 0
    busy = False
    total = 0.0
    now = 0.0
    arrivals = iter(zip(inter, serv))
    ia, s = next(arrivals)
    heappush(heap, (ia, seq, 0, s))
    while heap:
        now, _seq, kind, s = heappop(heap)
        seq += 1
        if kind == 0:                       # arrival: start or queue, next arrival
            if busy:
                queue.append((now, s))
            else:
                busy = True
                heappush(heap, (now + s, seq, 1, now))
            nxt = next(arrivals, None)
            if nxt is not None:
                seq += 1
                heappush(heap, (now + nxt[0], seq, 0, nxt[1]))
        else:                               # departure (s = arrival time)
            total += now - s
            if queue:
                t_arr, s2 = queue.popleft()
                heappush(heap, (now + s2, seq, 1, t_arr))
            else:
                busy = False
    wall = time.perf_counter() - t
    return wall, total / len(inter)


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
    interpreted = engine.interpreted_core()
    kind = "compiled" if engine.COMPILED else "interpreted, not compiled"
    runs: dict[str, list[tuple[float, float]]] = {"ours": [], "interp": [], "simpy": [], "heapq": []}
    for r in range(args.repeat):
        inter, serv = draws(args.requests, seed=r + 1)
        runs["ours"].append(run_ours(inter, serv))
        runs["interp"].append(run_ours(inter, serv, interpreted))
        runs["simpy"].append(run_simpy(inter, serv))
        runs["heapq"].append(run_heapq(inter, serv))
    best = {k: min(w for w, _ in v) for k, v in runs.items()}
    mean = {k: statistics.fmean(m for _, m in v) for k, v in runs.items()}
    n = args.requests
    print(f"M/M/1 disk, rho={LAMBDA / MU:.2f}, {n:,} requests, best of {args.repeat}")
    rows = [("zperflab engine", "ours", f"  ({kind})"), ("  interpreted", "interp", ""),
            ("SimPy", "simpy", ""), ("bare heapq loop", "heapq", "  (no processes)")]
    for label, key, note in rows:
        print(f"  {label:<16}: {n / best[key]:12,.0f} requests/s  ({best[key]:.3f} s, "
              f"{best['simpy'] / best[key]:5.2f}x SimPy){note}")
    print(f"  ratio           : {best['simpy'] / best['ours']:.2f}x SimPy")
    print(f"  compiled/interp : {best['interp'] / best['ours']:.2f}x" if engine.COMPILED else
          "  compiled/interp : no compiled engine (bash packaging/setup.sh builds it)")
    print(f"  mean response   : ours {mean['ours']:.3f} ms, SimPy {mean['simpy']:.3f} ms, "
          f"M/M/1 theory {theory:.3f} ms")
    print(f"  deviation       : ours {100 * (mean['ours'] / theory - 1):+.2f}%, "
          f"SimPy {100 * (mean['simpy'] / theory - 1):+.2f}%")
    for key in ("interp", "heapq"):
        if abs(mean[key] - mean["ours"]) > 1e-9 * mean["ours"]:
            print(f"  WARNING: {key} mean response {mean[key]!r} differs from ours {mean['ours']!r}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
