"""DASD fast write: writes end in cache + NVS, destage in the background, NVS full."""
import pytest

from models.engine import Engine
from models.io.subsystem import IOSubsystem, pages_to_groups
from models.io.writes import NVS


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
