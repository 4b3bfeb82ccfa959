"""A 3390 spool volume: one page I/O at a time, seek, rotation and transfer.

Timing comes from the native 3390 profile in ``models.io.devices`` (4,224
RPM, seek curve through the published 9.5 ms average) and the track layout
from ``models.io.geometry`` (12 page records per track; a record passes the
head in ``record_cells / 1729`` of a turn). The rotational position is
tracked in time, so a program that asks for the next record on a track just
after the previous one ended finds it has gone by and waits almost a whole
turn: separate page I/Os cannot catch consecutive records. That is the
"rotation per page" that makes serial page-at-a-time programs slow.

``DASD_START_S`` (channel and 3990 control unit start overhead per I/O,
0.4 ms mean) is our estimate for the period; any value above the 0.16 ms
gap between records gives the same behaviour. It varies from I/O to I/O
(path and control unit contention, CP path lengths): we draw it from an
exponential distribution.

Rotational position is deterministic within a revolution: an I/O that
starts less than one turn after the previous one ended on the same volume
finds the records where the spindle put them (so back-to-back I/Os to
consecutive records miss by almost a turn). After a longer pause we draw
the position uniformly: variations in path lengths and spindle speed over
many revolutions make it effectively random, and tracking it exactly would
let a program that cycles over unsynchronised spindles phase-lock to them,
which real spindles do not.
"""
from __future__ import annotations

import random
from collections import deque

from models.io.devices import profile
from models.io.geometry import (CELLS_PER_TRACK, MODELS, PAGE_BYTES, TRACKS_PER_CYLINDER,
                                record_cells)
from models.spool.placement import PAGES_PER_TRACK, SPOOL_MODEL

#: Channel and control unit overhead before the device starts, seconds (mean).
DASD_START_S = 0.0004

_PROFILE = profile("3390")
ROTATION_S = _PROFILE.rotation_ms / 1000.0
#: Time one 4 KB page record takes to pass the head.
RECORD_S = ROTATION_S * record_cells(PAGE_BYTES) / CELLS_PER_TRACK
CYLINDERS = MODELS[SPOOL_MODEL]
SLOTS_PER_CYLINDER = PAGES_PER_TRACK * TRACKS_PER_CYLINDER


class SpoolVolume:
    """One spool volume's arm, rotation and FIFO queue of page I/Os.

    Parameters
    ----------
    index : int
        Volume number (``VOL<index>`` in traces).
    phase : float
        Rotational position at time 0, as a fraction of a turn.
    rng : random.Random or None
        Draws start overheads and rotational positions after a pause
        (``None``: a stream seeded by ``index``).
    """

    def __init__(self, index: int, phase: float = 0.0, rng: random.Random | None = None,
                 name: str = ""):
        self.index = index
        #: Canvas label (``SPOOL1``); reports and the trace use it.
        self.name = name or f"VOL{index}"
        self._rng = rng if rng is not None else random.Random(index)
        self.last_end = -1.0
        self.phase_s = phase * ROTATION_S
        self.cyl = 0
        self.queue: deque = deque()
        self.busy = False
        self.ios = 0
        self.busy_s = 0.0
        self.seeks = 0

    def access(self, t: float, slot: int) -> float:
        """Start a one-page I/O to ``slot`` at ``t``; returns its end time."""
        cyl, rest = divmod(int(slot), SLOTS_PER_CYLINDER)
        t0 = t + self._rng.expovariate(1.0 / DASD_START_S)
        if cyl != self.cyl:
            t0 += _PROFILE.seek_ms(abs(cyl - self.cyl) / CYLINDERS) / 1000.0
            self.cyl = cyl
            self.seeks += 1
        if t - self.last_end < ROTATION_S:
            rec_start = (rest % PAGES_PER_TRACK) * RECORD_S
            wait = (rec_start - (t0 - self.phase_s)) % ROTATION_S
        else:
            wait = self._rng.random() * ROTATION_S
        end = t0 + wait + RECORD_S
        self.last_end = end
        self.ios += 1
        self.busy_s += end - t
        return end
