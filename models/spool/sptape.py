"""SPTAPE: one file, one page, one volume, one drive at a time.

Dump: for each file, a header block, then for each page a DASD read and,
once it has completed, a synchronous 4 KB tape write; a tape mark closes the
file. Load runs the other way: read a tape block (the drive reads ahead),
then write the page to the spool volume and wait for it; each new file is
recorded in the checkpoint area when it is opened and when it is closed.
Nothing overlaps, so during a cartridge change the whole program is idle.

The run is one engine process that yields once per file; within a file
every step is serial, so its time is the sum of the component timings.
"""
from __future__ import annotations

from models.io.geometry import PAGE_BYTES
from models.spool.results import Outcome
from models.spool import setup as _setup
from models.spool.setup import Setup

#: Checkpoint records CP writes per spool file it creates (open and close).
CHECKPOINT_IOS_PER_FILE = 2


def _change(s: Setup, t: float, drive) -> float:
    end = drive.change(t, s.change_s)
    s.activity.change_begin(t)
    s.activity.change_end(end)      # serial program: nothing moves meanwhile, all idle
    if s.trace is not None:
        s.trace.change(t, end, drive.index, drive.cartridges)
    return end


def _dump_file(s: Setup, t: float, f: int) -> float:
    drive, cpu, tr = s.drives[0], s.cpu, s.trace
    t += cpu.step(files=1)
    if not drive.fits_block(_setup.FILE_HEADER_BYTES):
        t = _change(s, t, drive)
    t = drive.write_sync(t, _setup.FILE_HEADER_BYTES)
    vols, vol, slot = s.volumes, s.vol, s.slot
    for p in range(int(s.first[f]), int(s.first[f] + s.sizes[f])):
        v = int(vol[p])
        t = vols[v].access(t + cpu.step(ios=1, pages=1), slot[p])
        if tr is not None:
            tr.volume_page(t, v, f)
        t += cpu.step(ios=1)
        if not drive.fits_block(PAGE_BYTES):
            t = _change(s, t, drive)
        t = drive.write_sync(t, PAGE_BYTES)
        if tr is not None:
            tr.tape_block(t, 0, PAGE_BYTES, f)
    if not drive.fits_mark():
        t = _change(s, t, drive)
    t = drive.write_mark(t)
    if tr is not None:
        tr.tape_mark(t, 0, f)
    return t


def _load_file(s: Setup, t: float, f: int) -> float:
    drive, cpu, tr, ckpt = s.drives[0], s.cpu, s.trace, s.checkpoint
    if not drive.fits_block(_setup.FILE_HEADER_BYTES):
        t = _change(s, t, drive)
    t = drive.read(t, _setup.FILE_HEADER_BYTES)
    t = ckpt.access(t + cpu.step(ios=1, files=1, created=1, queued=f), ckpt.ios)
    vols, vol, slot = s.volumes, s.vol, s.slot
    for p in range(int(s.first[f]), int(s.first[f] + s.sizes[f])):
        if not drive.fits_block(PAGE_BYTES):
            t = _change(s, t, drive)
        t = drive.read(t + cpu.step(ios=1), PAGE_BYTES)
        if tr is not None:
            tr.tape_block(t, 0, PAGE_BYTES, f, read=True)
        v = int(vol[p])
        t = vols[v].access(t + cpu.step(ios=1, pages=1, allocated=1), slot[p])
        if tr is not None:
            tr.volume_page(t, v, f, write=True)
    if not drive.fits_mark():
        t = _change(s, t, drive)
    t = drive.read(t, 0, mark=True)
    for _ in range(CHECKPOINT_IOS_PER_FILE - 1):
        t = ckpt.access(t + cpu.step(ios=1), ckpt.ios)
    return t


def run(s: Setup, load: bool) -> Outcome:
    """Dump (or load) every file serially on drive 0."""
    eng, ctx = s.engine, s.ctx
    step = _load_file if load else _dump_file
    nfiles = s.files

    def program():
        for f in range(nfiles):
            yield float(step(s, eng.now, f) - eng.now)
            if f & 255 == 0:
                ctx.progress(f / nfiles)

    eng.process(program(), "SPTAPE")
    eng.run()
    return Outcome("SPTAPE", eng.now, s.activity.idle_s, s.pages, nfiles,
                   s.volumes + ([s.checkpoint] if load else []), s.drives[:1], s.cpu,
                   dasd_paths=s.dasd_paths)
