"""A Natural session running a program as an enclave SRB on a zIIP.

The session turns each step of a :mod:`~models.natural.program` into CPU
work and operating-system services on a :class:`~models.cpu.UnitOfWork`.
Every switch follows from a counted event of the program and the profile:

* program start: a timer request when MT > 0 (also each fetched program);
* an Adabas call per ``multi_fetch`` records;
* a PUT per print line, or per full PWCSIZE buffer (the last, partly
  filled buffer is written at the end of the step);
* a GET per work-file record, or per buffer of the work-file cache, with
  OPEN at the first read and CLOSE at program end;
* external sort: LINK to the sort program, one E15 exit per record in
  (SORTIN), one E35 exit per record out (SORTOUT); internal sort: none,
  apart from the storage it needs;
* storage: with THSIZE 0, a GETMAIN per :data:`STORAGE_INCREMENT_KB` piece
  whenever a fetched program or the internal sort needs storage (and a
  FREEMAIN when it is given back); with THSIZE, one GETMAIN for the thread
  at the first need and one FREEMAIN at program end;
* each 3GL call.

The print file (CMPRINT) is opened when the session starts, before the
program runs, so its OPEN and CLOSE are not part of the program's count.
"""
from __future__ import annotations

import math
from typing import Callable

from models.cpu import DEFAULT_COSTS, SRB, CpuCosts, ProcessorComplex, services
from models.natural.program import (FetchPrograms, Profile, ReadAdabas, ReadWork, Sort,
                                    WriteLines)

#: Size of one piece of storage Natural GETMAINs when it has no thread
#: (THSIZE 0). Assumption: a 64 KB increment, the usual z/OS subpool unit
#: for program work areas; only the THSIZE comparison depends on it.
STORAGE_INCREMENT_KB = 64
#: Who the session's own CPU is charged to when no workload card names it.
NATURAL = "Natural"


class ThreadStorage:
    """Where the session's extra storage comes from: the thread or GETMAIN."""

    def __init__(self, thsize_kb: int):
        self.size = thsize_kb
        self.used = 0.0
        self.thread = False

    def obtain(self, kb: float) -> tuple[int, int]:
        """Get ``kb``: returns (GETMAINs issued now, pieces to FREEMAIN later)."""
        if self.size and self.used + kb <= self.size:
            first = 0 if self.thread else 1
            self.thread = True
            self.used += kb
            return first, 0
        pieces = max(1, math.ceil(kb / STORAGE_INCREMENT_KB))
        return pieces, pieces

    def release(self, kb: float, pieces: int) -> int:
        """Give ``kb`` back; returns the FREEMAINs this takes."""
        if pieces == 0:
            self.used -= kb
        return pieces


class NaturalSession:
    """Runs a program for one Natural session on a processor complex.

    Parameters
    ----------
    cpx : ProcessorComplex
    profile : Profile
    costs : CpuCosts
    progress : callable or None
        Called with the fraction of the program's records done.
    name : str
        The session's name: its workload card's label on the canvas. The
        session's own CPU is charged to it (:data:`NATURAL` without a card).
    """

    def __init__(self, cpx: ProcessorComplex, profile: Profile,
                 costs: CpuCosts = DEFAULT_COSTS,
                 progress: Callable[[float], None] | None = None, name: str = NATURAL):
        self.cpx = cpx
        self.profile = profile
        self.costs = costs
        self.name = name
        self.uow = cpx.unit_of_work(name, mode=SRB, ziip_eligible=True)
        self.storage = ThreadStorage(profile.thsize_kb)
        self._progress = progress
        self._done = 0
        self._total = 1
        self._work_open = False
        self.end_time = 0.0

    # -- driver ---------------------------------------------------------------
    def run(self, program: tuple):
        """The session as an engine process (a generator)."""
        self._total = max(1, sum(_size(s) for s in program))
        handlers: dict[type, Callable] = {ReadAdabas: self._read_adabas, WriteLines: self._write_lines,
                    ReadWork: self._read_work, Sort: self._sort, FetchPrograms: self._fetch}
        yield from self._program_start()
        for step in program:
            yield from handlers[type(step)](step)
            self._done += _size(step)
            self._advance(0)
        yield from self._program_end()
        self.end_time = self.cpx.engine.now

    def _program_start(self):
        if self.profile.mt > 0:
            yield from self.uow.service(services.timer_request(self.costs))

    def _program_end(self):
        c = self.costs
        if self._work_open:
            yield from self.uow.service(services.close_file(0, c))
        if self.storage.thread:
            yield from self.uow.service(services.freemain(c))
        yield from self.uow.run()

    def _advance(self, n: int) -> None:
        if self._progress is not None:
            self._progress(min(1.0, (self._done + n) / self._total))

    def _on_batches(self, per_batch: int) -> Callable[[int], None]:
        def report(batches: int) -> None:
            self._advance(batches * per_batch)
        return report

    # -- record loops -----------------------------------------------------------
    def _loop(self, n: int, k: int, item_us: float, calls_3gl: int, svc_of, svc_first: bool):
        """``n`` items in batches of ``k``, one service per batch, 3GL calls per item."""
        c3 = services.call_3gl(self.costs)
        full, rem = divmod(n, k)
        carry = 0.0
        batches = [(full, k)] + ([(1, rem)] if rem else [])
        for count, size in batches:
            svc = svc_of(size)
            first, carry = _cycle(size, item_us, calls_3gl, c3, svc, svc_first, carry)
            yield from self.uow.repeat(1, first, self.name)
            if count > 1:
                steady, carry = _cycle(size, item_us, calls_3gl, c3, svc, svc_first, carry)
                yield from self.uow.repeat(count - 1, steady, self.name, self._on_batches(size))
        self.uow.work(carry, self.name)

    def _read_adabas(self, step: ReadAdabas):
        c = self.costs
        k = min(self.profile.multi_fetch, step.records)
        item = c.statement_us + c.move_us(step.record_bytes)
        yield from self._loop(step.records, k, item, step.calls_3gl,
                              lambda m: services.adabas_call(m, step.record_bytes, c), True)

    def _write_lines(self, step: WriteLines):
        c = self.costs
        k = _per_buffer(self.profile.print_cache_kb, step.line_bytes, step.lines)
        # FOR loop iteration + WRITE formatting, then the line moves to the buffer.
        item = 2 * c.statement_us + c.move_us(step.line_bytes)
        yield from self._loop(step.lines, k, item, step.calls_3gl,
                              lambda m: services.put(m * step.line_bytes, c), False)

    def _read_work(self, step: ReadWork):
        c = self.costs
        if not self._work_open:
            self._work_open = True
            yield from self.uow.service(services.open_file(c))
        k = _per_buffer(self.profile.work_cache_kb, step.record_bytes, step.records)
        # The READ WORK FILE loop, the record move, and each field converted
        # from the work file's format into its program variable.
        item = (c.statement_us + c.move_us(step.record_bytes)
                + step.fields * c.field_convert_us)
        yield from self._loop(step.records, k, item, step.calls_3gl,
                              lambda m: services.get(m * step.record_bytes, c), True)

    # -- sort and fetch -----------------------------------------------------------
    def _sort(self, step: Sort):
        c = self.costs
        n, rb = step.records, step.record_bytes
        compares_us = n * math.log2(max(n, 2)) * c.compare_ns * 1e-3
        out_item = c.statement_us + c.move_us(rb)
        if self.profile.sort == "external":
            # The sort program runs in TCB mode: LINK (with its sorting work),
            # one E15 exit per record in and one E35 exit per record out.
            yield from self.uow.service(services.sort_invoke(compares_us, c))
            yield from self.uow.repeat(n, ((0.0, services.sort_exit(rb, c)),), self.name)
            yield from self._loop(n, 1, out_item, 0, lambda m: services.sort_exit(rb, c), True)
            return
        kb = n * rb / 1024
        got, pieces = self.storage.obtain(kb)
        yield from self.uow.repeat(got, ((0.0, services.getmain(c)),), self.name)
        self.uow.work(c.move_us(n * rb) + compares_us + n * out_item, self.name)
        freed = self.storage.release(kb, pieces)
        yield from self.uow.repeat(freed, ((0.0, services.freemain(c)),), self.name)

    def _fetch(self, step: FetchPrograms):
        """FETCH RETURN ``count`` times; fetches after the first all look alike."""
        carry = 0.0
        for count in (1, step.count - 1):
            if count <= 0:
                break
            got, pieces = self.storage.obtain(step.data_kb)
            freed = self.storage.release(step.data_kb, pieces)
            cycle, after = self._fetch_cycle(step, got, freed, carry)
            if cycle:
                yield from self.uow.repeat(1, cycle, self.name)
                if count > 1:
                    cycle, after = self._fetch_cycle(step, got, freed, after)
                    yield from self.uow.repeat(count - 1, cycle, self.name, self._advance)
            else:
                _, per_fetch = self._fetch_cycle(step, got, freed, 0.0)
                after = carry + count * per_fetch
            carry = after
        self.uow.work(carry, self.name)

    def _fetch_cycle(self, step: FetchPrograms, got: int, freed: int, carry: float):
        """One fetch as (work before, service) pairs and the work left after it."""
        c = self.costs
        items = []
        work = carry + c.statement_us            # the FETCH statement
        if self.profile.mt > 0:
            items.append((work, services.timer_request(c)))
            work = 0.0
        for _ in range(got):
            items.append((work, services.getmain(c)))
            work = 0.0
        work += step.statements * c.statement_us
        for _ in range(freed):
            items.append((work, services.freemain(c)))
            work = 0.0
        return tuple(items), work


def _cycle(k, item_us, calls_3gl, c3, svc, svc_first, carry):
    """One batch as (work before, service) pairs and the work left after it."""
    items = []
    if svc_first:
        items.append((carry, svc))
        carry = 0.0
    if calls_3gl:
        for _ in range(k):
            items.append((carry + item_us, c3))
            carry = 0.0
            items.extend([(0.0, c3)] * (calls_3gl - 1))
    else:
        carry += k * item_us
    if not svc_first:
        items.append((carry, svc))
        carry = 0.0
    return tuple(items), carry


def _per_buffer(cache_kb: int, item_bytes: int, n: int) -> int:
    """Lines or records per cache buffer (1 without a cache or for long items)."""
    per = (cache_kb * 1024) // item_bytes if cache_kb else 1
    return max(1, min(per, n))


def _size(step) -> int:
    return getattr(step, "records", None) or getattr(step, "lines", None) or step.count
