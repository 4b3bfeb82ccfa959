"""SPXTAPE: asynchronous read-ahead, storage buffering, 32 KB blocks, drives in turn.

Dump: DASD reader tasks, not tied to volumes, read the files in sections
of at most 32 pages (z/VM's "section quorum", one allotment of read
buffers). An idle reader takes the next section in dump order, so several
readers help the file at the head of the queue; it reserves the section's
pages in storage, queues their reads on whichever volumes hold them, and
takes the next section when they are all in. Pages read wait in
real storage until a tape drive takes them eight at a time as one 32 KB
block of a single tape file. A block goes to the lowest-numbered drive that
is free, so with DASD the bottleneck drives are used in turn and one is
changed while another writes; with tape the bottleneck all drives stream.
Reading stops only when the storage SPXTAPE may use is full, so it goes on
through a cartridge change until then.

Load: the tape side reads blocks ahead into storage (the next cartridge is
already mounted on the next drive when there are several), while CP
creates the spool files one at a time and writes their pages through its
spool write path one page at a time, recording each file in the checkpoint
area when it is opened and closed. That serial write is the limit, and
tape changes hide behind it as long as storage holds a change's worth.

The buffer is system real storage (:func:`buffer_pages`): CP lets SPXTAPE
hold a share of the real storage the rest of the system is not using, the
share its paging indicators allow before SPXTAPE's frames would have to be
stolen from other work. Less real storage, or a concurrent workload that
holds more of it, leaves a smaller buffer, so a dump stops reading sooner
during a cartridge change (docs/model-spool.md).
"""
from __future__ import annotations

from bisect import bisect_right
from collections import deque

from models.io.geometry import PAGE_BYTES
from models.spool.results import Outcome
from models.spool.setup import Setup
from models.spool.sptape import CHECKPOINT_IOS_PER_FILE
from models.tape import BLOCK_32K

#: Share of the free real storage (real storage less what other work holds)
#: that SPXTAPE's buffers may occupy before the paging indicators show
#: the system short of frames. Not published; set once from the published
#: one-drive dump (C6, 1,024 MB real storage, nothing else running) and
#: used for every dump and load, any storage size and any workload.
STORAGE_SHARE = 0.025
PAGES_PER_BLOCK = BLOCK_32K // PAGE_BYTES

#: Most pages a DUMP reads as one section: one "allotment of read buffers".
#: z/VM data area SSQBK ("SPXTAPE Section Quorum Block", created by
#: HCPSPXDU for DUMP; VM/ESA 2.4.0, http://www.vm.ibm.com/pubs/cp240/SSQBK.HTML,
#: same in cp410, cp610, cp710): "SSQVPGS (32) Slots for this group of
#: pages", "SSQALLOT SSQVPLEN/4 Standard quorum allotment" (= 32), with
#: "SSQPAGNO File relative page number of first page": a section lies
#: inside one file.
SECTION_PAGES = 32

#: DASD reader tasks per spool volume. The data areas show readers that are
#: organised by file ticket and buffer, not by volume (SPTBK,
#: https://www.vm.ibm.com/pubs/cp730/SPTBK.HTML: "SPTDASDQ Q of DASD rdrs
#: waiting for pages", "SPTPRIWK DASD rdrs waiting for active file",
#: "SPTDTSKS Count of outstanding DASDIO tasks"; TKTBK: "TKTSETUP ... don't
#: help now for DUMP"), but their number is a count field, not a
#: constant we could read. Assumed: as many readers as spool volumes
#: (docs/model-spool.md shows the sweep).
READERS_PER_VOLUME = 1.0


def readers(volumes: int) -> int:
    """DASD reader tasks of a dump over ``volumes`` spool volumes (>= 1)."""
    return max(1, round(READERS_PER_VOLUME * volumes))
PAGES_PER_MB = 1024 * 1024 // PAGE_BYTES


def buffer_pages(s: Setup) -> int:
    """Pages of real storage SPXTAPE may fill (at least one block).

    ``STORAGE_SHARE`` of the real storage that the rest of the system does
    not hold (``real_storage_mb - other_storage_mb``), read at call time.
    """
    free_mb = max(0.0, s.real_storage_mb - s.other_storage_mb)
    return max(PAGES_PER_BLOCK, int(STORAGE_SHARE * free_mb * PAGES_PER_MB))


class _Pipeline:
    """State shared by dump and load: storage, drives, progress, outcome."""

    def __init__(self, s: Setup):
        self.s = s
        self.eng = s.engine
        self.cap = buffer_pages(s)
        self.reserved = 0           # pages in storage or on their way in
        self.peak = 0
        self.busy = [False] * len(s.drives)
        self.changing = [False] * len(s.drives)
        self.end_time = 0.0

    def _change(self, d: int) -> None:
        now, drive = self.eng.now, self.s.drives[d]
        self.changing[d] = True
        end = drive.change(now, self.s.change_s)
        self.s.activity.change_begin(now)
        if self.s.trace is not None:
            self.s.trace.change(now, end, d, drive.cartridges)
        self.eng.schedule(end - now, self._change_done, d)

    def _change_done(self, d: int) -> None:
        self.changing[d] = False
        self.s.activity.change_end(self.eng.now)
        self._kick()

    def _kick(self) -> None:
        raise NotImplementedError

    def _level(self) -> None:
        self.peak = max(self.peak, self.reserved)
        if self.s.trace is not None:
            self.s.trace.buffer(self.eng.now, self.reserved, self.cap)

    def outcome(self, volumes: list) -> Outcome:
        s = self.s
        return Outcome("SPXTAPE", self.end_time, s.activity.idle_s, s.pages, s.files,
                       volumes, s.drives, s.cpu, self.cap, self.peak,
                       dasd_paths=s.dasd_paths)


class _Dump(_Pipeline):
    """SPXTAPE DUMP: reader tasks reading sections, feeding drives through storage.

    The work is a queue of sections in dump order: each file cut into
    consecutive sections of at most ``SECTION_PAGES`` pages. An idle reader
    takes the next section (so several readers help the file at the head of
    the queue before moving on), reserves its pages in storage (it waits on
    the storage queue while they do not fit), queues the section's page
    reads on whichever volumes hold those pages, and takes the next section
    when they are all in. No reader belongs to a volume.
    """

    def __init__(self, s: Setup):
        super().__init__(s)
        self.ready = 0
        self.read_done = 0
        self.written = 0
        self.next_file = 0
        self.next_page = 0              # next page of the dump sequence to hand out
        self.file_end = 0               # end page of the file being handed out
        self.left: list[int] = []       # page reads still out, per reader
        self.blocked: deque[int] = deque()

    def start(self) -> None:
        n = max(1, min(readers(len(self.s.volumes)), self.s.files))
        self.left = [0] * n
        for k in range(n):
            self._take_section(k)

    def _take_section(self, k: int) -> None:
        s = self.s
        if self.next_page >= self.file_end:
            if self.next_file >= s.files:
                return
            f = self.next_file
            self.next_file += 1
            s.cpu.step(files=1)
            self.next_page = int(s.first[f])
            self.file_end = self.next_page + int(s.sizes[f])
        n = min(SECTION_PAGES, self.file_end - self.next_page)
        # A section takes a whole allotment; one always fits an empty pool.
        if self.reserved and self.reserved + n > self.cap:
            if k not in self.blocked:
                self.blocked.append(k)
            return
        first = self.next_page
        self.next_page += n
        self.reserved += n
        self.left[k] = n
        for p in range(first, first + n):
            vol = s.volumes[s.vol[p]]
            vol.queue.append((p, k))
            if not vol.busy:
                self._start_io(vol)

    def _start_io(self, vol) -> None:
        p, k = vol.queue.popleft()
        vol.busy = True
        now, s = self.eng.now, self.s
        end = vol.access(now + s.cpu.step(ios=1, pages=1), s.slot[p])
        s.activity.begin(now)
        self.eng.schedule(end - now, self._io_done, (vol, p, k))

    def _io_done(self, arg) -> None:
        vol, p, k = arg
        s, now = self.s, self.eng.now
        s.activity.end(now)
        self.ready += 1
        self.read_done += 1
        if s.trace is not None:
            s.trace.volume_page(now, vol.index, self._file_of(p))
        vol.busy = False
        if vol.queue:
            self._start_io(vol)
        self.left[k] -= 1
        if self.left[k] == 0:
            self._take_section(k)
        self._kick()
        if self.read_done & 4095 == 0:
            s.ctx.progress(self.read_done / s.pages)

    def _file_of(self, p: int) -> int:
        """Index of the file holding dump page ``p`` (for the trace)."""
        return bisect_right(self.s.first, p) - 1

    def _kick(self) -> None:
        for d in range(len(self.s.drives)):
            if self.ready >= PAGES_PER_BLOCK or (self.read_done == self.s.pages and self.ready):
                if not (self.busy[d] or self.changing[d]):
                    self._write(d)

    def _write(self, d: int) -> None:
        s, now, drive = self.s, self.eng.now, self.s.drives[d]
        n = min(PAGES_PER_BLOCK, self.ready)
        if not drive.fits_block(n * PAGE_BYTES):
            self._change(d)
            return
        self.ready -= n
        self.busy[d] = True
        done = drive.write_buffered(now + s.cpu.step(ios=1), n * PAGE_BYTES)
        s.activity.begin(now)
        if s.trace is not None:
            s.trace.tape_block(now, d, n * PAGE_BYTES, drive.cartridges)
        self.eng.schedule(done - now, self._write_done, (d, n))

    def _write_done(self, arg) -> None:
        d, n = arg
        s, now = self.s, self.eng.now
        s.activity.end(now)
        self.busy[d] = False
        self.reserved -= n
        self.written += n
        self._level()
        while self.blocked and self.reserved < self.cap:
            k = self.blocked.popleft()
            self._take_section(k)
            if k in self.blocked:           # still does not fit: keep its place
                self.blocked.remove(k)
                self.blocked.appendleft(k)
                break
        if self.written == s.pages:
            self._finish()
        self._kick()

    def _finish(self) -> None:
        now = self.eng.now
        ends = [dr.write_mark(now) for dr in self.s.drives if dr.blocks]
        self.end_time = max(ends)


def dump(s: Setup) -> Outcome:
    """Run SPXTAPE DUMP over the setup's files."""
    pipe = _Dump(s)
    pipe.start()
    s.engine.run()
    return pipe.outcome(s.volumes)


class _Load(_Pipeline):
    """SPXTAPE LOAD: tape read-ahead into storage, serial spool writes."""

    def __init__(self, s: Setup):
        super().__init__(s)
        self.blocks_read = 0
        self.nblocks = -(-s.pages // PAGES_PER_BLOCK)
        self.avail = 0              # pages read from tape so far (in order)
        self.cur = 0                # drive holding the cartridge being read
        self.reading = False
        self.p = 0                  # next page to write
        self.f = 0                  # file being written
        self.waiting = False

    def _kick(self) -> None:
        if self.reading or self.blocks_read >= self.nblocks:
            return
        n = min(PAGES_PER_BLOCK, self.s.pages - self.blocks_read * PAGES_PER_BLOCK)
        if self.reserved + n > self.cap or self.changing[self.cur]:
            return
        drive = self.s.drives[self.cur]
        if not drive.fits_block(n * PAGE_BYTES):
            self._change(self.cur)
            self.cur = (self.cur + 1) % len(self.s.drives)
            self._kick()
            return
        self._read(drive, n)

    def _read(self, drive, n: int) -> None:
        s, now = self.s, self.eng.now
        self.reading = True
        self.reserved += n
        done = drive.read(now + s.cpu.step(ios=1), n * PAGE_BYTES)
        s.activity.begin(now)
        if s.trace is not None:
            s.trace.tape_block(now, drive.index, n * PAGE_BYTES, drive.cartridges, read=True)
        self.eng.schedule(done - now, self._read_done, n)

    def _read_done(self, n: int) -> None:
        self.s.activity.end(self.eng.now)
        self.reading = False
        self.blocks_read += 1
        self.avail += n
        self._level()
        if self.waiting:
            self.waiting = False
            self._write_next()
        self._kick()

    def start(self) -> None:
        self._kick()
        self._open()

    def _io(self, vol, slot: int, then, **cost) -> None:
        s, now = self.s, self.eng.now
        end = vol.access(now + s.cpu.step(ios=1, **cost), slot)
        s.activity.begin(now)
        self.eng.schedule(end - now, then, vol.index)

    def _open(self) -> None:
        ck = self.s.checkpoint
        self._io(ck, ck.ios, self._opened, files=1, created=1, queued=self.f)

    def _opened(self, _v: int) -> None:
        self.s.activity.end(self.eng.now)
        self._closes = CHECKPOINT_IOS_PER_FILE - 1
        self._write_next()

    def _write_next(self) -> None:
        s = self.s
        if self.p >= self.avail:
            self.waiting = True
            return
        self._io(s.volumes[s.vol[self.p]], s.slot[self.p], self._written, pages=1,
                 allocated=1)

    def _written(self, v: int) -> None:
        s, now = self.s, self.eng.now
        s.activity.end(now)
        if s.trace is not None:
            s.trace.volume_page(now, v, self.f, write=True)
        self.p += 1
        self.reserved -= 1
        self._kick()
        if self.p & 4095 == 0:
            s.ctx.progress(self.p / s.pages)
        if self.p < int(s.first[self.f] + s.sizes[self.f]):
            self._write_next()
        else:
            self._close(v)

    def _close(self, _v: int) -> None:
        s = self.s
        if self._closes > 0:
            self._closes -= 1
            self._io(s.checkpoint, s.checkpoint.ios, self._close)
            return
        s.activity.end(self.eng.now) if _v == s.checkpoint.index else None
        self.f += 1
        if self.f < s.files:
            self._open()
        else:
            self.end_time = self.eng.now


def load(s: Setup) -> Outcome:
    """Run SPXTAPE LOAD of the setup's files."""
    pipe = _Load(s)
    pipe.start()
    s.engine.run()
    return pipe.outcome(s.volumes + [s.checkpoint])
