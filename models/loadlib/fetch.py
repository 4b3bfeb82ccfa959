"""The LOAD/DELETE job: program fetch from a PDS or PDSE STEPLIB.

One task issues LOAD then DELETE of a module N times. Each LOAD is a
sequence of counted operations, each run through the engine:

PDS
    SVC 8; BLDL: one EXCP whose channel program (Seek, Search Key High or
    Equal, TIC back, Read Data) the control unit runs over the directory
    blocks until the first key not below the name; GETMAIN of the module's
    pages; one EXCP per track the module's records occupy (a chained channel
    program reads the control, text and RLD records on that track, each
    control record describing the next text record); relocation; SVC 9.
PDSE
    SVC 8; the SMSPDSE connect; one index page per level (read from DASD
    the first time, then from SMSPDSE's buffer); media-manager chains of 4 KB
    pages over zHPF for the classes the FETCHOPT says to read; relocation;
    SVC 9.
LLA
    BLDL answered from LLA's directory in storage (no directory I/O); after
    :data:`~costs.LLA_STAGE_AFTER` fetches a module that can be staged is
    copied from VLF instead of being read.

The step also opens the STEPLIB (one DSCB read), fetches the test program
itself from it, and opens, writes and closes its SYSPRINT data set.

A LOAD that changes no state (no cache miss, nothing newly buffered or
staged) leaves the next LOAD facing exactly the same state, so the rest of
the run repeats it: its measured time and counts are replayed for all
remaining iterations (the test suite checks this equals simulating every
LOAD). On a native 3390 each LOAD meets the disk at a different rotational
position, so the first :data:`NATIVE_SAMPLE_LOADS` LOADs are simulated and
the rest take their mean.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from models.cpu import TCB, ProcessorComplex, services
from models.engine import Engine, Resource, Trace
from models.io.geometry import PAGE_BYTES, TRACKS_PER_CYLINDER
from models.loadlib import costs as C
from models.loadlib.layout import (TEXT, Record, TrackWriter, block_of_entry, directory_records,
                                   directory_tracks, entries_per_block,
                                   entry_index, write_module)
from models.loadlib.pdse import ProgramObject, chains, index_depth, page_record
from models.loadlib.volume import Volume

#: The test program that issues the LOADs (fetched once at step start), bytes.
DRIVER_BYTES = 2048
#: LOADs simulated on a native 3390 before the rest take their mean.
NATIVE_SAMPLE_LOADS = 100
#: Bytes of the SYSPRINT report block the program writes.
REPORT_BYTES = 133


@dataclass(frozen=True)
class FetchConfig:
    """The parameters of a ``program_fetch`` run that the model uses."""

    library: str
    blksize: int
    members: int
    position: float
    module_bytes: int
    iterations: int
    fetchopt: str
    lla: bool
    device: str
    #: Where the job's I/O goes, as drawn: (volume, device, channel path, control
    #: unit) of the library and of SYSPRINT, and whether the path runs zHPF.
    library_volume: tuple = ("VOL0", None, "CHP0", "CU")
    sysprint_volume: tuple = ("VOL1", None, "CHP0", "CU")
    zhpf_path: bool = True


class PdsLibrary:
    """A PDS: keyed directory blocks, then the module and the test program."""

    def __init__(self, cfg: FetchConfig):
        self.members = cfg.members
        index = entry_index(cfg.members, cfg.position)
        self.entries_compared = index % entries_per_block() + 1
        self.searched = directory_records(block_of_entry(index) + 1)
        w = TrackWriter(directory_tracks(cfg.members))
        self.module = write_module(w, cfg.module_bytes, cfg.blksize)
        w.new_track()
        self.driver = write_module(w, DRIVER_BYTES, cfg.blksize)


class PdseLibrary:
    """A PDSE: index pages, then the module's and the test program's pages."""

    def __init__(self, cfg: FetchConfig):
        self.depth = index_depth(cfg.members)
        self.index_pages = [page_record(p) for p in range(self.depth)]
        self.object = ProgramObject.of(cfg.module_bytes)
        start = self.depth + 1                    # members follow the index pages
        self.chains = chains(start, self.object.runs(cfg.fetchopt))
        self.driver_object = ProgramObject.of(DRIVER_BYTES)
        start += self.object.stored_pages(cfg.fetchopt)
        self.driver_chains = chains(start, self.driver_object.runs(cfg.fetchopt))


@dataclass
class Snapshot:
    """Everything a LOAD changes, to measure one LOAD and replay it."""

    now: float
    excps: int
    dir_reads: int
    vlf_loads: int
    io: tuple
    cpu: dict
    state: int
    misses: int


class FetchJob:
    """The job step: builds the library, runs the LOADs, keeps the counts.

    Parameters
    ----------
    cfg : FetchConfig
    seed : int
    trace : Trace or None
    progress : callable or None
        Called with the fraction of LOADs done (may raise ``Cancelled``).
    replay : bool
        Replay LOADs that repeat exactly (off only to prove it changes nothing).
    processors : sequence of models.drawing.config.Processor or None
        The CPs and zIIPs drawn; ``None``: one general CP.
    """

    def __init__(self, cfg: FetchConfig, seed: int = 1, trace: Trace | None = None,
                 progress: Callable[[float], None] | None = None, replay: bool = True,
                 processors=None):
        self.cfg = cfg
        self.engine = Engine(seed)
        self.trace = trace
        self.progress = progress
        self.replay = replay
        # The processors drawn (the step is TCB work: it runs on the CPs).
        self.cpx = ProcessorComplex(self.engine, gcps=1, ziips=0, trace=trace,
                                    engines=processors)
        self.uow = self.cpx.unit_of_work("LOADTEST", mode=TCB)
        self.costs = self.cpx.costs
        # One channel path resource per CHPID drawn: volumes on one path share it.
        paths: dict[str, Resource] = {}
        lib, sysp = cfg.library_volume, cfg.sysprint_volume
        for _vol, _dev, chpid, _cu in (lib, sysp):
            paths.setdefault(chpid, Resource(self.engine, 1, chpid))
        self.vol = Volume(self.engine, lib[1] or cfg.device, trace, name=lib[0],
                          channel=paths[lib[2]], control_unit=lib[3])
        self.sysvol = Volume(self.engine, sysp[1] or cfg.device, trace,
                             base_track=2 * TRACKS_PER_CYLINDER, name=sysp[0],
                             channel=paths[sysp[2]], control_unit=sysp[3])
        self.pdse = cfg.library == "PDSE"
        self.lib = PdseLibrary(cfg) if self.pdse else PdsLibrary(cfg)
        self.excps = 0
        self.dir_reads = 0
        self.vlf_loads = 0
        self.loads_simulated = 0
        self.state = 0                 # bumped whenever a buffer, LLA or VLF changes
        self.fetches = 0
        self.staged = False
        self.buffered: set[tuple[int, int]] = set()   # index pages SMSPDSE holds

    # -- running ------------------------------------------------------------------------------
    def run(self) -> "FetchJob":
        """Run the whole step; returns self with the counts filled."""
        self.engine.process(self._job(), "LOADTEST")
        self.engine.run()
        self.cpx.close()
        return self

    def _job(self):
        yield from self._step_start()
        n = self.cfg.iterations
        done = 0
        first: Snapshot | None = None
        while done < n:
            before = self._snapshot()
            yield from self._load_delete()
            done += 1
            self.loads_simulated += 1
            if self.progress is not None:
                self.progress(0.95 * done / n)
            first = first or self._snapshot()
            k = n - done
            if k and self.replay and self._repeats(before):
                yield self._replay(before, self._snapshot(), 1, k)
                done = n
            elif k and self.replay and self.vol.native and done >= NATIVE_SAMPLE_LOADS:
                yield self._replay(first, self._snapshot(), done - 1, k)
                done = n
        yield from self._step_end()

    def _repeats(self, before: Snapshot) -> bool:
        """Did the LOAD just done leave the state unchanged (so the next is identical)?"""
        return (not self.vol.native and before.state == self.state
                and before.misses == self.vol.stats.misses)

    def _snapshot(self) -> Snapshot:
        acc = self.cpx.account.by_component
        return Snapshot(self.engine.now, self.excps, self.dir_reads, self.vlf_loads,
                        self.vol.stats.as_tuple(), {c: r["gcp"] for c, r in acc.items()},
                        self.state, self.vol.stats.misses)

    def _replay(self, a: Snapshot, b: Snapshot, loads: int, k: int) -> float:
        """Add ``k`` more LOADs like the ``loads`` between ``a`` and ``b``; their time."""
        f = k / loads
        self.excps += round((b.excps - a.excps) * f)
        self.dir_reads += round((b.dir_reads - a.dir_reads) * f)
        self.vlf_loads += round((b.vlf_loads - a.vlf_loads) * f)
        self.vol.stats.add_scaled(tuple((y - x) for x, y in zip(a.io, b.io)), f)
        for comp, us in b.cpu.items():
            self.cpx.account.charge(comp, "gcp", (us - a.cpu.get(comp, 0.0)) * f)
        return (b.now - a.now) * f

    # -- the step around the LOADs ------------------------------------------------------
    def _step_start(self):
        """OPEN the STEPLIB (DSCB read), fetch the test program, OPEN SYSPRINT."""
        uow = self.uow
        yield from uow.service(services.open_file(self.costs))
        yield from self._excp(self.vol, _dscb(-self.vol.base + 1), "OPEN")
        if self.pdse:
            yield from self._pdse_load(self.lib.driver_chains, self.lib.driver_object, False)
        else:
            yield from self._pds_load(self.lib.searched, self.lib.driver, False)
        yield from uow.service(services.open_file(self.costs))
        yield from self._excp(self.sysvol, _dscb(1), "OPEN")

    def _step_end(self):
        """Write the report block and CLOSE SYSPRINT (end-of-file and DSCB update)."""
        uow = self.uow
        uow.work(services.put(REPORT_BYTES, self.costs).cpu_us, "QSAM")
        yield from self._excp(self.sysvol, [Record("data", REPORT_BYTES, 30, 1, 0)], "QSAM")
        yield from uow.service(services.close_file(0, self.costs))
        yield from self._excp(self.sysvol, _dscb(1), "CLOSE")

    def _excp(self, vol: Volume, records: list[Record], component: str, search: bool = False,
              zhpf: bool = False, ccws: int | None = None, interlocks: int = 0):
        """Start one channel program, wait for it, take the interrupt."""
        uow = self.uow
        uow.work(self.costs.svc_us + C.CCW_US * (len(records) + 1 if ccws is None else ccws),
                 component)
        yield from uow.run()
        if search:
            yield from vol.search_and_read(records, records[0].key_len)
        else:
            # Transport mode only where the channel path drawn runs zHPF.
            yield from vol.read(records, zhpf=zhpf and self.cfg.zhpf_path,
                                interlocks=interlocks)
        self.excps += 1
        uow.work(C.IO_INTERRUPT_US, component)

    # -- one LOAD and DELETE -------------------------------------------------------------
    def _load_delete(self):
        lib = self.lib
        if self.pdse:
            yield from self._pdse_load(lib.chains, lib.object, True)
        else:
            yield from self._pds_load(lib.searched, lib.module, True)
        self.uow.work(self.costs.svc_us, "DELETE")
        yield from self.uow.run()

    def _pds_load(self, searched: list[Record], module, the_module: bool):
        """SVC 8 from a PDS: BLDL (or LLA), then fetch the text (or copy from VLF)."""
        uow = self.uow
        uow.work(self.costs.svc_us, "LOAD")
        if self.cfg.lla:
            uow.work(C.LLA_LOOKUP_US, "LLA")
        else:
            # Seek, Search Key High or Equal, TIC back to the search, Read
            # Data, and a Locate Record domain for each further track crossed.
            tracks = len({r.track for r in searched})
            ccws = 4 + C.SEARCH_CCWS_PER_TRACK * (tracks - 1)
            yield from self._excp(self.vol, searched, "BLDL", search=True, ccws=ccws)
            self.dir_reads += len(searched)
            uow.work(C.DIR_ENTRY_US * self.lib.entries_compared, "BLDL")  # type: ignore[union-attr]  # a PDS here
        if the_module and self._from_vlf(module.text_bytes):
            return
        uow.work(C.PAGE_US * math.ceil(module.text_bytes / PAGE_BYTES), "FETCH")
        for group in module.by_track():
            # A text block whose control record came earlier in the same
            # channel program is interlocked; one that opens a track's
            # program had its count set by fetch when it built the program.
            texts = sum(1 for r in group[1:] if r.kind == TEXT)
            yield from self._excp(self.vol, group, "FETCH", interlocks=texts)
        # A PCI flag on each control record that announces another text block
        # lets fetch relocate while the channel reads on: the interrupts cost
        # CPU but overlap the transfer, so they add no elapsed time.
        self.cpx.account.charge("FETCH", "gcp", C.IO_INTERRUPT_US * (module.text_blocks - 1))
        uow.work(C.ADCON_US * module.adcons, "FETCH")
        if the_module:
            self._fetched(stageable=True)

    def _pdse_load(self, reads: list[list[Record]], obj: ProgramObject, the_module: bool):
        """SVC 8 from a PDSE: connect, index (or LLA), then the pages the FETCHOPT reads."""
        uow = self.uow
        uow.work(self.costs.svc_us, "LOAD")
        uow.work(C.PDSE_CONNECT_US, "PDSE")
        if self.cfg.lla:
            uow.work(C.LLA_LOOKUP_US, "LLA")
        else:
            yield from self._pdse_index()
        if the_module and self._from_vlf(obj.text):
            return
        uow.work(C.PAGE_US * math.ceil(obj.text / PAGE_BYTES), "FETCH")
        for chain in reads:
            # A transport command word: a prefix and one read command per chain;
            # every page crosses from SMSPDSE into the caller's address space.
            uow.work(C.PDSE_PAGE_US * len(chain), "PDSE")
            yield from self._excp(self.vol, chain, "PDSE", zhpf=True, ccws=2)
        uow.work(C.ADCON_US * obj.adcons, "FETCH")
        if the_module:
            self._fetched(stageable=self.cfg.fetchopt.endswith(",PRIME"))

    def _pdse_index(self):
        """Walk the index: a page per level, from DASD until SMSPDSE has buffered it."""
        for rec in self.lib.index_pages:
            self.uow.work(C.PDSE_INDEX_PAGE_US, "PDSE")
            if (rec.track, rec.number) in self.buffered:
                continue
            yield from self._excp(self.vol, [rec], "PDSE", zhpf=True, ccws=2)
            self.dir_reads += 1
            self.buffered.add((rec.track, rec.number))
            self.state += 1

    # -- LLA and VLF -----------------------------------------------------------------------
    def _from_vlf(self, nbytes: int) -> bool:
        """Copy the module from VLF if LLA has staged it; True if it did."""
        if not self.staged:
            return False
        pages = math.ceil(nbytes / PAGE_BYTES)
        self.uow.work(C.PAGE_US * pages + self.costs.move_us(nbytes), "VLF")
        self.vlf_loads += 1
        return True

    def _fetched(self, stageable: bool) -> None:
        """Count a fetch from DASD; LLA stages the module once it qualifies."""
        if not self.cfg.lla:
            return
        self.fetches += 1
        self.state += 1
        if (stageable and self.fetches >= C.LLA_STAGE_AFTER
                and self.cfg.module_bytes <= C.VLF_MAXVIRT_BYTES):
            self.staged = True


def _dscb(track: int) -> list[Record]:
    """A format-1 DSCB in a VTOC track (44-byte key, 96 bytes of data)."""
    return [Record("dscb", 96, track, 3, 0, 44)]
