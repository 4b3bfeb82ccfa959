"""Every timing and CPU constant of the program-fetch model, set once.

The numbers below hold for every experiment and every parameter value; the
published figures of case study A are *outputs* of the model, never inputs.
Each constant has a physical meaning and the reasoning or source beside it.

Channel and control unit
------------------------
The protocol steps (PEND start, Locate Record domain, CCW exchange, zHPF TCW
and address, 4 KB slot, link rate) are the I/O model's constants in
``models/io/channel.py``, set once there for every experiment; only the
program-fetch specific elapsed time below is set here:

* From an I/O interrupt to the waiting task running again (dispatcher
  latency beyond the CPU charged for the interrupt): ~30 µs on a lightly
  loaded z/OS image.

CPU (general CP microseconds)
-----------------------------
Supervisor calls reuse the CPU model's ``svc_us`` (models/cpu/costs.py).
The rest are typical z/OS path lengths at about 1,000 instructions per µs
(z196–z14 class engines):

* I/O interrupt, IOS ending status, POST and redispatch of the waiting task:
  about 3,000 instructions per I/O.
* Per CCW of a channel program: building it and translating it to real
  addresses (IDAWs): about 500 instructions.
* Per 4 KB page of module storage: frame assignment on GETMAIN/first touch,
  page fix and unfix around the I/O, frame release on DELETE: about 1,000
  instructions.
* Relocating one address constant: a load, an add and a store with its RLD
  entry decode: about 20 instructions.
* PDSE: the cross-memory call into SMSPDSE to connect to a member, its
  latches and the disconnect at DELETE are known to cost several times a
  PDS BLDL: about 40,000 instructions per LOAD; each index page searched in
  SMSPDSE's buffer about 2,000 instructions (binary search plus latch).
* PDSE pages: every 4 KB page a PDSE fetch reads passes through SMSPDSE:
  a cross-memory request finds the page in SMSPDSE's buffer (or starts
  its read) and moves it into the caller's address space with a Move Page
  (MVPG) — about 1,500 instructions a page. A PDS fetch reads its text
  straight into the caller's storage and pays none of it.
* PDS directory search: the channel program BLDL builds has a Locate
  Record, a Search Key High or Equal and a TIC for every track of
  directory the search may cross, each built and translated at ``CCW_US``.
* LLA: a BLDL answered from LLA's in-storage directory is a cross-memory
  look-up, about 3,000 instructions; a module staged in VLF is copied from
  the VLF data space at the CPU model's data-move rate.

Load module and program object structure
----------------------------------------
These describe what the binder writes. They are properties of typical MVS
load modules (z/OS MVS Program Management: Advanced Facilities, "Load module
format"): ESD entries are 16 bytes, 15 to a 256-byte CESD record; RLD
entries are about 4 bytes (flags plus a 3-byte address), grouped into
records of at most 256 bytes; control records are 16 bytes plus 4 per CSECT
piece described.
"""
from __future__ import annotations

# -- channel and control unit --------------------------------------------------
#: From the I/O interrupt to the task running again (elapsed, not charged), s.
REDISPATCH_S = 30e-6

# -- CPU ------------------------------------------------------------------------
#: I/O interrupt, IOS ending status, POST and redispatch, µs per I/O.
IO_INTERRUPT_US = 3.0
#: Building and translating one CCW to real addresses, µs.
CCW_US = 0.5
#: Module storage per 4 KB page: frame, fix/unfix, release, µs.
PAGE_US = 1.0
#: Relocating one address constant, µs.
ADCON_US = 0.02
#: Comparing one directory entry's name in a block BLDL has read, µs.
DIR_ENTRY_US = 0.05
#: PDSE connect/disconnect through SMSPDSE per LOAD, µs.
PDSE_CONNECT_US = 40.0
#: Searching one PDSE index page in SMSPDSE's buffer, µs.
PDSE_INDEX_PAGE_US = 2.0
#: SMSPDSE's cross-memory handling and Move Page of one 4 KB page read, µs.
PDSE_PAGE_US = 1.5
#: CCWs of a directory search per track it crosses (Locate Record, Search
#: Key High or Equal, TIC back).
SEARCH_CCWS_PER_TRACK = 3
#: A BLDL answered from LLA's directory in storage, µs.
LLA_LOOKUP_US = 3.0

# -- what the binder writes -----------------------------------------------------
#: Bytes in one PDS directory block and its key (the highest name in it).
DIR_BLOCK_BYTES = 256
DIR_KEY_BYTES = 8
#: A load-module directory entry: name 8, TTR 3, C 1, user data ~22 bytes.
DIR_ENTRY_BYTES = 34
#: Mean CSECT size in a load module (one ESD SD entry and one external
#: reference each), bytes. Typical assembler/COBOL modules: 2–8 KB CSECTs.
CSECT_BYTES = 4096
#: Text bytes per address constant (assembler and COBOL modules hold one
#: 4-byte adcon per 100–300 bytes of text), bytes.
BYTES_PER_ADCON = 200
#: ESD entries per CESD record (16 bytes each in a 256-byte record).
ESD_PER_RECORD = 15
#: RLD entries per RLD record (4 bytes each after a 16-byte header).
RLD_PER_RECORD = 60
#: Control record: header plus one 4-byte entry per CSECT piece, bytes.
CONTROL_BYTES = 16
#: Longest control, RLD or CESD record the binder writes, bytes.
MAX_CONTROL_RECORD = 256
#: Smallest text block the binder (or IEBCOPY COPYMOD) writes to use up the
#: end of a track, bytes; below this it starts the next track instead. That
#: both fill the track is sourced (``layout._text_length``); this smallest
#: size is not (no MINBLK default found): 1,024 is the lower end of the
#: range IEBCOPY's message for a bad MAXBLK gives (1,024-32,760; IBM Docs,
#: z/OS MVS System Messages, ieam700/m008063), an assumption.
MIN_FILL_BLOCK = 1024

# -- PDSE ----------------------------------------------------------------------------
#: Directory (index) entries per 4 KB PDSE index page: name, token and
#: attributes of ~48 bytes.
PDSE_INDEX_FANOUT = 80
#: Pages media manager reads in one channel program (128 KB, the same
#: transfer size DB2 uses for prefetch).
MM_CHAIN_PAGES = 32
#: Non-loadable classes of a program object (ESD, symbols, IDR, ADATA) as a
#: fraction of its text.
PDSE_NONLOAD_FRACTION = 0.10
#: Bytes of a program object's relocation class per address constant.
PDSE_RLD_BYTES_PER_ADCON = 8

# -- LLA / VLF -----------------------------------------------------------------------
#: LLA stages a module into VLF after this many fetches of it (LLA decides
#: from fetch counts over its sampling interval; a handful of fetches of
#: the same module qualifies).
LLA_STAGE_AFTER = 2
#: VLF's MAXVIRT default: 4,096 pages (16 MB) per staged object.
VLF_MAXVIRT_BYTES = 4096 * 4096
