"""SPXTAPE LOAD: how it could write its pages, and what each way gives (issue #17, point 2).

The model today gives SPXTAPE LOAD the ``even`` layout and writes one page
after another (``models/spool/spxtape.py``). That is an assignment, not a
mechanism: CP allocates spool space for every load. This bench runs the
load through CP's allocation under several write mechanisms and prints,
for each, the published SPXTAPE LOAD elapsed time (C4, 4,062 s ± 20 %),
the share of tape-change time the load overlaps (C6 load, 100 ± 10 %) at
the three validation seeds, and how long an SPXTAPE DUMP of the layout the
load left takes against the ``even`` layout (seed 1).

What the allocation is (public sources):

* VM/370 logic (SY20-0886, DMKPGT): a page comes from a cylinder that has
  a free slot; when there is none, a new cylinder is allocated, cylinders
  "evenly across all available channels and devices" (one at a time,
  volumes in turn; ``models.spool.placement.allocate``).
* z/VM data areas, SALBK (slot allocation block for paging and spooling):
  "pointers to control blocks for volume from which slots are currently
  being allocated": one allocation point for the whole system. So several
  writers share it: whoever writes next gets the next slot of the current
  cylinder (``shared``). The alternative, a cylinder held by each writer
  (``per writer``), has no source; it is run because it was the natural
  first guess.

What SPXTAPE LOAD's writers are (public sources, no numbers): z/VM data
areas name a LOAD DASD writer (HCPSPNDW) that deletes each file's control
block (TKTBK, "files dumped or loaded", queued "ready to go") and each
"allotment" of page buffers (SSQBK, created by the LOAD tape interrupt
handler HCPSPZRI); the command block counts "outstanding DASDIO tasks"
(plural). How many writers, and how many page writes each keeps in flight,
is not published: the runs below are structural assumptions, one writer
per spool volume as the dump has one reader per volume, and 1 page / one
32 KB tape block (8 pages) / every page in storage in flight.

Nothing here changes the model; the mechanisms are subclasses of the
model's pipeline, written out below.

Usage::

    .venv/bin/python bench/spool_load_mechanisms.py            # all mechanisms (~1.5 min)
    .venv/bin/python bench/spool_load_mechanisms.py --writers  # 1..16 writers (seed 1)
    .venv/bin/python bench/spool_load_mechanisms.py --symmetric  # one tape block per DASD task,
                                                                 # DUMP and LOAD
    .venv/bin/python bench/spool_load_mechanisms.py --sensitivity  # globals +-20 %
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.experiments import run_experiment  # noqa: E402
from models.core.params import ParamError  # noqa: E402
from models.spool import placement, spxtape  # noqa: E402
from models.spool import setup as spool_setup  # noqa: E402
from models.spool.sptape import CHECKPOINT_IOS_PER_FILE  # noqa: E402
from models.spool.volume import RECORD_S  # noqa: E402

SEEDS = (1, 7, 42)
C4 = (4062 * 0.8, 4062 * 1.2)
C6_LOAD = (90.0, 110.0)
C2 = (1362 * 0.8, 1362 * 1.2)
C6_DUMP = (23.0, 53.0)


class Allocator:
    """CP's cylinder-at-a-time slot allocation, a slot per page as it is written.

    ``shared``: one allocation point (SALBK); a serial writer gets the slots
    of :func:`models.spool.placement.allocate`. Otherwise each writer
    stream holds its own cylinder and takes a new one, volumes in turn.
    """

    def __init__(self, volumes: int, shared: bool):
        self.volumes, self.shared = volumes, shared
        self.unit = int(placement.ALLOCATION_PAGES)
        self.cylinders = 0
        self.held: dict[int, list[int]] = {}

    def cylinder_left(self, stream: int) -> int:
        cur = self.held.get(0 if self.shared else stream)
        return self.unit if cur is None or cur[2] >= self.unit else self.unit - cur[2]

    def take(self, stream: int = 0) -> tuple[int, int]:
        key = 0 if self.shared else stream
        cur = self.held.get(key)
        if cur is None or cur[2] >= self.unit:
            c = self.cylinders
            self.cylinders += 1
            base = (c // self.volumes) * self.unit
            if base + self.unit > placement.SLOTS_PER_VOLUME:
                raise ParamError("the pages do not fit on the spool volumes")
            cur = self.held[key] = [c % self.volumes, base, 0]
        cur[2] += 1
        return cur[0], cur[1] + cur[2] - 1


class Writers(spxtape._Load):
    """Tape side of the model's load; DASD side: ``writers`` writer tasks.

    Each writer takes the next file off the tape, creates it (checkpoint
    write, file block, chain walk: the model's costs), issues page writes
    (up to ``in_flight`` at a time, each page's slot taken from the
    allocator as its write is issued), and closes the file (checkpoint
    write) once its pages are on DASD. ``chain``: a serial writer writes
    a file's pages that fall on one cylinder in one channel program.
    """

    writers: int | None = None          # None: one per spool volume
    in_flight: int | None = 1           # None: every page of the file in storage
    shared: bool = True
    chain: bool = False

    def __init__(self, s):
        super().__init__(s)
        self.alloc = Allocator(len(s.volumes), self.shared)
        n = 1 if self.chain else (self.writers or len(s.volumes))
        self.limit = self.in_flight or 1 << 30
        self.w = [[-1, 0, 0, 0, False] for _ in range(min(n, s.files))]
        self.next_file = 0
        self.written = 0
        self.running = len(self.w)

    def start(self) -> None:
        self._kick()
        for w in range(len(self.w)):
            self._take_file(w)

    def _read_done(self, n: int) -> None:
        self.s.activity.end(self.eng.now)
        self.reading = False
        self.blocks_read += 1
        self.avail += n
        self._level()
        for w in range(len(self.w)):
            self._issue(w)
        self._kick()

    def _submit(self, vol, slot: int, npages: int, then, arg, **cost) -> None:
        vol.queue.append((slot, npages, then, arg, cost))
        if not vol.busy:
            self._start_io(vol)

    def _start_io(self, vol) -> None:
        slot, npages, then, arg, cost = vol.queue.popleft()
        vol.busy = True
        now, s = self.eng.now, self.s
        end = vol.access(now + s.cpu.step(ios=1, **cost), slot) + (npages - 1) * RECORD_S
        vol.busy_s += (npages - 1) * RECORD_S
        s.activity.begin(now)
        self.eng.schedule(end - now, self._io_done, (vol, then, arg))

    def _io_done(self, a) -> None:
        vol, then, arg = a
        self.s.activity.end(self.eng.now)
        vol.busy = False
        if vol.queue:
            self._start_io(vol)
        then(arg)

    def _take_file(self, w: int) -> None:
        s = self.s
        if self.next_file >= s.files:
            self.running -= 1
            if self.running == 0:
                self.end_time = self.eng.now
            return
        f = self.next_file
        self.next_file += 1
        first = int(s.first[f])
        self.w[w] = [f, first, first + int(s.sizes[f]), 0, False]
        ck = s.checkpoint
        self._submit(ck, ck.ios, 1, self._opened, w, files=1, created=1, queued=f)

    def _opened(self, w: int) -> None:
        self.w[w][4] = True
        self._issue(w)

    def _issue(self, w: int) -> None:
        wr, s = self.w[w], self.s
        if not wr[4]:
            return
        if self.chain:
            if wr[3]:
                return
            n = min(wr[2] - wr[1], self.alloc.cylinder_left(w))
            if n == 0 or wr[1] + n > self.avail:
                return
            pages = range(wr[1], wr[1] + n)
            for p in pages:
                s.vol[p], s.slot[p] = self.alloc.take(w)
            wr[1] += n
            wr[3] += n
            v = s.vol[pages[0]]
            self._submit(s.volumes[v], s.slot[pages[0]], n, self._written, (w, v, n),
                         pages=n, allocated=n)
            return
        while wr[1] < wr[2] and wr[1] < self.avail and wr[3] < self.limit:
            p = wr[1]
            wr[1] += 1
            wr[3] += 1
            v, slot = self.alloc.take(w)
            s.vol[p], s.slot[p] = v, slot
            self._submit(s.volumes[v], slot, 1, self._written, (w, v, 1), pages=1, allocated=1)

    def _written(self, a) -> None:
        w, _v, n = a
        wr = self.w[w]
        self.written += n
        self.reserved -= n
        wr[3] -= n
        self._kick()
        if wr[1] < wr[2]:
            self._issue(w)
        elif wr[3] == 0:
            self._close(w, CHECKPOINT_IOS_PER_FILE - 1)

    def _close(self, w: int, left: int) -> None:
        if left > 0:
            ck = self.s.checkpoint
            self._submit(ck, ck.ios, 1, lambda w_: self._close(w_, left - 1), w)
            return
        self._take_file(w)


class BlockReaders(spxtape._Dump):
    """The model's dump, each reader keeping one tape block of page reads in flight.

    The same assumption as the ``one tape block in flight`` load writers,
    on the dump side (the model's readers keep every page of their file
    that fits in storage in flight).
    """

    def _issue(self, k: int) -> None:
        task, s = self.tasks[k], self.s
        while (task[1] < task[2] and self.reserved < self.cap
               and task[3] < spxtape.PAGES_PER_BLOCK):
            p = task[1]
            task[1] += 1
            task[3] += 1
            self.reserved += 1
            vol = s.volumes[s.vol[p]]
            vol.queue.append((p, k))
            if not vol.busy:
                self._start_io(vol)
        if task[1] < task[2] and self.reserved >= self.cap and k not in self.blocked:
            self.blocked.append(k)

    def _io_done(self, arg) -> None:
        k = arg[2]
        super()._io_done(arg)
        task = self.tasks[k]
        if task[1] < task[2] and task[3] < spxtape.PAGES_PER_BLOCK:
            self._issue(k)


def dump_with(cls, overrides: dict, seed: int, layout=None) -> dict:
    """SPXTAPE DUMP metrics with ``cls`` as its pipeline (and ``layout``)."""
    orig_dump, orig_place = spxtape.dump, spool_setup.place

    def dump(s):
        pipe = cls(s)
        pipe.start()
        s.engine.run()
        return pipe.outcome(s.volumes)

    spxtape.dump = dump
    if layout is not None:
        spool_setup.place = lambda kind, sizes, volumes: layout
    try:
        return run_experiment("spool_dump", {"program": "SPXTAPE", **overrides},
                              seed=seed).metrics
    finally:
        spxtape.dump, spool_setup.place = orig_dump, orig_place


def mechanism(name, **kw):
    return name, type(name, (Writers,), kw)


MECHANISMS = [
    mechanism("one writer, 1 page per I/O (as SPTAPE)", writers=1, in_flight=1),
    mechanism("one writer, a file's pages on a cylinder chained in one I/O", chain=True),
    mechanism("writer per volume, 1 page write in flight each", in_flight=1),
    mechanism("writer per volume, one tape block (8 pages) in flight each",
              in_flight=spxtape.PAGES_PER_BLOCK),
    mechanism("writer per volume, every page in storage in flight", in_flight=None),
    mechanism("writer per volume, 1 page each, a cylinder per writer", in_flight=1, shared=False),
    mechanism("writer per volume, every page, a cylinder per writer", in_flight=None,
              shared=False),
]


def run_load(cls, seed: int):
    """SPXTAPE LOAD with ``cls`` as its pipeline: metrics and the layout left."""
    held = {}
    orig_load, orig_build = spxtape.load, spool_setup.build

    def load(s):
        held["s"] = s
        pipe = cls(s)
        pipe.start()
        s.engine.run()
        return pipe.outcome(s.volumes + [s.checkpoint])

    spxtape.load = load
    try:
        m = run_experiment("spool_load", {"program": "SPXTAPE"}, seed=seed).metrics
    finally:
        spxtape.load, spool_setup.build = orig_load, orig_build
    s = held["s"]
    return m, (np.asarray(s.vol, dtype=np.int32), np.asarray(s.slot, dtype=np.int64))


def dump_of(layout, seed: int = 1) -> float:
    """Elapsed seconds of an SPXTAPE DUMP of the files laid out as ``layout``."""
    orig = spool_setup.place
    spool_setup.place = lambda kind, sizes, volumes: layout
    try:
        return run_experiment("spool_dump", {"program": "SPXTAPE"}, seed=seed).metrics["elapsed_s"]
    finally:
        spool_setup.place = orig


def _flag(value, band) -> str:
    return "" if band[0] <= value <= band[1] else " (out)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writers", action="store_true",
                    help="vary the writers (every page in storage in flight), seed 1")
    ap.add_argument("--symmetric", action="store_true",
                    help="one tape block in flight per DASD task in DUMP as well as LOAD")
    ap.add_argument("--sensitivity", action="store_true",
                    help="spool globals at 0.8 and 1.2 x: C4 and C6 load, seed 1, "
                         "for the two writer-per-volume mechanisms that land C4")
    args = ap.parse_args()
    if args.sensitivity:
        import importlib
        globals_ = [("models.spool.volume", "DASD_START_S"), ("models.spool.placement", "ALLOCATION_PAGES"),
                    ("models.spool.costs", "IO_CPU_US"), ("models.spool.costs", "PAGE_CPU_US"),
                    ("models.spool.costs", "CREATE_FILE_US"), ("models.spool.costs", "ALLOC_PAGE_US"),
                    ("models.spool.costs", "CHAIN_STEP_US"), ("models.spool.spxtape", "STORAGE_SHARE")]
        for name, cls in (MECHANISMS[3], MECHANISMS[4]):
            print(name)
            for mod, attr in globals_:
                module = importlib.import_module(mod)
                v0 = getattr(module, attr)
                row = []
                for f in (0.8, 1.2):
                    setattr(module, attr, type(v0)(v0 * f))
                    try:
                        m, _ = run_load(cls, 1)
                    finally:
                        setattr(module, attr, v0)
                    row.append(f"{f} x: C4 {m['elapsed_s']:5.0f} s{_flag(m['elapsed_s'], C4):6} "
                               f"C6 {m['overlap_pct']:5.1f} %{_flag(m['overlap_pct'], C6_LOAD):6}")
                print(f"  {attr:17} " + "   ".join(row))
        return
    if args.symmetric:
        _, load_cls = MECHANISMS[3]
        for seed in SEEDS:
            ev = dump_with(BlockReaders, {}, seed)
            rs = dump_with(BlockReaders, {"placement": "restored"}, seed)
            m, layout = run_load(load_cls, seed)
            ld = dump_with(BlockReaders, {}, seed, layout)
            print(f"seed {seed:2}: DUMP even C2 {ev['elapsed_s']:5.0f} s{_flag(ev['elapsed_s'], C2):6} "
                  f"C6 {ev['overlap_pct']:4.1f} %{_flag(ev['overlap_pct'], C6_DUMP):6} "
                  f"C7 {ev['cpu_s']:3.0f} s; restored {rs['elapsed_s'] / ev['elapsed_s']:.2f} x; "
                  f"LOAD C4 {m['elapsed_s']:5.0f} s{_flag(m['elapsed_s'], C4):6} "
                  f"C6 {m['overlap_pct']:5.1f} %; dump of its layout "
                  f"{ld['elapsed_s'] / ev['elapsed_s']:.2f} x even")
        return
    t0 = time.perf_counter()
    even = run_experiment("spool_dump", {"program": "SPXTAPE"}, seed=1).metrics["elapsed_s"]
    rest = run_experiment("spool_dump", {"program": "SPXTAPE", "placement": "restored"},
                          seed=1).metrics["elapsed_s"]
    print(f"SPXTAPE DUMP, seed 1: even layout {even:.0f} s; restored (SPTAPE LOAD) layout "
          f"{rest:.0f} s = {rest / even:.2f} x even")
    if args.writers:
        for in_flight, what in ((None, "every page"), (spxtape.PAGES_PER_BLOCK, "one tape block")):
            for n in (1, 2, 3, 4, 5, 6, 8, 16):
                _, cls = mechanism(f"{n} writers", writers=n, in_flight=in_flight)
                m, _ = run_load(cls, 1)
                print(f"{n:2} writers, {what} in flight: C4 {m['elapsed_s']:5.0f} s"
                      f"{_flag(m['elapsed_s'], C4):6}  C6 load overlap {m['overlap_pct']:5.1f} %"
                      f"{_flag(m['overlap_pct'], C6_LOAD)}")
        return
    for seed in SEEDS:
        m = run_experiment("spool_load", {"program": "SPXTAPE"}, seed=seed).metrics
        print(f"model today (serial, even layout assigned), seed {seed:2}: C4 {m['elapsed_s']:5.0f} s"
              f"  C6 load overlap {m['overlap_pct']:5.1f} %")
    for name, cls in MECHANISMS:
        print(name)
        for seed in SEEDS:
            m, layout = run_load(cls, seed)
            line = (f"  seed {seed:2}: C4 {m['elapsed_s']:5.0f} s{_flag(m['elapsed_s'], C4):6}  "
                    f"C6 load overlap {m['overlap_pct']:5.1f} %{_flag(m['overlap_pct'], C6_LOAD):6}")
            if seed == 1:
                d = dump_of(layout)
                rv, rs_ = placement.allocate(len(layout[0]), int(layout[0].max()) + 1)
                same = 100.0 * np.mean((rv == layout[0]) & (rs_ == layout[1]))
                line += (f"  dump of this layout {d:5.0f} s = {d / even:.2f} x even; "
                         f"{same:.2f} % of pages where restored puts them")
            print(line)
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
