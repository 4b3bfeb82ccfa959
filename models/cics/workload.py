"""The transactions a CICS region runs: file requests drawn from a mix, keys
drawn with skewed popularity.

Key popularity: the record of popularity rank ``r`` is drawn with
``r = floor(N * u**skew)`` (u uniform), so the top fraction ``f`` of the
records gets ``f**(1/skew)`` of the accesses (skew 3: 10 % of the records get
46 % of the requests). Ranks are scattered over the key range by a fixed
multiplicative permutation, so hot records sit in different CIs, as customer
numbers do. Added records get keys that fall at uniformly random places
between existing ones.
"""
from __future__ import annotations

import numpy as np

from models.cics.task import REQUEST_TYPES

#: A prime larger than any file size we allow, so ``rank * _SCATTER mod N``
#: permutes 0..N-1.
_SCATTER = 2_654_435_761


def mix_probabilities(mix: dict) -> np.ndarray:
    """Request-type probabilities in ``REQUEST_TYPES`` order from percentages."""
    p = np.array([float(mix.get(name, 0.0)) for name in REQUEST_TYPES])
    total = p.sum()
    if total <= 0:
        raise ValueError("the request mix adds up to 0")
    return p / total


class Workload:
    """Draws the requests of transactions in numpy chunks.

    Parameters
    ----------
    rng : numpy.random.Generator
        A named stream of the run.
    mix : dict
        Percentages by request type.
    requests_per_tran : int
    records : int
        Records in the file.
    skew : float
        Popularity skew (1 = uniform).
    """

    def __init__(self, rng, mix: dict, requests_per_tran: int, records: int, skew: float):
        self.rng = rng
        self.p = mix_probabilities(mix)
        self.per = requests_per_tran
        self.records = records
        self.skew = skew

    def chunk(self, n_trans: int) -> tuple[list, list]:
        """Types and records of ``n_trans`` transactions' requests, flattened."""
        n = n_trans * self.per
        types = self.rng.choice(len(self.p), size=n, p=self.p)
        u = self.rng.random(n)
        ranks = np.minimum((self.records * u ** self.skew).astype(np.int64), self.records - 1)
        recs = (ranks * _SCATTER) % self.records
        # An add's key lands at a uniformly random place in the key range.
        adds = types == 3
        recs[adds] = self.rng.integers(0, self.records, int(adds.sum()))
        return types.tolist(), recs.tolist()
