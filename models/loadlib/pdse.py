"""PDSE structure: 4 KB pages, an indexed directory, program-object classes.

A PDSE stores everything in 4 KB pages (12 to a 3390 track) whatever BLKSIZE
says: BLKSIZE only shapes the blocks a program *reading* the member sees.
Its directory is an index of pages (about :data:`~costs.PDSE_INDEX_FANOUT`
names a page), so finding a member reads one page per index level, a number
that grows with the logarithm of the member count; SMSPDSE keeps the pages
it has read in its buffers while the library is open.

A program object is stored as classes: the text the program runs, the
relocation class the loader needs to relocate it, and classes the loader
never needs (external symbols, IDRs, ADATA). The binder's FETCHOPT decides
how they are laid out and read:

* ``NOPACK``: each class starts on a page boundary in its own run of pages;
  the loader reads a header page to learn where the classes are, then each
  class it needs (text and relocation) with its own reads: classes are
  loaded on demand, the rest is never read.
* ``PACK,PRIME``: the whole object is packed into one contiguous run and
  primed: read in one go, in as few (and as long) media-manager chains as
  possible, including the classes the loader does not need.
* ``PRIME`` (with or without PACK) loads every page before the program runs;
  ``NOPRIME`` allows page-fault loading, which keeps LLA from staging the
  object in VLF (IBM APAR II14026).

Media manager reads contiguous pages in chains of up to
:data:`~costs.MM_CHAIN_PAGES` pages per channel program, over zHPF.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from models.io.geometry import PAGE_BYTES, record_cells, records_per_track
from models.loadlib import costs as C
from models.loadlib.layout import Record, csects

PAGE = "page"
PAGES_PER_TRACK = records_per_track(PAGE_BYTES)
FETCHOPTS = ("NOPACK,NOPRIME", "PACK,PRIME", "NOPACK,PRIME")


def index_depth(members: int) -> int:
    """Index pages read to find one member among ``members``."""
    if members < 1:
        raise ValueError("a PDSE index needs at least one member")
    depth, reach = 1, C.PDSE_INDEX_FANOUT
    while reach < members:
        depth += 1
        reach *= C.PDSE_INDEX_FANOUT
    return depth


def page_record(page: int) -> Record:
    """The 4 KB page ``page`` of the data set as a record on its track."""
    track, i = divmod(page, PAGES_PER_TRACK)
    return Record(PAGE, PAGE_BYTES, track, i + 1, i * record_cells(PAGE_BYTES))


@dataclass(frozen=True)
class ProgramObject:
    """Bytes of each class of a program object of ``text`` bytes."""

    text: int
    header: int
    rld: int
    nonload: int
    adcons: int

    @classmethod
    def of(cls, nbytes: int) -> "ProgramObject":
        """The classes the binder writes for ``nbytes`` of text."""
        adcons = nbytes // C.BYTES_PER_ADCON
        header = 256 + 64 * csects(nbytes)           # object header and class directory
        return cls(nbytes, header, adcons * C.PDSE_RLD_BYTES_PER_ADCON,
                   int(nbytes * C.PDSE_NONLOAD_FRACTION), adcons)

    def runs(self, fetchopt: str) -> list[int]:
        """Page counts of the runs the loader reads at LOAD, in order."""
        if fetchopt not in FETCHOPTS:
            raise ValueError(f"unknown FETCHOPT {fetchopt!r}; known: {', '.join(FETCHOPTS)}")
        if fetchopt.startswith("PACK"):
            total = self.header + self.text + self.rld + self.nonload
            return [math.ceil(total / PAGE_BYTES)]
        return [math.ceil(b / PAGE_BYTES) for b in (self.header, self.text, self.rld) if b]

    def stored_pages(self, fetchopt: str) -> int:
        """Pages the object occupies in the library."""
        if fetchopt.startswith("PACK"):
            return self.runs(fetchopt)[0]
        return sum(self.runs(fetchopt)) + math.ceil(self.nonload / PAGE_BYTES)


def chains(first_page: int, runs: list[int]) -> list[list[Record]]:
    """Media-manager channel programs that read ``runs`` stored from ``first_page``.

    Runs follow each other in the data set; each run is read on its own, in
    chains of at most :data:`~costs.MM_CHAIN_PAGES` pages.
    """
    out: list[list[Record]] = []
    page = first_page
    for n in runs:
        for start in range(0, n, C.MM_CHAIN_PAGES):
            size = min(C.MM_CHAIN_PAGES, n - start)
            out.append([page_record(page + start + i) for i in range(size)])
        page += n
    return out
