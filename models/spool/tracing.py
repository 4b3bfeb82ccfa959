"""Trace rows (docs/trace.md) for spool volumes, tape drives and the buffer.

Programs hold ``None`` instead of a :class:`SpoolTrace` when the run records
no trace, and test for it at each call site, so the hot path does nothing.
"""
from __future__ import annotations

from models.engine import trace_vocab as V
from models.engine import Trace


class SpoolTrace:
    """Interned component and kind ids for the spool vocabulary.

    Parameters
    ----------
    trace : Trace
    volumes, drives : list of str
        Canvas labels of the spool volumes (by index, the checkpoint
        volume last) and of the tape drives.
    """

    def __init__(self, trace: Trace, volumes: list[str], drives: list[str]):
        self.trace = trace
        self.rec = trace.record
        self.vol = [trace.component(n, V.VOL) for n in volumes]
        self.tape = [trace.component(n, V.TAPE) for n in drives]
        self.buf = trace.component("Real storage buffer", V.BUF)
        k = trace.kind
        self.k_read, self.k_write = k(V.VOLUME_READ), k(V.TAPE_WRITE)
        self.k_vwrite = k(V.VOLUME_WRITE)
        self.k_tread, self.k_mark = k(V.TAPE_READ), k(V.TAPE_MARK)
        self.k_cs, self.k_ce = k(V.TAPE_CHANGE_START), k(V.TAPE_CHANGE_END)
        self.k_buf = k(V.BUFFER_LEVEL)
        trace.meta.setdefault("records_per_track", 12)

    def volume_page(self, t: float, vol: int, file_no: int, write: bool = False) -> None:
        """A spool page read from (a dump) or written to (a load) a volume."""
        self.rec(t, self.vol[vol], self.k_vwrite if write else self.k_read, 1, file_no)

    def tape_block(self, t: float, drive: int, nbytes: int, file_no: int, read: bool = False) -> None:
        self.rec(t, self.tape[drive], self.k_tread if read else self.k_write, nbytes, file_no)

    def tape_mark(self, t: float, drive: int, file_no: int) -> None:
        self.rec(t, self.tape[drive], self.k_mark, file_no, 0)

    def change(self, start: float, end: float, drive: int, cartridge: int) -> None:
        self.rec(start, self.tape[drive], self.k_cs, cartridge, 0)
        self.rec(end, self.tape[drive], self.k_ce, cartridge, 0)

    def buffer(self, t: float, level: int, capacity: int) -> None:
        self.rec(t, self.buf, self.k_buf, level, capacity)
