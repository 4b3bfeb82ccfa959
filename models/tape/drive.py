"""Timing of one 3490 tape drive: buffered and synchronous writes, reads,
tape marks, end of volume and cartridge changes.

The drive is not an engine process: the spool programs ask it "a block
arrives at time t; when is the host free again?" and schedule their own
events from the answer. That keeps one event per block.

Mechanisms (constants below, set once):

* Buffered write (SPXTAPE): the host is free once the block is in the
  control unit buffer (I/O start overhead plus the channel transfer at
  4.5 MB/s), unless the buffer is full, in which case it waits for the tape
  to drain it. The tape streams at 3 MB/s; if no data arrives within one gap
  time the tape stops and backhitches (repositions) in the background,
  ``START_STOP_S``, before it can write again.
* Synchronous write (SPTAPE writes each block in tape-write-immediate mode,
  as written for reel drives without a buffer): the host waits for the
  start, the block passing the head, and the stop and reposition.
* Tape mark: a synchronising command, so it always waits like a synchronous
  write.
* Read: the drive reads ahead into its buffer while streaming, so the host
  waits only when it has caught up with the tape, or after a tape mark,
  where read-ahead stops.

Sources: 4.5 MB/s channel and 3 MB/s drive: DOMAIN.md §1 (Tape 3490).
2 MB control unit buffer: IBM 3490 A-unit standard buffer. I/O start
overhead 0.5 ms: typical channel and control unit command processing of the
period (assumption). ``START_STOP_S`` = 17 ms: a 3480-class drive cannot stop
inside the 2 mm gap at 2 m/s, so every stop is a decelerate, reverse and
re-accelerate cycle; no published figure was available to us, the value is
our estimate and it sets the cost of every synchronous block (see
docs/model-spool.md).
"""
from __future__ import annotations

import random

from models.tape.media import (DATA_RATE_B_S, Cartridge, block_inches, pass_time_s,
                               tape_mark_inches, IBG_INCHES)

#: Channel data rate, bytes per second.
CHANNEL_RATE_B_S = 4.5e6
#: Command and control unit overhead of one tape I/O, seconds.
IO_OVERHEAD_S = 0.0005
#: Stop, backhitch and restart cycle, seconds.
START_STOP_S = 0.017
#: Relative spread of one stop/start cycle (mechanical variation; estimate).
START_STOP_SPREAD = 0.3
#: Control unit data buffer, bytes.
BUFFER_BYTES = 2 * 1024 * 1024


def _buffer_s() -> float:
    """Seconds of drive streaming the buffer holds (``BUFFER_BYTES`` read at call time)."""
    return BUFFER_BYTES / DATA_RATE_B_S


_GAP_S = pass_time_s(IBG_INCHES)


class TapeChannel:
    """A channel path that tape drives hang off: one 4.5 MB/s data stream.

    Drives drawn on the same CHPID share it: a block's transfer starts when
    the channel has finished the blocks booked before it (first come, first
    served). Bookings are made at their issue times, which the spool
    programs reach in time order.
    """

    def __init__(self, name: str = "CHP"):
        self.name = name
        self.free_at = 0.0
        #: Seconds the channel spent moving blocks.
        self.busy_s = 0.0

    def transfer(self, t: float, nbytes: int) -> float:
        """Move ``nbytes`` from ``t`` (or when the channel frees); returns the end."""
        start = t if t > self.free_at else self.free_at
        dt = nbytes / CHANNEL_RATE_B_S
        self.free_at = start + dt
        self.busy_s += dt
        return self.free_at


class TapeDrive:
    """One 3490 drive and the cartridge mounted on it.

    Parameters
    ----------
    index : int
        Drive number (``TAPE<index>`` in traces).
    rng : random.Random or None
        Draws the mechanical spread of each stop/start cycle (uniform within
        ±``START_STOP_SPREAD`` of the mean); ``None`` uses the mean.
    name : str
        Canvas label.
    channel : TapeChannel or None
        The channel path; ``None``: one of its own.
    """

    def __init__(self, index: int, rng: random.Random | None = None, name: str = "",
                 channel: TapeChannel | None = None):
        self.index = index
        #: Canvas label (``TAPE1``); reports and the trace use it.
        self.name = name or f"TAPE{index}"
        #: The channel path it is drawn on (shared with the drives on the same CHPID).
        self.channel = channel if channel is not None else TapeChannel(f"{self.name} channel")
        #: Seconds the tape was moving data or changing cartridges.
        self.busy_s = 0.0
        self._rng = rng
        self._stopped = False
        self.cartridge = Cartridge(1)
        self.cartridges = 1
        self.media_end = 0.0      # tape finishes the data it holds
        self.ready = 0.0          # tape positioned and able to start
        self.changes = 0
        self.change_s = 0.0
        self.blocks = 0
        self.marks = 0
        self.bytes = 0

    # -- capacity -----------------------------------------------------------
    def fits_block(self, nbytes: int) -> bool:
        """Does a block of ``nbytes`` fit before end of volume?"""
        return self.cartridge.fits(block_inches(nbytes))

    def fits_mark(self) -> bool:
        return self.cartridge.fits(tape_mark_inches())

    def change(self, t: float, change_s: float) -> float:
        """Rewind, unload and mount a fresh cartridge from ``t``; returns the end."""
        done = max(t, self.media_end) + change_s
        self.changes += 1
        self.change_s += done - max(t, self.media_end)
        self.busy_s += done - max(t, self.media_end)
        self.cartridges += 1
        self.cartridge = Cartridge(self.cartridges)
        self.media_end = self.ready = done
        return done

    def _stop_start(self) -> float:
        if self._rng is None:
            return START_STOP_S
        return START_STOP_S * (1.0 + START_STOP_SPREAD * (2.0 * self._rng.random() - 1.0))

    # -- writing ------------------------------------------------------------
    def _media_start(self, arrive: float) -> float:
        if arrive <= self.media_end + _GAP_S:
            return max(arrive, self.media_end)      # still streaming
        return max(arrive, self.ready)              # stopped: wait for reposition

    def _account(self, nbytes: int, mark: bool = False) -> float:
        inches = tape_mark_inches() if mark else block_inches(nbytes)
        self.cartridge.use(inches, mark)
        if mark:
            self.marks += 1
        else:
            self.blocks += 1
            self.bytes += nbytes
        dt = pass_time_s(inches)
        self.busy_s += dt
        return dt

    def write_buffered(self, t: float, nbytes: int) -> float:
        """Write a block in buffered mode at ``t``; returns when the host is free."""
        arrive = t + IO_OVERHEAD_S
        start = self._media_start(arrive)
        self.media_end = start + self._account(nbytes)
        # If the tape stops after this block it repositions at once, in the background.
        self.ready = self.media_end + self._stop_start()
        return max(self.channel.transfer(arrive, nbytes), self.media_end - _buffer_s())

    def write_sync(self, t: float, nbytes: int) -> float:
        """Write a block in tape-write-immediate mode; returns device end."""
        arrive = self.channel.transfer(t + IO_OVERHEAD_S, nbytes)
        start = self._media_start(arrive)
        self.media_end = start + self._account(nbytes)
        self.ready = self.media_end + self._stop_start()
        return self.ready

    def write_mark(self, t: float) -> float:
        """Write a tape mark (synchronising); returns device end."""
        start = self._media_start(t + IO_OVERHEAD_S)
        self.media_end = start + self._account(0, mark=True)
        self.ready = self.media_end + self._stop_start()
        return self.ready

    # -- reading ------------------------------------------------------------
    def read(self, t: float, nbytes: int, mark: bool = False) -> float:
        """Read the next block (or tape mark) at ``t``; returns when the host has it.

        The drive streams ahead of the host by at most its buffer, but it
        does not read ahead past a tape mark: after one it stops, and the
        next read waits for it to start again.
        """
        if self._stopped:
            start = max(t + IO_OVERHEAD_S, self.ready)
            self._stopped = False
        else:
            start = max(self.media_end, self.ready, t - _buffer_s())
        self.media_end = start + self._account(nbytes, mark)
        if mark:
            self._stopped = True
            self.ready = self.media_end + self._stop_start()
        return max(self.channel.transfer(t + IO_OVERHEAD_S, nbytes), self.media_end)
