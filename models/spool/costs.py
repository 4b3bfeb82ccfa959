"""CPU cost per operation, dispatch delay under other work, idle accounting.

CPU time is charged to ``models.cpu.Accounting`` (the processor model's
accounting) from per-operation path lengths, set once here. They are our
estimates of CP path lengths on the published 9121-742 (about 25 MIPS per
processor): an I/O (build, start, interrupt, completion) ~3,700
instructions, moving a page through storage ~1,500, selecting, opening and
closing one spool file ~5,000.

Creating a spool file (LOAD) costs more than reading one (DUMP): CP builds
the spool file block, gives it a spoolid, records it in the checkpoint
area and chains it onto the spool file chain of its type, and it
allocates a spool slot for every page it writes. The chain of spool file
blocks is walked to its end to add the new file, so the n-th file
created costs ``n - 1`` chain steps: a load of F files of one type walks
about F²/2 blocks in all. That walk, not the pages, is what makes LOAD cost
an order of magnitude more CPU than DUMP with tens of thousands of files.
Path lengths (estimates at ~25 instructions per µs): building the file
~10,000 instructions (``CREATE_FILE_US``), allocating a slot ~1,000
(``ALLOC_PAGE_US``), one chain step — load the next pointer from a block
that is rarely in the processor cache, compare, branch — about one µs
(``CHAIN_STEP_US``). Which chain: VM/370's logic manual (SY20-0886,
"spool file management") keeps the spool file blocks of closed files on
"one file chain each for printer, reader, and punch files", system-wide,
so the walk runs over every file of that type already created, whoever
owns it. We take the loaded files to be of one type (all on one chain;
assumption) and assume VM/ESA kept that chain (not verified for VM/ESA).

Background work: with processors busy a share ``u`` of the time with other
work, a unit of CP work that becomes ready waits for a processor. We take
the wait as exponential with mean ``u / (1 - u)`` times the mean burst of
the other work (M/M/1 waiting time), ``OTHER_BURST_S`` = 1 ms (a CMS
interactive transaction's CPU burst on that processor; estimate), and
stretch its own CPU time by ``1 / (1 - u)``.
"""
from __future__ import annotations

import random

from models.cpu import Accounting

IO_CPU_US = 150.0
PAGE_CPU_US = 60.0
FILE_CPU_US = 200.0
CREATE_FILE_US = 400.0
ALLOC_PAGE_US = 40.0
CHAIN_STEP_US = 1.0
OTHER_BURST_S = 0.001

COMPONENT = "SPOOL"


class Cpu:
    """Charges CPU and draws dispatch delays.

    Parameters
    ----------
    util : float
        Background processor utilisation, 0–0.95.
    rng : random.Random
        The run's ``dispatch`` stream.
    """

    def __init__(self, util: float, rng: random.Random):
        self.account = Accounting()
        self.util = util
        self._rng = rng
        self._wait_mean = OTHER_BURST_S * util / (1.0 - util)
        self._stretch = 1.0 / (1.0 - util)
        self.us = 0.0

    def step(self, ios: int = 0, pages: int = 0, files: int = 0, allocated: int = 0,
             created: int = 0, queued: int = 0) -> float:
        """Charge one unit of work; returns its elapsed seconds (dispatch + CPU).

        ``allocated`` pages get a new spool slot; ``created`` files are built
        and chained behind ``queued`` files already on their chain.
        """
        us = (ios * IO_CPU_US + pages * PAGE_CPU_US + files * FILE_CPU_US
              + allocated * ALLOC_PAGE_US
              + created * (CREATE_FILE_US + queued * CHAIN_STEP_US))
        self.us += us
        wait = self._rng.expovariate(1.0) * self._wait_mean if self._wait_mean else 0.0
        return wait + us * 1e-6 * self._stretch

    def close(self) -> Accounting:
        """Book the total with the processor model's accounting."""
        self.account.charge(COMPONENT, "gcp", self.us)
        return self.account


class Activity:
    """Time during a tape change when nothing moved.

    Count operations in progress (``begin``/``end``) and changes in progress
    (``change_begin``/``change_end``); idle time accrues while a change is on
    and no operation is.
    """

    def __init__(self):
        self.active = 0
        self.changing = 0
        self.idle_s = 0.0
        self._t = 0.0

    def _advance(self, t: float) -> None:
        if self.changing and not self.active and t > self._t:
            self.idle_s += t - self._t
        self._t = max(self._t, t)

    def begin(self, t: float) -> None:
        self._advance(t)
        self.active += 1

    def end(self, t: float) -> None:
        self._advance(t)
        self.active -= 1

    def change_begin(self, t: float) -> None:
        self._advance(t)
        self.changing += 1

    def change_end(self, t: float) -> None:
        self._advance(t)
        self.changing -= 1
