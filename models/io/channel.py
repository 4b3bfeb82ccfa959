"""Channel programs and their costs: FICON command mode and zHPF transport mode.

Global protocol constants, set once here and used by every experiment.

Sources: link rates from the FICON Express8/8S announcements (8 Gbit/s
Fibre Channel, 8b/10b encoded: 800 MB/s per direction). The 22-address
limit of zHPF list reads on FICON Express8 and its removal on FICON
Express8S: IBM Redpaper REDP-4862 (DB2 for z/OS and List Prefetch
Optimizer). The per-step control-unit costs (start, per CCW, per Locate
Record domain, per zHPF address, per 4 KB slot) are microsecond-scale
processing times of a DS8800-class unit; they were set ONCE so that the
cache-resident single-I/O measurements of REDP-4862 come out of the step
counts (32 domains serially vs. one TCW), and they hold for every page
count, layout, protocol and experiment. They are the control unit's
time and stay in the I/O's connected time (CONN).

**The channel's own work** (what a CHPID's utilisation counts, see
models/io/paths.py) is separate: a FICON channel multiplexes many
concurrent exchanges, so what limits it is its own processing per
information unit (IU: a command, a data transfer, an ending status) and
the link's bytes, not the I/O's connected time. The cost of one IU per
protocol and generation is derived once from IBM's published maximum
small-block rates of one channel (4 KB reads, channel 100 % busy, I/O
driver benchmark):

=====================  ========  =====================================
channel, protocol      I/O/s     source
=====================  ========  =====================================
FEx8S zHPF             92,000    ibm.com/systems/z/hardware/connectivity/
FEx8 zHPF              52,000    ficon_performance.html ("approximately
                                 a 77 % increase"; z196, zEC12 comparable)
FEx8S FICON (command)  23,000    IBM FICON Express8S performance figures
FEx8 FICON (command)   20,000    as quoted for z196 (not re-found; the page
                                 above gives FEx4: zHPF 31k = 2.2x FICON)
=====================  ========  =====================================

IUs of that benchmark's I/O: command mode Define Extent + Locate Record +
Read = 3 command IUs, 1 data IU, 1 ending status = **5**; transport mode
one TCCB (the TCW's command block), 1 data IU, 1 transport response =
**3**. With 4096 B at 800 MB/s (5.12 us) also on the channel:

    IU_S = (1 / rate - 4096 / 800e6) / IUs
    FEx8S zHPF  (10.870 - 5.12) / 3 = 1.92 us
    FEx8  zHPF  (19.231 - 5.12) / 3 = 4.70 us
    FEx8S FICON (43.478 - 5.12) / 5 = 7.67 us
    FEx8  FICON (50.000 - 5.12) / 5 = 8.98 us

Any channel program is then counted the same way (:func:`program_ius`):
command mode 2 (prefix/Define Extent and ending status) + 1 per Locate
Record domain + 2 per Read CCW (command and data); transport mode 2 (TCCB
and response) + 1 data IU per address. The split into IUs is the one
assumption (no published per-CCW figure); the single-block rates come
back exactly.
"""
from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # channel.pxd cimports the C bit operations (compiled only).
    _popcount: Any = None
    _clz: Any = None
    _ctz: Any = None

#: Link data rate, bytes per second (8 Gbit/s FC, 8b/10b): 800 MB/s.
LINK_BYTES_S = {"FEx8": 800e6, "FEx8S": 800e6}
#: zHPF addresses (records or runs) one transport-mode I/O may carry.
ZHPF_MAX_ADDRESSES = {"FEx8": 22, "FEx8S": None}
PROTOCOLS = ("FICON", "zHPF")
CHANNELS = tuple(LINK_BYTES_S)

START_S = 120e-6        # PEND: channel start, CU accepts the command (both modes)
CCW_S = 6e-6            # command mode: one CCW exchanged and decoded
LR_DOMAIN_S = 50e-6     # command mode: CU sets up one Locate Record domain (serial)
TCW_S = 20e-6           # transport mode: decode the TCW and its DCW list
ADDRESS_S = 12e-6       # transport mode: locate one address of the list
SLOT_S = 8e-6           # move one 4 KB slot from cache to the host adapter
#: command mode, list prefetch: a Locate Record domain for a record on the
#: track the previous domain was on. The unit skips the track look-up and
#: orientation that LR_DOMAIN_S includes and only parses the CCW and sets up
#: the domain. An assumption (no published split of the 50 µs); it acts only
#: on list prefetch of pages sharing a track, i.e. dense lists.
LR_SAME_TRACK_S = 20e-6

#: Published maximum 4 KB-read I/O rate of one channel, I/Os per second
#: (see the module docstring for the sources).
CHANNEL_4K_IOPS = {("zHPF", "FEx8S"): 92_000, ("zHPF", "FEx8"): 52_000,
                   ("FICON", "FEx8S"): 23_000, ("FICON", "FEx8"): 20_000}
#: Information units of that benchmark's I/O (command mode: DX, LR, Read
#: commands, one data IU, status; transport mode: TCCB, data, response).
BENCH_IUS = {"FICON": 5, "zHPF": 3}
#: IUs of any I/O besides its domains and reads: the prefix or Define
#: Extent command and the ending status (transport: TCCB and response).
START_IUS = 2
BENCH_BYTES = 4096


def _iu_seconds(protocol: str, generation: str) -> float:
    """Channel time of one IU: the published rate less the link time of
    the 4 KB, over the benchmark I/O's IUs."""
    per_io = 1.0 / CHANNEL_4K_IOPS[protocol, generation]
    return (per_io - BENCH_BYTES / LINK_BYTES_S[generation]) / BENCH_IUS[protocol]


#: Channel processing per information unit, seconds, by (protocol, generation).
IU_S = {key: _iu_seconds(*key) for key in CHANNEL_4K_IOPS}


def program_ius(groups, zhpf: bool, list_prefetch: bool, rpt) -> tuple[int, int]:
    """Information units the channel handles for one channel program, and
    the records it moves: ``(ius, records)``.

    Transport mode: TCCB and response, plus one data IU per address (run
    of records on a track). Command mode: prefix and status, plus a Locate
    Record command per domain and a Read command and its data per run; a
    list prefetch has a domain and a Read per page (as
    :func:`command_mode_list_cost` counts the control unit's time).
    """
    if cython.compiled:
        n: cython.long = 0
        ius: cython.long = program_ius_into(groups, zhpf, list_prefetch, rpt, cython.address(n))
        return ius, n
    out = [0]
    ius = program_ius_into(groups, zhpf, list_prefetch, rpt, out)
    return ius, out[0]


def program_ius_into(groups, zhpf, list_prefetch, rpt, records):
    """:func:`program_ius`'s information units; its records go to
    ``records[0]`` (compiled, a C pointer: a caller in C makes no tuple)."""
    ius: cython.long = START_IUS
    n: cython.long = 0
    m: cython.ulonglong
    if zhpf:
        if cython.compiled:     # the same counts, the masks as C words
            for g in groups:
                m = g[1]
                ius += _popcount(m & ~(m << 1))
                n += _popcount(m)
            records[0] = n
            return ius
        for _, m in groups:
            ius += (m & ~(m << 1)).bit_count()
            n += m.bit_count()
        records[0] = n
        return ius
    if list_prefetch:
        for _, m in groups:
            n += m.bit_count()
        records[0] = n
        return ius + 3 * n
    prev_track = prev_last = -2
    for track, mask in groups:
        n_runs = runs(mask)
        first = lowest(mask)
        continues = (prev_track == track and first == prev_last + 1) or \
            (prev_track == track - 1 and first == 0 and prev_last == rpt - 1)
        ius += (n_runs - 1 if continues else n_runs) + 2 * n_runs
        n += mask.bit_count()
        prev_track, prev_last = track, mask.bit_length() - 1
    records[0] = n
    return ius


def program_ius_one(track, mask, zhpf, list_prefetch, rpt, records):
    """:func:`program_ius_into` of the one group ``(track, mask)``: a request
    of one track, with no list of groups. The same counts: its runs of
    records (zHPF), three IUs a record (a list prefetch), or three a run
    (command mode: no group before it to continue)."""
    n: cython.long = bits(mask)
    records[0] = n
    if zhpf:
        return START_IUS + runs(mask)
    if list_prefetch:
        return START_IUS + 3 * n
    return START_IUS + 3 * runs(mask)


def runs(mask) -> int:
    """Runs of consecutive set bits (contiguous record ranges) in ``mask``
    (a 64-bit record mask, as every mask of the I/O model)."""
    if cython.compiled:
        return _popcount(mask & ~(mask << 1))
    return (mask & ~(mask << 1)).bit_count()


def lowest(mask) -> int:
    """Index of the lowest set bit (-1 for none)."""
    if cython.compiled:
        return _ctz(mask) if mask else -1
    return (mask & -mask).bit_length() - 1


def bits(mask) -> int:
    """Records (set bits) in ``mask``."""
    if cython.compiled:
        return _popcount(mask)
    return mask.bit_count()


def top(mask) -> int:
    """One past the highest record in ``mask`` (0 for none)."""
    if cython.compiled:
        return 64 - _clz(mask) if mask else 0
    return mask.bit_length()


def addresses(groups) -> int:
    """zHPF addresses (runs of records on a track) of a track list."""
    n: cython.long = 0
    for _, mask in groups:
        n += runs(mask)
    return n


def split_addresses(groups: list, limit: int | None) -> list[list]:
    """Split a track list into I/Os of at most ``limit`` zHPF addresses.

    Parameters
    ----------
    groups : list of (track, mask)
    limit : int or None
        None: no limit (one I/O).

    Returns
    -------
    list of lists of (track, mask)
    """
    if limit is None:
        return [groups]
    out, cur, used = [], [], 0
    for track, mask in groups:
        while mask:
            # Peel runs off the mask until this I/O is full.
            room = limit - used
            if runs(mask) <= room:
                cur.append((track, mask))
                used += runs(mask)
                mask = 0
            else:
                part, rest = _first_runs(mask, room)
                if part:
                    cur.append((track, part))
                out.append(cur)
                cur, used, mask = [], 0, rest
        if used == limit:
            out.append(cur)
            cur, used = [], 0
    if cur:
        out.append(cur)
    return out


def _first_runs(mask: int, k: int) -> tuple[int, int]:
    """(the lowest ``k`` runs of ``mask``, the rest)."""
    part = 0
    rest = mask
    for _ in range(k):
        run = _run_at(rest)
        part |= run
        rest &= ~run
    return part, rest


def _run_at(mask: int) -> int:
    """The lowest run of consecutive set bits of ``mask``."""
    lo = mask & -mask
    # Adding the lowest bit carries through the run; xor recovers it.
    return ((mask + lo) ^ mask) & mask


def command_mode_cost(groups_prev_end: tuple, track, mask, rpt) -> float:
    """Connected time of the CCWs for one track of a FICON channel program.

    A run that continues the previous one (next record, or record 0 of the
    next track after the last record) stays in the same Locate Record
    domain; every other run opens a new domain (Locate Record CCW plus the
    control unit's serial domain set-up). Each run is read by one CCW: Read
    for a single record, Read Track Data for several.
    """
    prev_track, prev_last = groups_prev_end
    n_runs = runs(mask)
    first = lowest(mask)
    continues = (prev_track == track and first == prev_last + 1) or \
        (prev_track == track - 1 and first == 0 and prev_last == rpt - 1)
    domains = n_runs - 1 if continues else n_runs
    return domains * (LR_DOMAIN_S + CCW_S) + n_runs * CCW_S


def command_mode_list_cost(prev_track, track, mask) -> float:
    """Connected time of a FICON list-prefetch program's CCWs for one track.

    DB2's list prefetch channel program in command mode gives every page its
    own Locate Record and Read CCW (DOMAIN.md: "each page is a separate
    Locate Record domain"), contiguous or not. The first domain on a track
    costs the full set-up (``LR_DOMAIN_S``); further domains on the same
    track skip the track look-up (``LR_SAME_TRACK_S``).
    """
    n = mask.bit_count()
    same = n - 1 if prev_track != track else n
    return (n - same) * LR_DOMAIN_S + same * LR_SAME_TRACK_S + 2 * n * CCW_S
