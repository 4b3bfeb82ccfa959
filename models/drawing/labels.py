"""Short, distinct labels for new cards: VOL001, VOL002, SG01, CHP01 …

A label names its component in every report, chart and slide, and a card
shows about 18 characters of it: two volumes dropped in a row used to read
"3390 on HDD 15…" and could not be told apart. A new card gets the short
name a system programmer would give it, with the next free number; the card
itself (icon, tooltip, Properties) says what kind it is. Workloads keep
their kind's name: a drawing has few, and the name says what they run.
"""
from __future__ import annotations

from typing import Iterable

from models.drawing import components, config

#: Registry key prefix → (label prefix, digits). Longest prefix first wins.
_PREFIXES: tuple[tuple[str, str, int], ...] = (
    ("vol_raid", "RANK", 2),
    ("vol_", "VOL", 3),
    ("sg_", "SG", 2),
    ("chan_", "CHP", 2),
    ("chg_", "CHG", 2),
    ("cu_", "CU", 2),
    ("cpu_cp", "CP", 2),
    ("cpu_ziip", "ZIIP", 2),
    ("cf_", "CF", 2),
    ("tape_", "TAPE", 2),
    ("ds_pdse", "PDSE", 2),
    ("ds_pds", "PDS", 2),
    ("ds_seq", "SEQ", 2),
    ("ds_log", "LOG", 2),
    ("ds_vsam_ksds", "KSDS", 2),
    ("ds_db2_ts", "TS", 2),
    ("ds_db2_ix", "IX", 2),
    ("ds_spool_ckpt", "CKPT", 2),
    ("ds_spool", "SPOOL", 2),
)


def prefix(kind_key: str) -> tuple[str, int] | None:
    """``(label prefix, digits)`` of a kind's new cards, ``None`` for a workload."""
    for start, head, width in _PREFIXES:
        if kind_key.startswith(start):
            return head, width
    return None


def taken(nodes: Iterable) -> set[str]:
    """Every name a drawing uses: its labels, its groups' members and own ranks."""
    out: set[str] = set()
    for node in nodes:
        out.add(node.label)
        try:
            out.update(config.members_of(node))
            out.update(config.own_ranks(node))
        except ValueError:
            continue       # a group listing bad serials: the issues say so
    return out


def new_label(kind_key: str, used: set[str]) -> str:
    """The label of a new card of ``kind_key``: the kind's short prefix and the
    first number no name in ``used`` has (``VOL001``, ``SG01``); a workload
    its kind's name (``I/O workload``, ``I/O workload 2``)."""
    shape = prefix(kind_key)
    if shape is None:
        base = components.kind(kind_key).label
        label, i = base, 2
        while label in used:
            label, i = f"{base} {i}", i + 1
        return label
    head, width = shape
    n = 1
    while f"{head}{n:0{width}d}" in used:
        n += 1
    return f"{head}{n:0{width}d}"
