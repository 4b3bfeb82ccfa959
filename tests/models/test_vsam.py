"""VSAM pieces: KSDS geometry on 3390 tracks, index, splits, LRU pools, volume timing."""
from __future__ import annotations

import pytest

from models.engine import Engine
from models.vsam import KSDS, BufferPool, Volume


def test_4k_cis_fill_a_cylinder_ca_by_3390_track_arithmetic():
    k = KSDS(100_000, record_bytes=250)
    assert k.cis_per_track == 12           # DOMAIN.md: 4096-byte records, 12 per track
    assert k.cis_per_ca == 180             # one cylinder of 15 tracks
    assert k.recs_per_ci == (4096 - 10) // 250
    assert k.loaded_per_ci < k.recs_per_ci  # FREESPACE leaves room for inserts


def test_index_levels_grow_with_the_file():
    small, big = KSDS(100), KSDS(10_000_000)
    assert small.index_levels == 1
    assert big.index_levels >= 2
    path = big.index_path(big.data_cis - 1)
    assert len(path) == big.index_levels and all(i < 0 for i in path)
    assert path[0] == big.index_path(0)[0]     # one root for every key


def test_full_ci_splits_and_full_ca_splits():
    k = KSDS(10_000, ci_free_pct=0, ca_free_pct=10)
    assert k.insert(0) == 2 and k.ci_splits == 1          # new CI + sequence-set CI
    free = k.ca_free[0]
    for _ in range(free):
        k.occupancy[0] = k.recs_per_ci
        k.insert(0)
    k.occupancy[0] = k.recs_per_ci
    extra = k.insert(0)
    assert k.ca_splits == 1 and extra > k.cis_per_ca // 2


def test_record_that_does_not_fit_a_ci_is_refused():
    with pytest.raises(ValueError):
        KSDS(10, record_bytes=5000)


def test_lru_pool_hits_misses_evicts_and_invalidates():
    pool = BufferPool(2)
    assert not pool.lookup(1)
    pool.load(1)
    pool.load(2)
    assert pool.lookup(1)          # 1 is now most recent
    pool.load(3)                   # evicts 2
    assert 2 not in pool and 1 in pool and 3 in pool
    assert pool.discard(3) and not pool.discard(3)
    assert (pool.hits, pool.misses, pool.invalidations) == (1, 1, 1)


def _timed(engine, gen):
    out = {}

    def proc():
        t0 = engine.now
        out["value"] = yield from gen
        out["t"] = engine.now - t0
    engine.process(proc())
    engine.run()
    return out


def test_cu_cache_miss_pays_seek_and_rotation_hit_does_not():
    eng = Engine(1)
    vol = Volume(eng, 4096, data_cis=10)
    hit = _timed(eng, vol.read(5))
    miss = _timed(eng, vol.read(10 ** 6))        # beyond the warm data component
    assert hit["value"] and not miss["value"]
    assert 0.05e-3 < hit["t"] < 0.5e-3            # a cache-hit I/O: a fraction of a ms
    assert miss["t"] > hit["t"] + 0.001           # milliseconds of seek + rotation
    w = _timed(eng, vol.write(3, count=3))
    # A DASD fast write through the I/O model: one channel program, no drive.
    assert 0.05e-3 < w["t"] < 0.5e-3
    assert vol.sub.stats.fast_writes == 3 and vol.sub.stats.write_requests == 3
    assert vol.page(-1) == 10                    # index CIs follow the data component
