"""Where each spool page lives: (volume, slot) for every page in dump order.

Spool volumes are 3390-2s (the published setup); a slot is one 4 KB page
position, 12 to a track (``models.io.geometry``), counted from the start of
the volume's spool area. Two layouts:

* ``even``: CP allocated pages in turn across the spool volumes, so page k
  of the dump sequence is on volume ``k mod V``, each volume filled in
  order. Every file is spread over every volume.
* ``restored``: as left by restoring from SPTAPE tapes, through CP's own
  spool space allocation (:func:`allocate`). CP hands out spool space a
  cylinder at a time, taking cylinders in turn from the spool volumes to
  spread the I/O load, and gives pages from the current cylinder until it
  is full (VM/370 logic, DMKPGT: "allocating cylinders evenly across all
  available channels and devices"). SPTAPE LOAD creates one file at a time
  and writes it one page at a time, so consecutive files fill a cylinder of
  one volume together (a 3390 cylinder holds 180 pages, about seventeen
  average files) before the next volume's cylinder is used. A program
  that reads a few consecutive files at once then finds them on the same
  volume; how much that costs depends on how far it reads ahead.
"""
from __future__ import annotations

import numpy as np

from models.io.geometry import MODELS, PAGE_BYTES, TRACKS_PER_CYLINDER, records_per_track
from models.core.params import ParamError

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


#: Pages CP allocates together before moving to the next volume: one
#: cylinder (15 tracks of 12 pages on a 3390), read at call time.
ALLOCATION_PAGES = PAGES_PER_TRACK * TRACKS_PER_CYLINDER


def allocate(pages: int, volumes: int) -> tuple[np.ndarray, np.ndarray]:
    """Where one serial writer's pages go under CP's cylinder allocation.

    Page ``k`` written is on the ``k // ALLOCATION_PAGES``-th cylinder handed
    out; cylinders go to the volumes in turn, each volume's in order from
    the start of its spool area.
    """
    k = np.arange(pages, dtype=np.int64)
    unit = int(ALLOCATION_PAGES)
    cyl, within = np.divmod(k, unit)
    vol = (cyl % volumes).astype(np.int32)
    slot = (cyl // volumes) * unit + within
    _check_fits(pages, volumes, int(slot.max()) + 1 if pages else 0)
    return vol, slot


def restored(sizes: np.ndarray, volumes: int) -> tuple[np.ndarray, np.ndarray]:
    """The layout a serial restore leaves: files written one after another
    through CP's cylinder-at-a-time allocation (:func:`allocate`)."""
    return allocate(int(sizes.sum()), volumes)


def place(kind: str, sizes: np.ndarray, volumes: int) -> tuple[np.ndarray, np.ndarray]:
    """The layout called ``kind`` (``even`` or ``restored``)."""
    if kind == "even":
        return even(int(sizes.sum()), volumes)
    if kind == "restored":
        return restored(sizes, volumes)
    raise ParamError(f"unknown placement '{kind}'; allowed: even, restored")
