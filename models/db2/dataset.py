"""DB2 objects as data sets on 3390 volumes: table spaces and indexes.

A DB2 linear data set is a run of 4 KB pages. On a 3390 a track holds 12
of them (the cell arithmetic of :mod:`models.io.geometry`), so page ``p``
of a data set lives on track ``first_track + p // 12``, record
``p % 12 + 1``. Large objects span several volumes, filled one after the
other, as DB2 data set pieces are.

An index's leaf pages are read in key order. In a freshly reorganized index
key order is page order; after many page splits the leaf pages that follow
one another in key order sit anywhere in the data set. The *disorganization*
level says which share of the leaf pages has moved out of place.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.io.geometry import PAGE_BYTES, records_per_track, volume_tracks

#: 4 KB pages per 3390 track (12: the device's cell arithmetic).
PAGES_PER_TRACK = records_per_track(PAGE_BYTES)

#: Volume model the objects are allocated on: a 3390-54 (65,520 cylinders)
#: holds an 8-million-page table space on one volume, as in the published runs.
VOLUME_MODEL = "3390-54"


@dataclass(frozen=True)
class DataSet:
    """A DB2 table space or index: ``pages`` 4 KB pages from track 0 of
    volume 0, continuing on the next volume when one is full.

    Parameters
    ----------
    name : str
        Shown in reports.
    pages : int
        Size in 4 KB pages.
    volume_model : str
        3390 model of every volume it spans.
    """

    name: str
    pages: int
    volume_model: str = VOLUME_MODEL

    def __post_init__(self) -> None:
        if self.pages < 1:
            raise ValueError(f"data set {self.name!r} needs at least one page")

    @property
    def tracks(self) -> int:
        """Tracks the data set occupies."""
        return -(-self.pages // PAGES_PER_TRACK)

    @property
    def tracks_per_volume(self) -> int:
        return volume_tracks(self.volume_model)

    @property
    def volumes(self) -> int:
        """How many volumes the data set spans."""
        return -(-self.tracks // self.tracks_per_volume)

    def locate(self, pages: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Volume, track on that volume and record (1-based) of each page.

        Parameters
        ----------
        pages : ndarray of int
            Page numbers within the data set.

        Returns
        -------
        volume, track, record : ndarray of int64
        """
        pages = np.asarray(pages, dtype=np.int64)
        track, rec = np.divmod(pages, PAGES_PER_TRACK)
        volume, track = np.divmod(track, self.tracks_per_volume)
        return volume, track, rec + 1


def leaf_key_order(leaf_pages: int, disorganization: float, rng: np.random.Generator) -> np.ndarray:
    """Leaf page numbers in key order for an index with some disorganization.

    Parameters
    ----------
    leaf_pages : int
        Leaf pages in the index.
    disorganization : float
        0 – 1: share of leaf pages that page splits moved out of key order.
        0 is a freshly reorganized index (key order is page order); 1 puts
        every leaf page anywhere.
    rng : numpy Generator
        The run's named stream for the index layout.

    Returns
    -------
    ndarray of int64
        ``order[i]`` is the page holding the i-th leaf in key order.
    """
    if not 0.0 <= disorganization <= 1.0:
        raise ValueError("disorganization is a share between 0 and 1")
    order = np.arange(leaf_pages, dtype=np.int64)
    moved = np.flatnonzero(rng.random(leaf_pages) < disorganization)
    # The moved leaves trade places among themselves: a split page lands
    # wherever free space was, not next to its key neighbours.
    order[moved] = order[rng.permutation(moved)]
    return order
