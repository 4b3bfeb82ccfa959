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
count, layout, protocol and experiment.
"""
from __future__ import annotations

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


def runs(mask: int) -> int:
    """Runs of consecutive set bits (contiguous record ranges) in ``mask``."""
    return (mask & ~(mask << 1)).bit_count()


def lowest(mask: int) -> int:
    """Index of the lowest set bit."""
    return (mask & -mask).bit_length() - 1


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


def command_mode_cost(groups_prev_end: tuple, track: int, mask: int, rpt: int) -> float:
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


def command_mode_list_cost(prev_track: int, track: int, mask: int) -> float:
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
