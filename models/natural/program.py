"""A Natural program as plain data: a tuple of steps the session executes.

Steps are small frozen dataclasses, so a GUI can list, edit and compose
them (``Program = tuple[Step, ...]``). Each step says what the program does,
not how many switches it costs: that follows from the session profile
(:class:`Profile`) when :mod:`models.natural.session` runs it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from models.core.params import ParamError


@dataclass(frozen=True)
class ReadAdabas:
    """``READ file`` loop: ``records`` records of ``record_bytes`` from Adabas."""

    records: int
    record_bytes: int = 132
    calls_3gl: int = 0


@dataclass(frozen=True)
class WriteLines:
    """``FOR … WRITE`` loop: ``lines`` lines of ``line_bytes`` to the print file."""

    lines: int
    line_bytes: int = 132
    calls_3gl: int = 0


@dataclass(frozen=True)
class ReadWork:
    """``READ WORK FILE`` loop: ``records`` records of ``record_bytes``.

    Each record is read into ``fields`` program variables (the record
    layout), every one converted from the work file's external format.
    Ten fields of a 132-byte record: a typical extract layout (assumption).
    """

    records: int
    record_bytes: int = 132
    calls_3gl: int = 0
    fields: int = 10


@dataclass(frozen=True)
class Sort:
    """``SORT BY … END-SORT`` over the ``records`` records read before it."""

    records: int
    record_bytes: int = 132


@dataclass(frozen=True)
class FetchPrograms:
    """``FETCH RETURN`` of a subprogram ``count`` times.

    Each fetched program runs ``statements`` statements and needs a data
    area of ``data_kb`` KB while it runs.
    """

    count: int
    statements: int = 5
    data_kb: int = 16


Step = Union[ReadAdabas, WriteLines, ReadWork, Sort, FetchPrograms]
Program = tuple


@dataclass(frozen=True)
class Profile:
    """The Natural session parameters that decide how work becomes switches.

    Attributes
    ----------
    mt : float
        CPU time limit per program, seconds; > 0 sets a timer at every
        program start (one switch), 0 sets none.
    multi_fetch : int
        Records per Adabas call.
    print_cache_kb, work_cache_kb : int
        PWCSIZE print / work-file cache buffers in KB; 0 writes or reads
        every line or record with its own access-method call.
    sort : str
        ``external`` (the z/OS sort program) or ``natural`` (internal).
    thsize_kb : int
        Thread size; 0 gets storage piecemeal with a GETMAIN each time.
    """

    mt: float = 60.0
    multi_fetch: int = 1
    print_cache_kb: int = 0
    work_cache_kb: int = 0
    sort: str = "external"
    thsize_kb: int = 0

    def __post_init__(self) -> None:
        if self.multi_fetch < 1:
            raise ParamError(f"multi_fetch must be at least 1, not {self.multi_fetch}")
        if self.sort not in ("external", "natural"):
            raise ParamError(f"sort must be 'external' or 'natural', not {self.sort!r}")
        if min(self.mt, self.print_cache_kb, self.work_cache_kb, self.thsize_kb) < 0:
            raise ParamError("mt, cache sizes and thsize_kb cannot be negative")


def program_for(operation: str, records: int, record_bytes: int, calls_3gl: int = 0) -> Program:
    """The built-in program behind each ``natural_ziip`` operation.

    Parameters
    ----------
    operation : str
        ``adabas_read``, ``print``, ``work_read``, ``sort`` or ``fetch_programs``.
    records : int
        Records read, lines printed, records sorted or programs fetched.
    record_bytes : int
        Record or line length.
    calls_3gl : int
        3GL calls per record of the main loop.

    Returns
    -------
    tuple of steps
    """
    if operation == "adabas_read":
        return (ReadAdabas(records, record_bytes, calls_3gl),)
    if operation == "print":
        return (WriteLines(records, record_bytes, calls_3gl),)
    if operation == "work_read":
        return (ReadWork(records, record_bytes, calls_3gl),)
    if operation == "sort":
        return (ReadAdabas(records, record_bytes, calls_3gl), Sort(records, record_bytes))
    if operation == "fetch_programs":
        return (FetchPrograms(records),)
    raise ParamError(f"unknown Natural operation '{operation}'")
