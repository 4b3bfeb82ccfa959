"""DASD fast write: writes end in cache + NVS, destage in the background, NVS full."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.engine import Engine
from models.io.subsystem import IOSubsystem, pages_to_groups
from models.io import writes as writes_module
from models.io.writes import NVS
from tests.models.io_helpers import as_python


def _nvs_interpreted():
    """The NVS as its source runs it (writes.py loaded again as a plain module)."""
    return as_python(writes_module).NVS


def _writes(sub, lists, gap=0.0):
    out = []

    def proc():
        for pages in lists:
            out.append((yield from sub.write(pages_to_groups(pages))))
            if gap:
                yield gap

    sub.engine.process(proc())
    sub.engine.run()
    return out


def test_fast_write_ends_before_the_drives_are_done():
    sub = IOSubsystem(Engine(1), device="HDD10K", protocol="FICON", seq_detect=False)
    res = _writes(sub, [[12 * 900 + 3]])[0]
    assert res.total < 0.5e-3                       # channel only, no seek or turn
    assert res.disc == 0 and res.hits == 1
    assert sub.engine.now == pytest.approx(res.total)
    assert max(sub.backend.free_at) > 5e-3          # destage still busy on the drives
    st = sub.stats
    assert (st.write_requests, st.fast_writes, st.destages, st.destage_ops) == (1, 1, 1, 4)


def test_written_records_are_read_hits():
    sub = IOSubsystem(Engine(1), protocol="zHPF", seq_detect=False)
    _writes(sub, [[500, 501, 502]])
    res = []

    def reader():
        res.append((yield from sub.read_pages([500, 502])))

    sub.engine.process(reader())
    sub.engine.run()
    assert res[0].misses == 0 and res[0].hits == 2


def test_raid5_small_write_costs_data_and_parity_drives():
    sub = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF", seq_detect=False)
    track = 12_345
    _writes(sub, [[12 * track]])
    used = [d for d, n in enumerate(sub.backend.accesses) if n]
    assert sorted(used) == sorted({sub.backend.locate(track)[0], sub.backend.parity_drive(track)})
    assert sub.backend.parity_drive(track) != sub.backend.locate(track)[0]


def test_a_write_burst_larger_than_nvs_falls_to_drive_speed():
    small = IOSubsystem(Engine(1), device="HDD10K", protocol="zHPF", cache_gb=0.0005,
                        seq_detect=False)          # NVS at its floor: one track, 12 records
    big = IOSubsystem(Engine(1), device="HDD10K", protocol="zHPF", seq_detect=False)
    lists = [[12 * 37 * i] for i in range(40)]
    rs = _writes(small, lists)
    rb = _writes(big, lists)
    assert small.stats.nvs_waits > 20 and big.stats.nvs_waits == 0
    assert sum(r.total for r in rs) > 8 * sum(r.total for r in rb)
    assert sum(r.disc for r in rs) > 0.5 * sum(r.total for r in rs)


def test_nvs_frees_space_when_destages_finish():
    nvs = NVS(8192)
    nvs.hold(4096, 1.0)
    nvs.hold(4096, 2.0)
    assert nvs.room_at(0.5, 4096) == 1.0
    nvs.hold(4096, 3.0)
    assert nvs.room_at(2.5, 4096) == 2.5
    with pytest.raises(ValueError):
        nvs.room_at(0.0, 10_000)


# ---- write hits join a destage that has not started (writes.py) --------------------------
def _hdd15k():
    return IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF", seq_detect=False)


def test_rewrites_of_a_hot_page_on_a_busy_rank_share_one_destage():
    # Back to back, 0.1 ms apart: the drives fall behind (a RAID-5 small
    # write takes them ~10 ms), so destages queue up.
    hot, spread = _hdd15k(), _hdd15k()
    page = 12 * 4321 + 5
    _writes(hot, [[page]] * 40)
    _writes(spread, [[12 * (4321 + 53 * i) + 5] for i in range(40)])
    h, s = hot.stats, spread.stats
    assert (s.destages, s.destage_ops, s.coalesced_writes) == (40, 160, 0)
    # The first destage starts at once; the second queues behind it and
    # carries every later rewrite, written while it waited.
    assert (h.destages, h.coalesced_writes) == (2, 38)
    assert h.destage_ops == 8
    assert sum(hot.backend.busy) < 0.1 * sum(spread.backend.busy)
    assert h.fast_writes == s.fast_writes == 40      # every write still ends in cache + NVS


def test_a_light_load_destages_every_write_at_once():
    # 50 ms between rewrites: each destage is done before the next write.
    sub = _hdd15k()
    _writes(sub, [[12 * 777 + 3]] * 10, gap=0.05)
    st = sub.stats
    assert (st.destages, st.destage_ops, st.coalesced_writes) == (10, 40, 0)


def test_a_write_outside_the_queued_destages_records_gets_its_own():
    sub = _hdd15k()
    t = 12 * 2222
    # Records 0-2 twice: the second destage waits behind the first.
    _writes(sub, [[t, t + 2], [t, t + 2], [t + 1], [t + 5]])
    st = sub.stats
    # Record 1 lies inside the waiting destage's span (it writes records
    # 0 to 2): it joins; record 5 does not: a destage of its own.
    assert (st.destages, st.coalesced_writes) == (3, 1)


def test_nvs_holds_a_joined_record_until_the_destage_that_carries_it_is_done():
    sub = _hdd15k()
    t = 12 * 2222
    rec = sub.record_bytes
    _writes(sub, [[t, t + 2], [t, t + 2]])
    queued = sub._destaging[2222]
    start, done = queued[0], queued[1]
    assert sub.engine.now < start < done
    _writes(sub, [[t, t + 2]])                       # rewrites what the destage holds: no more NVS
    nvs = sub.nvs
    assert nvs.used == 4 * rec
    _writes(sub, [[t + 1]])                          # a record it did not hold: one more
    assert nvs.used == 5 * rec
    first_done = nvs.holds()[0][0]
    assert first_done < done
    nvs.room_at(first_done, 0)
    assert nvs.used == 3 * rec                       # the first destage's two records freed
    nvs.room_at(done - 1e-9, 0)
    assert nvs.used == 3 * rec                       # the joined record waits for its destage
    nvs.room_at(done, 0)
    assert nvs.used == 0


_NVS_OPS = st.lists(st.tuples(st.booleans(), st.integers(0, 40), st.integers(1, 5)),
                    min_size=1, max_size=300)


@settings(max_examples=150, deadline=None)
@given(_NVS_OPS)
def test_nvs_compiled_and_interpreted_free_the_same_holds_at_the_same_times(ops):
    """Whichever build runs, NVS answers every room check alike and holds the
    same bytes: the compiled heap keeps heapq's order (done time, then bytes),
    ties included (done times are drawn from a few values)."""
    cap = 8 * 4096
    a, b = NVS(cap), _nvs_interpreted()(cap)
    t = 0.0
    for is_hold, when, pages in ops:
        nbytes = pages * 4096
        if is_hold:
            until = t + when / 8.0
            a.hold(nbytes, until)
            b.hold(nbytes, until)
        else:
            t += when / 64.0
            ra, rb = a.room_at(t, nbytes), b.room_at(t, nbytes)
            assert ra == rb
            a.hold(nbytes, ra)
            b.hold(nbytes, rb)
        assert a.used == b.used
        assert a.holds() == b.holds()


@pytest.mark.parametrize("order", [(5, 1, 4, 2, 3, 1, 2), (1, 2, 3, 4, 5, 6, 7), (7, 6, 5, 4, 3, 2, 1),
                                   (3, 3, 1, 6, 2, 7, 4)])
def test_nvs_frees_holds_done_together_smallest_first_as_heapq_does(order):
    """Destages done at the same moment free their bytes in heapq's order
    (smallest first), so a write that needs only part of them leaves the
    same bytes held in either build."""
    cap = 20 * 4096
    a, b = NVS(cap), _nvs_interpreted()(cap)
    for pages in order:
        a.hold(pages * 4096, 1.0)
        b.hold(pages * 4096, 1.0)
    left = []
    for need in (4, 7, 12, 16, 20):
        assert a.room_at(0.5, need * 4096) == b.room_at(0.5, need * 4096)
        assert a.used == b.used and a.holds() == b.holds()
        left.append(len(a.holds()))
    assert any(0 < k < len(order) for k in left)     # stopped part way through the tie


def test_nvs_with_nothing_to_free_says_so_in_either_build():
    """A room check that would need to free more than NVS holds (its count
    knocked out of step with its holds) raises, as heapq does on an empty
    heap, instead of reading past the compiled heap."""
    for cls in (NVS, _nvs_interpreted()):
        nvs = cls(100)
        nvs.hold(30, 1.0)
        nvs.used = 90
        with pytest.raises(IndexError):
            nvs.room_at(0.0, 50)


# ---- sequential writes: full-stride (strip) destage (writes.py) ---------------------
def _stream(seq_detect: bool, gap: float = 0.0005):
    """Two stripe rows of a 7+P HDD15K rank (56 tracks from a row's start)
    written whole, track after track, as a batch job writes a data set."""
    sub = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF", seq_detect=seq_detect)
    be = sub.backend
    rt = be.strip_tracks * be.data_per_row
    first = 40 * rt
    _writes(sub, [range(12 * t, 12 * t + 12) for t in range(first, first + 2 * rt)], gap=gap)
    return sub, rt


def test_a_sequential_write_stream_is_destaged_as_full_stripes():
    sub, rt = _stream(seq_detect=True)
    st = sub.stats
    # The stream's first write cannot be known as sequential: a small write
    # (read and write data and parity, 4 operations). Every later one
    # waits for its stripe row: one destage per row, each track written
    # once on its data drive and the row's parity once, nothing read.
    assert st.destages == 1 + 2
    assert st.destage_ops == 4 + (rt - 1 + 1) + (rt + 1)
    assert st.fast_writes == 2 * rt * 12
    assert sub.nvs.deferred == 0 and not sub._open_rows   # the last row was complete


def test_full_stride_destage_takes_a_fraction_of_the_small_writes_drive_time():
    seq, rt = _stream(seq_detect=True)
    rmw, _ = _stream(seq_detect=False)
    assert rmw.stats.destage_ops == 4 * 2 * rt      # read and write data and parity
    # Small writes read old data and parity and wait a turn to write them
    # back; the stride writes each strip once, the tracks streaming on.
    assert sum(seq.backend.busy) < 0.25 * sum(rmw.backend.busy)


def test_a_stream_that_stops_mid_row_is_destaged_when_it_moves_on():
    sub = IOSubsystem(Engine(1), device="HDD15K", protocol="zHPF")
    be = sub.backend
    rt = be.strip_tracks * be.data_per_row
    first = 40 * rt
    # Half a row, then the job goes on writing from the next row's start:
    # a new stream (its first write a small write), whose second write opens
    # that row and so destages the half row the stream left behind.
    tracks = list(range(first, first + rt // 2)) + list(range(first + rt, first + rt + 3))
    _writes(sub, [range(12 * t, 12 * t + 12) for t in tracks], gap=0.0005)
    st = sub.stats
    assert st.destages == 1 + 1 + 1
    assert len(sub._open_rows) == 1                  # the new stream's row
    assert sub.nvs.deferred == 2 * 12 * 4096         # the new row's two tracks wait in NVS


def test_writes_open_no_more_rows_than_the_streams_the_unit_follows():
    from models.io.volume import SEQ_STREAMS
    assert writes_module.OPEN_ROWS == SEQ_STREAMS
