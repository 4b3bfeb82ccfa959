"""Where each spool page lives: (volume, slot) for every page in dump order.

Spool volumes are 3390-2s (the published setup); a slot is one 4 KB page
position, 12 to a track (``models.io.geometry``), counted from the start of
the volume's spool area. Two layouts:

* ``even``: CP allocated pages in turn across the spool volumes, so page k
  of the dump sequence is on volume ``k mod V``, each volume filled in
  order. Every file is spread over every volume.
* ``restored``: as left by restoring from SPTAPE tapes. SPTAPE loads one
  file at a time, one page at a time, one volume at a time, so each file
  lies whole and contiguous on one volume and consecutive files share a
  volume until it holds its share of the pages. A program that reads a few
  files at once then finds them all on the same volume.
"""
from __future__ import annotations

import numpy as np

from models.io.geometry import MODELS, PAGE_BYTES, TRACKS_PER_CYLINDER, records_per_track
from models.params import ParamError

#: The spool volumes of the published measurement.
SPOOL_MODEL = "3390-2"
PAGES_PER_TRACK = records_per_track(PAGE_BYTES)
SLOTS_PER_VOLUME = MODELS[SPOOL_MODEL] * TRACKS_PER_CYLINDER * PAGES_PER_TRACK


def _check_fits(pages: int, volumes: int, largest_on_one: int) -> None:
    if largest_on_one > SLOTS_PER_VOLUME:
        raise ParamError(f"{pages} pages do not fit on {volumes} {SPOOL_MODEL} spool "
                         f"volume(s) of {SLOTS_PER_VOLUME} pages each")


def even(pages: int, volumes: int) -> tuple[np.ndarray, np.ndarray]:
    """Pages dealt in turn over the volumes.

    Returns
    -------
    (volume, slot) : tuple of numpy.ndarray
        One entry per page in dump order.
    """
    _check_fits(pages, volumes, -(-pages // volumes))
    k = np.arange(pages, dtype=np.int64)
    return (k % volumes).astype(np.int32), k // volumes


def restored(sizes: np.ndarray, volumes: int) -> tuple[np.ndarray, np.ndarray]:
    """Whole files on one volume each, consecutive files on the same volume.

    A file goes to the volume its first page falls on when the total is cut
    into ``volumes`` equal shares.
    """
    pages = int(sizes.sum())
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    file_vol = np.minimum(starts * volumes // max(pages, 1), volumes - 1).astype(np.int32)
    vol = np.repeat(file_vol, sizes)
    first = np.searchsorted(vol, np.arange(volumes), side="left")
    slot = np.arange(pages, dtype=np.int64) - first[vol]
    _check_fits(pages, volumes, int(np.bincount(vol, minlength=volumes).max()))
    return vol, slot


def place(kind: str, sizes: np.ndarray, volumes: int) -> tuple[np.ndarray, np.ndarray]:
    """The layout called ``kind`` (``even`` or ``restored``)."""
    if kind == "even":
        return even(int(sizes.sum()), volumes)
    if kind == "restored":
        return restored(sizes, volumes)
    raise ParamError(f"unknown placement '{kind}'; allowed: even, restored")
