"""The control unit's cache directory: LRU by track, slots counted, stages in flight.

The compiled directory (a C hash table kept in LRU order by a log of
touches, models/io/cache.pxd)
and its source run interpreted (an OrderedDict) must answer every look-up
alike and evict the same tracks in the same order: a random sequence of
operations runs on both, side by side, in one process (the source loaded
again from cache.py as a plain module).
"""
import importlib.util
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import models.io
from models.io import cache as cache_module

SOURCE = Path(cache_module.__file__).with_name("cache.py")


def _interpreted():
    spec = importlib.util.spec_from_file_location("_cache_as_python", SOURCE)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod          # its dataclass looks itself up there
    spec.loader.exec_module(mod)
    assert not mod.cython.compiled
    return mod


PY = _interpreted()


def _pair(slots: int):
    """The directory under test (compiled where built) and the interpreted one,
    each logging its evictions."""
    logs: tuple[list, list] = ([], [])
    a = cache_module.CacheDirectory(slots, lambda k, n: logs[0].append((k, n)))
    b = PY.CacheDirectory(slots, lambda k, n: logs[1].append((k, n)))
    return a, b, logs


COMPILED = not cache_module.__file__.endswith(".py")


def test_the_build_under_test_is_the_compiled_one_where_required():
    if os.environ.get("ZPERFLAB_REQUIRE_COMPILED"):
        assert models.io.COMPILED and COMPILED
    elif not COMPILED:
        pytest.skip("the I/O model is not compiled here: both sides run the source")


def test_the_oldest_track_goes_first_and_a_touched_one_stays():
    c = cache_module.CacheDirectory(24)           # two 12-record tracks
    gone: list = []
    c.on_evict = lambda k, n: gone.append((k, n))
    c.add(1, 0xFFF, 0.0)
    c.add(2, 0xFFF, 0.0)
    assert c.valid(1, 1.0) == 0xFFF               # track 1 touched: 2 is now the oldest
    c.add(3, 0x00F, 0.0)
    assert gone == [(2, 12)]
    assert c.held(2) == 0 and not c.contains(2)
    assert c.valid(1, 1.0) == 0xFFF and c.held(3) == 0x00F
    assert c.used == 16 and c.evicted == 12


def test_a_prestaged_run_over_a_cached_track_counts_its_slots_once():
    c = cache_module.CacheDirectory(100)
    c.add(5, 0xFF, 0.0)                 # 8 slots
    c.add_tracks(5, 2, 0xF, 1.0)        # track 5 replaced by 4 slots, track 6 new: 4
    assert c.used == 8 and c.held(5) == 0xF and c.held(6) == 0xF


def test_records_being_staged_are_valid_only_from_their_ready_time():
    c = cache_module.CacheDirectory(100)
    c.add(7, 0b0110, 5.0)
    assert c.pending(7) == (0b0110, 5.0)
    assert c.pending_mask(7) == 0b0110 and c.held(7) == 0b0110
    assert c.valid(7, 4.9) == 0
    assert c.valid(7, 5.0) == 0b0110
    assert c.pending(7) == (0, 0.0)


def test_a_track_bigger_than_64_records_is_refused_with_a_clear_message():
    from models.engine import Engine
    from models.io.subsystem import IOSubsystem

    with pytest.raises(ValueError, match="at most 64 a track"):
        IOSubsystem(Engine(1), record_bytes=128)


OPS = st.lists(st.tuples(
    st.sampled_from(["add", "add_tracks", "valid", "pending", "held", "contains", "drop", "warm"]),
    st.integers(0, 40),                       # track
    st.integers(1, (1 << 64) - 1) | st.integers(1, 0xFFF),   # mask
    st.floats(0.0, 10.0, allow_nan=False),    # time
    st.integers(1, 6)),                       # count / span
    min_size=1, max_size=300)


@settings(max_examples=200, deadline=None)
@given(slots=st.integers(1, 400), ops=OPS)
def test_compiled_and_interpreted_directories_agree_op_by_op(slots, ops):
    a, b, logs = _pair(slots)
    for op, track, mask, t, count in ops:
        if op == "add":
            a.add(track, mask, t)
            b.add(track, mask, t)
        elif op == "add_tracks":
            # Callers stage runs of tracks not in the directory; one already
            # there is replaced in place, its slots given back.
            first = 1000 + track * 10 - 3 * (track % 2)
            a.add_tracks(first, count, mask, t)
            b.add_tracks(first, count, mask, t)
        elif op == "valid":
            assert a.valid(track, t) == b.valid(track, t)
        elif op == "pending":
            assert a.pending(track) == b.pending(track)
            assert a.pending_mask(track) == b.pending_mask(track)
        elif op == "held":
            assert a.held(track) == b.held(track)
        elif op == "contains":
            assert a.contains(track) == b.contains(track)
        elif op == "drop":
            a.drop(track, track + count)
            b.drop(track, track + count)
        else:
            a.warm(track, mask)
            b.warm(track, mask)
        assert (a.used, a.evicted, len(a)) == (b.used, b.evicted, len(b))
    assert logs[0] == logs[1]
    # The same tracks remain, in the same LRU order: evict them all, oldest first.
    a.add(10**9, 1, 0.0)
    b.add(10**9, 1, 0.0)
    a.capacity = b.capacity = 1
    a._evict(10**9)
    b._evict(10**9)
    assert logs[0] == logs[1]
    a.clear()
    b.clear()
    assert (a.used, len(a)) == (b.used, len(b)) == (0, 0)


def test_a_full_directory_under_churn_finds_every_track_it_holds():
    """Thousands of tracks of several volumes (keys ``volume << 32 | track``)
    coming and going: every look-up answers as the interpreted directory's,
    after evictions and a volume's tracks dropped (deletions inside probe runs)."""
    import random

    rng = random.Random(5)
    a, b, logs = _pair(3000)
    pool = [(v << 32) + rng.randrange(150_000) for v in range(6) for _ in range(1500)]
    for step in range(60_000):
        key = rng.choice(pool)
        r = rng.random()
        if r < 0.5:
            mask = 1 << rng.randrange(12)
            a.add(key, mask, step * 1e-3)
            b.add(key, mask, step * 1e-3)
        elif r < 0.9:
            assert a.valid(key, step * 1e-3) == b.valid(key, step * 1e-3)
        else:
            assert a.held(key) == b.held(key) and a.contains(key) == b.contains(key)
        if step == 30_000:
            a.drop(3 << 32, 4 << 32)
            b.drop(3 << 32, 4 << 32)
    assert (a.used, a.evicted, len(a)) == (b.used, b.evicted, len(b))
    assert logs[0] == logs[1] and len(logs[0]) > 10_000
    assert [a.held(k) for k in pool] == [b.held(k) for k in pool]


def test_a_directory_of_millions_of_slots_grows_clears_and_grows_again_alike():
    """Past 2 MB the compiled directory's arrays are memory mappings of their
    own (huge pages), grown in place: 200,000 tracks take both arrays over
    that size, a clear gives them back and the next growth starts again. Every
    look-up, and the eviction order at the end, match the interpreted one."""
    import random

    rng = random.Random(3)
    a, b, logs = _pair(12 * 150_000)
    for rnd in range(2):
        keys = [(v << 32) | t for v in range(4) for t in range(50_000)]
        rng.shuffle(keys)
        for k in keys:
            a.warm(k, 0xFFF)
            b.warm(k, 0xFFF)
        assert (a.used, a.evicted, len(a)) == (b.used, b.evicted, len(b))
        assert len(a) == 150_000 and a.evicted == (rnd + 1) * 12 * 50_000
        for k in rng.sample(keys, 5_000):
            assert a.valid(k, 1.0) == b.valid(k, 1.0)
            assert a.contains(k) == b.contains(k)
        assert logs[0] == logs[1]
        if rnd == 0:
            a.clear()
            b.clear()
            assert len(a) == 0 and a.used == 0


def test_a_long_run_keeps_the_lru_log_small_and_the_order_exact():
    """Compiled, every hit appends a record to the LRU log and leaves the
    track's older one stale, and every eviction leaves the log's head
    further on. Half a million hits on 4,000 tracks, then as many look-ups
    and new tracks under evictions, keep the log within eight records a
    track (it compacts itself, or a long run's memory would grow without
    end), and the tracks leave in the interpreted directory's order."""
    import random

    rng = random.Random(9)
    a, b, logs = _pair(24_000)
    keys = [(v << 32) | t for v in range(4) for t in range(1000)]
    for k in keys:
        a.warm(k, 1)
        b.warm(k, 1)
    most = 0
    for step in range(500_000):
        k = keys[min(int(rng.expovariate(1 / 600)), 3999)]     # some tracks much hotter
        assert a.valid(k, 1.0) == b.valid(k, 1.0) == 1
        if step % 1000 == 0:
            most = max(most, a.log_capacity)
    assert most <= 8 * len(keys) + 8
    if COMPILED:
        assert a.log_capacity > 0
    # A cache of 3,000 slots: new tracks push the oldest out all the time.
    a.capacity = b.capacity = 3000
    for step in range(500_000):
        k = (5 << 32) | rng.randrange(6000)
        if rng.random() < 0.3:
            a.add(k, 1, 2.0)
            b.add(k, 1, 2.0)
        else:
            assert a.valid(k, 2.0) == b.valid(k, 2.0)
        if step % 1000 == 0:
            most = max(most, a.log_capacity)
    assert most <= 8 * len(keys) + 8
    assert logs[0] == logs[1] and len(logs[0]) > 50_000
    a.capacity = b.capacity = 1
    a._evict(-1)
    b._evict(-1)
    assert logs[0] == logs[1]
