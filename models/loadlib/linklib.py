"""The bundled SYS1.LINKLIB member-size distribution.

``resources/linklib/sys1_linklib_sizes.csv`` lists member names and text
sizes typical of a z/OS link library: many small utility and exit modules,
a long tail of large ones. It is synthetic, not a customer's library: drawn
once by :func:`generate` (log-normal sizes, a fixed seed) and committed, so
every run and every machine copies the same library. The README beside the
file says how and why.
"""
from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

from models.core.resources import RESOURCES

LINKLIB_CSV = RESOURCES / "linklib" / "sys1_linklib_sizes.csv"

#: Shape of the distribution (see resources/linklib/README.md).
MEMBERS = 3500
MEDIAN_BYTES = 12_000
SIGMA = 1.7
MIN_BYTES = 8
MAX_BYTES = 16 * 1024 * 1024
SEED = 3390


def generate(members: int = MEMBERS, median: float = MEDIAN_BYTES, sigma: float = SIGMA,
             seed: int = SEED) -> list[tuple[str, int]]:
    """Draw ``members`` (name, bytes) pairs from a log-normal size distribution.

    Parameters
    ----------
    members : int
        How many members.
    median : float
        Median text size in bytes.
    sigma : float
        Standard deviation of log(size).
    seed : int
        Seed of the numpy generator.

    Returns
    -------
    list of (str, int)
        Member names in collating order with their sizes, clipped to
        8 bytes–16 MB.
    """
    rng = np.random.default_rng(seed)
    sizes = rng.lognormal(math.log(median), sigma, members)
    sizes = np.clip(np.rint(sizes), MIN_BYTES, MAX_BYTES).astype(int)
    return [(f"MOD{i:05d}", int(s)) for i, s in enumerate(sizes)]


def write_csv(path: Path = LINKLIB_CSV) -> None:
    """(Re)build the bundled file from :func:`generate`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="ascii") as fh:
        out = csv.writer(fh)
        out.writerow(("member", "bytes"))
        out.writerows(generate())


def linklib_sizes(path: Path = LINKLIB_CSV) -> list[int]:
    """Member sizes of the bundled SYS1.LINKLIB, in directory order."""
    with path.open(newline="", encoding="ascii") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        raise ValueError(f"{path} lists no members")
    return [int(r["bytes"]) for r in rows]


if __name__ == "__main__":
    write_csv()
    print(f"wrote {LINKLIB_CSV}")
