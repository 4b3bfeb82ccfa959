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

Above the leaves, each level-1 non-leaf page names up to
:data:`NONLEAF_FANOUT` leaf pages in key order; DB2 10 list-prefetches the
leaves a non-leaf page names (models.db2.access). :func:`index_layout`
places both: a freshly built index writes each non-leaf page just before
the leaves it names, and page splits move non-leaf pages as they move
leaves.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.io.geometry import PAGE_BYTES, records_per_track, volume_tracks

#: 4 KB pages per 3390 track (12: the device's cell arithmetic).
PAGES_PER_TRACK = records_per_track(PAGE_BYTES)

#: Key length assumed for the scanned index (bytes): a short key, as in the
#: index the published scans read (not stated there; an assumption). The
#: leaf's CPU (models.db2.cpu) assumes the same.
KEY_BYTES = 10
#: A non-leaf entry: the key and the 4-byte number of the child page.
CHILD_POINTER_BYTES = 4
#: Leaf pages one level-1 non-leaf page names: a 4 KB page of
#: ``KEY_BYTES + CHILD_POINTER_BYTES`` entries (292). **Assumed** (derived
#: from the assumed key); swept in bench/sensitivity.py.
NONLEAF_FANOUT = PAGE_BYTES // (KEY_BYTES + CHILD_POINTER_BYTES)

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


@dataclass(frozen=True)
class IndexLayout:
    """Where an index's pages are: ``leaves[i]`` is the page of the i-th leaf
    in key order; ``nonleaf[g]`` the page of the level-1 non-leaf page that
    names leaves ``g * fanout`` to ``(g + 1) * fanout - 1``."""

    leaves: np.ndarray
    nonleaf: np.ndarray
    fanout: int

    def group(self, i):
        """Non-leaf group(s) of leaf (key-order) index ``i``."""
        return np.asarray(i) // self.fanout


def index_layout(pages: int, disorganization: float, rng: np.random.Generator,
                 fanout: int | None = None) -> IndexLayout:
    """Leaf and level-1 non-leaf pages of an index of ``pages`` pages.

    Built fresh, the index holds each non-leaf page followed by the
    ``fanout`` leaves it names, in key order. Then the ``disorganization``
    share of all pages (leaf and non-leaf alike: both split) trade places
    among themselves, as :func:`leaf_key_order` does for leaves. The few
    pages above level 1 (DB2 10 pins the root) are left out.

    Parameters
    ----------
    pages : int
        Pages in the index (at least 2: one non-leaf page and a leaf).
    disorganization : float
        0 – 1, as in :func:`leaf_key_order`.
    rng : numpy Generator
        The run's named stream for the index layout.
    fanout : int, optional
        Leaves per non-leaf page (:data:`NONLEAF_FANOUT`).
    """
    fanout = NONLEAF_FANOUT if fanout is None else int(fanout)
    if pages < 2 or fanout < 1:
        raise ValueError("an index needs a non-leaf page and at least one leaf")
    # Physical page of every logical page: its position when freshly built.
    place = leaf_key_order(pages, disorganization, rng)
    is_nonleaf = np.arange(pages) % (fanout + 1) == 0
    return IndexLayout(place[~is_nonleaf], place[is_nonleaf], fanout)
