"""The CPU cost of every mechanism the processor model knows, set once.

Every CPU figure the lab reports for zIIP work comes from counted events
(switches, supervisor calls, access-method requests, Adabas calls, Natural
statements, bytes moved, sort comparisons) multiplied by the costs below.
The same cost holds for every operation and every experiment: a switch costs
the same whether a print line, a work-file record, a sort exit or an Adabas
call caused it.

Where the values come from
--------------------------
The published figures of case study D (Software AG, "Tuning zIIP Usage",
Natural; D1–D4 in targets.json) come in pairs that differ in one mechanism
only, so the algebra isolates each cost (docs/model-cpu.md has the working):

* D1 − D2 (multi-fetch 1 → 8, 100,000 records) removes 87,500 Adabas calls
  and 4,431 ms: one Adabas call round trip (two switches + the call's own
  processing) costs about 50.6 µs.
* What D2 still spends beyond its 12,500 calls is per-record work: about
  3.1 µs per record, one Natural statement (the READ loop body).
* D3 − D4 (print cache off → 132 KB) removes ~9,990 round trips and 318 ms:
  one print round trip (two switches + one access-method PUT) costs about
  32 µs. The switch pair is common to both round trips, so it is at most
  32 µs; 2 × 12 µs leaves 8 µs for a PUT and 27 µs for the Adabas call's
  SVC, cross-memory transfer and WAIT/POST, both ordinary path lengths for
  a z196-class engine (~1,000 instructions per µs).
* D4's remainder, ~6 µs per printed line, is two Natural statements
  (the FOR loop and the WRITE), matching the 3 µs per statement of D2.

Per-record work is operation-specific (docs/model-cpu.md has the table):
an Adabas record arrives through the format buffer already in Natural's
internal formats (the nucleus converted it), so the READ loop costs one
statement plus the move; a print line is the FOR loop and the WRITE (two
statements plus the move into the buffer); a work-file record is the READ
WORK FILE loop statement, the record move *and* a conversion of every field
of the record layout from its external format into the program's variables
(with a validity check of each numeric field), ``field_convert_us`` each.

Quantities that the four figures do not pin (supervisor call, OPEN/CLOSE,
sort comparison, 3GL routine body) are typical z/OS path lengths, stated
beside each value; no published figure depends on them by more than 1 %.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CpuCosts:
    """CPU costs in microseconds (nanoseconds where the name says so).

    Attributes
    ----------
    switch_us : float
        One mode switch, either direction (SRB→TCB or TCB→SRB): suspend
        the enclave SRB, schedule/resume the TCB on a general CP, and back.
        12 µs (D1–D4 algebra, see module docstring).
    svc_us : float
        One simple supervisor call in TCB mode (GETMAIN, FREEMAIN, STIMER
        timer set): interrupt, SVC first-level handler, the service, exit.
        4 µs (≈4,000 instructions; a typical z/OS SVC path length).
    open_close_us : float
        OPEN or CLOSE of a data set (SVC 19/20, DCB/DEB build, catalog and
        VTOC look-up done in storage), or invoking the sort program.
        150 µs (a typical OPEN path length; appears once per file).
    access_call_us : float
        One access-method request (QSAM PUT/GET of a record or a buffer,
        or a record handed to or from the sort program through an exit),
        including its share of building and starting the channel program.
        8 µs (D3−D4 algebra).
    adabas_call_us : float
        Caller-side processing of one Adabas call: ADALNK, the SVC to the
        Adabas router, the cross-memory copy of the control block and
        buffers, WAIT for the nucleus and the POST that ends it. The
        nucleus's own CPU is charged to the Adabas address space, not to
        the Natural session. 27 µs (D1−D2 algebra).
    statement_us : float
        The Natural runtime executing one statement (a loop iteration, a
        WRITE formatting a line, a CALL, a FETCH). 3 µs (D2 and D4).
    move_ns_per_byte : float
        Moving one byte between buffers (MVC/MVCL including cache misses).
        1 ns (≈1 GB/s, a z196-class engine moving data in storage).
    compare_ns : float
        One sort key comparison with its share of record exchange.
        50 ns (a few CLC/MVC instructions).
    call_3gl_body_us : float
        The body of a small 3GL (COBOL/Assembler) routine called once per
        record, run in TCB mode on a general CP. 2 µs.
    field_convert_us : float
        Natural's runtime converting one field of a work-file record into
        the program variable it is read into (MOVE with format conversion
        and, for numeric fields, a validity check): about the work of a
        simple statement. 2 µs (estimate, ≈2,000 instructions; the same
        scale as ``statement_us``).
    """

    switch_us: float = 12.0
    svc_us: float = 4.0
    open_close_us: float = 150.0
    access_call_us: float = 8.0
    adabas_call_us: float = 27.0
    statement_us: float = 3.0
    move_ns_per_byte: float = 1.0
    compare_ns: float = 50.0
    call_3gl_body_us: float = 2.0
    field_convert_us: float = 2.0

    def move_us(self, nbytes: float) -> float:
        """CPU to move ``nbytes`` bytes, in microseconds."""
        return nbytes * self.move_ns_per_byte * 1e-3


#: The costs every experiment uses unless a test substitutes its own.
DEFAULT_COSTS = CpuCosts()
