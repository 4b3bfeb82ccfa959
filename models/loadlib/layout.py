"""Where a load library's records sit on 3390 tracks.

A PDS is a directory of 256-byte keyed blocks (45 to a track; each block's
8-byte key is the highest member name in it) followed by the members. A load
module member is written by the binder as a run of records: CESD records,
then for every text block a control record (what the next text record
holds), the RECFM=U text block itself and the RLD records that relocate it
(the last RLD record of a block doubles as the next block's control record,
the very last carries the end-of-module flag). Text blocks are as large as
BLKSIZE allows; when a full block no longer fits on the track the binder
writes a shorter block that fills the rest of it ("track fill"), so little
of a track is wasted at 32760 and more is at small block sizes, where every
text block also drags a control record along.

All placement uses the exact 3390 cell arithmetic of
:mod:`models.io.geometry`; nothing here knows about time.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from models.io.geometry import (CELLS_PER_TRACK, largest_block_fitting, record_cells,
                                records_per_track)
from models.loadlib import costs as C

#: Record kinds a member is made of (index used in traces and tables).
ESD, CONTROL, TEXT, RLD, DIRECTORY = "esd", "control", "text", "rld", "directory"


class Record(NamedTuple):
    """One physical record: its kind, data length and address.

    ``track`` is relative to the start of the data set, ``number`` is the
    record number on that track (1-based) and ``cell`` the cell where it
    starts (for rotational timing on a native 3390).
    """

    kind: str
    length: int
    track: int
    number: int
    cell: int
    key_len: int = 0


class TrackWriter:
    """Writes records one after another on consecutive 3390 tracks.

    Parameters
    ----------
    track : int
        First track to write on.
    """

    def __init__(self, track: int = 0):
        self.track = track
        self.used = 0          # cells used on the current track
        self.number = 0        # records on the current track
        self.records = 0
        self.bytes = 0

    @property
    def free_cells(self) -> int:
        """Cells still free on the current track."""
        return CELLS_PER_TRACK - self.used

    def fits(self, length: int, key_len: int = 0) -> bool:
        """Does a record of ``length`` bytes fit on the current track?"""
        return record_cells(length, key_len) <= self.free_cells

    def new_track(self) -> None:
        """Leave the rest of this track empty and go on to the next."""
        if self.number:
            self.track += 1
            self.used = 0
            self.number = 0

    def write(self, kind: str, length: int, key_len: int = 0) -> Record:
        """Write one record, starting a new track if it does not fit here."""
        cells = record_cells(length, key_len)
        if cells > CELLS_PER_TRACK - self.used:
            self.new_track()
        rec = Record(kind, length, self.track, self.number + 1, self.used, key_len)
        self.used += cells
        self.number += 1
        self.records += 1
        self.bytes += length
        return rec

    @property
    def tracks_used(self) -> int:
        """Tracks touched from track 0 to the current one (inclusive if used)."""
        return self.track + (1 if self.number else 0)


# -- the PDS directory ------------------------------------------------------------------
def entries_per_block() -> int:
    """Directory entries in one 256-byte block (2 bytes hold the used length)."""
    return (C.DIR_BLOCK_BYTES - 2) // C.DIR_ENTRY_BYTES


def directory_blocks(members: int) -> int:
    """Directory blocks a PDS with ``members`` load-module members fills.

    The blocks are kept full in collating order; the last one also holds
    the end-of-directory entry.
    """
    if members < 0:
        raise ValueError("a library cannot have a negative number of members")
    return max(1, math.ceil((members + 1) / entries_per_block()))


def directory_tracks(members: int) -> int:
    """Tracks the directory occupies (45 keyed blocks per 3390 track)."""
    per = records_per_track(C.DIR_BLOCK_BYTES, C.DIR_KEY_BYTES)
    return math.ceil(directory_blocks(members) / per)


def entry_index(members: int, position: float) -> int:
    """Index (0-based, collating order) of the entry at ``position`` 0–1."""
    return int(round(position * (members - 1))) if members > 1 else 0


def block_of_entry(index: int) -> int:
    """Directory block (0-based) that holds entry ``index``."""
    return index // entries_per_block()


def directory_records(blocks: int) -> list[Record]:
    """The first ``blocks`` directory blocks as keyed records, from track 0."""
    w = TrackWriter(0)
    return [w.write(DIRECTORY, C.DIR_BLOCK_BYTES, C.DIR_KEY_BYTES) for _ in range(blocks)]


# -- a load module as the binder writes it -------------------------------------------------
@dataclass
class MemberLayout:
    """The records of one member and what fetch must process."""

    records: list[Record] = field(default_factory=list)
    text_bytes: int = 0
    adcons: int = 0

    @property
    def fetched(self) -> list[Record]:
        """The records program fetch reads: from the first control record on.

        CESD records are for the binder; fetch starts at the control record
        whose address the directory entry gives.
        """
        return [r for r in self.records if r.kind != ESD]

    def by_track(self) -> list[list[Record]]:
        """Fetched records grouped by track, in order."""
        groups: list[list[Record]] = []
        for rec in self.fetched:
            if groups and groups[-1][0].track == rec.track:
                groups[-1].append(rec)
            else:
                groups.append([rec])
        return groups

    @property
    def text_blocks(self) -> int:
        """Text blocks (RECFM=U records of program text) in the member."""
        return sum(1 for r in self.records if r.kind == TEXT)


def csects(nbytes: int) -> int:
    """CSECTs in ``nbytes`` of text (at least one)."""
    return max(1, math.ceil(nbytes / C.CSECT_BYTES))


def _control_bytes(text_len: int) -> int:
    return C.CONTROL_BYTES + 4 * csects(text_len)


def _text_length(w: TrackWriter, want: int, lead_cells: int) -> int:
    """Length of the next text block: full, or a shorter one filling the track.

    Both writers of a load library fill a track's end with a shorter block,
    whatever the BLKSIZE (so at half-track 23440 too):

    * IEBCOPY COPYMOD: IBM, *z/OS DFSMSdfp Utilities* (SC23-6864), "Copying
      and Reblocking Load Modules",
      https://www.ibm.com/docs/en/zos/2.5.0?topic=program-copying-reblocking-load-modules:
      "IEBCOPY will determine the amount of space remaining on a track before
      assigning a size to the next block to be written. If this amount is
      smaller than the output block size, IEBCOPY will try to determine if a
      smaller block can be written to use the remaining space on the track."
    * the binder: its longest text block is the library's block size unless
      MAXBLK says otherwise (*z/OS MVS Program Management: User's Guide and
      Reference*, "MAXBLK", http://www-01.ibm.com/support/knowledgecenter/SSLTBW_2.1.0/com.ibm.zos.v2r1.ieab100/maxblk.htm:
      "MAXBLK defaults to the block size of the data set"), and "when the
      Binder thinks it is ready to write a very large block, it determines if
      the block it wants to write will fit on the current output track. If
      not, it writes the largest block that will actually fit on the track"
      (a practitioner, not IBM: https://ibmmainframeforum.com/operating-systems/topic9519.html).

    The smallest such block (``MIN_FILL_BLOCK``) is not published as a
    default; 1,024 is the lower end of COPYMOD's MINBLK/MAXBLK range.

    ``lead_cells`` are cells the control record before it still needs on
    this track. Returns ``want`` after moving to a new track if not even a
    ``MIN_FILL_BLOCK`` block fits here.
    """
    free = w.free_cells - lead_cells
    if free >= record_cells(want):
        return want
    fill = largest_block_fitting(free, limit=want) if free > 0 else 0
    if fill >= min(C.MIN_FILL_BLOCK, want):
        return fill
    w.new_track()
    return want


def _rld_records(w: TrackWriter, adcons: int, out: list[Record], last: bool, next_ctl: int) -> None:
    """RLD records for one text block; the last doubles as the next control record."""
    n = max(1, math.ceil(adcons / C.RLD_PER_RECORD))
    left = adcons
    for i in range(n):
        entries = min(left, C.RLD_PER_RECORD)
        left -= entries
        length = 16 + 4 * entries if entries else 0
        if i == n - 1:
            length += 8 if last else next_ctl     # end-of-module flag or next control
        out.append(w.write(RLD if entries else CONTROL, min(length, C.MAX_CONTROL_RECORD)))


def write_module(w: TrackWriter, nbytes: int, blksize: int) -> MemberLayout:
    """Write a load module of ``nbytes`` text the way the binder does.

    Parameters
    ----------
    w : TrackWriter
        Where to write (continues on the writer's current track).
    nbytes : int
        Text bytes of the module (at least 1).
    blksize : int
        The library's BLKSIZE: the longest text block.

    Returns
    -------
    MemberLayout
    """
    if nbytes < 1 or blksize < C.MAX_CONTROL_RECORD:
        raise ValueError(f"cannot write a {nbytes}-byte module at BLKSIZE {blksize}")
    out: list[Record] = []
    esd = 2 * csects(nbytes)                     # an SD and an ER per CSECT
    for i in range(math.ceil(esd / C.ESD_PER_RECORD)):
        n = min(C.ESD_PER_RECORD, esd - i * C.ESD_PER_RECORD)
        out.append(w.write(ESD, 8 + 16 * n))
    total_adcons = nbytes // C.BYTES_PER_ADCON
    ctl = _control_bytes(min(nbytes, blksize))
    lead = record_cells(ctl)                      # the first control record is still to write
    done = adcons_done = 0
    while done < nbytes:
        length = _text_length(w, min(nbytes - done, blksize), lead)
        if lead:
            out.append(w.write(CONTROL, ctl))
            lead = 0
        out.append(w.write(TEXT, length))
        done += length
        adcons = total_adcons * done // nbytes - adcons_done
        adcons_done += adcons
        _rld_records(w, adcons, out, done >= nbytes, ctl)
    return MemberLayout(out, nbytes, total_adcons)


# -- a whole library -----------------------------------------------------------------------
@dataclass(frozen=True)
class Space:
    """What copying a library at one block size takes."""

    tracks: int
    blocks: int
    bytes: int
    directory_tracks: int


def library_space(sizes: list[int], blksize: int) -> Space:
    """Copy members of ``sizes`` bytes into a new PDS at ``blksize``.

    Members follow each other without gaps (IEBCOPY and the binder start a
    member on the track where the previous one ended), after the directory.

    Returns
    -------
    Space
        Tracks used (directory included), blocks and data bytes written.
    """
    dtracks = directory_tracks(len(sizes))
    w = TrackWriter(dtracks)
    for nbytes in sizes:
        write_module(w, int(nbytes), blksize)
    dblocks = directory_blocks(len(sizes))
    return Space(w.tracks_used, w.records + dblocks,
                 w.bytes + dblocks * C.DIR_BLOCK_BYTES, dtracks)
