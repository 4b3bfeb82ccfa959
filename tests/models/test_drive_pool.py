"""The drives' shared state (models/io/backend.py, DrivePool): C arrays
compiled, lists interpreted, one view of them for Python either way."""
import random

import pytest

from models.engine import Engine
from models.io import backend as backend_module
from models.io import devices
from models.io.backend import Backend, DrivePool
from models.io.subsystem import IOSubsystem
from tests.models.io_helpers import as_python


def _pool_interpreted():
    """The pool as its source runs it (backend.py loaded again as a plain module)."""
    return as_python(backend_module).DrivePool


def _filled(cls):
    pool = cls()
    pool.add(3, random.Random(4), 500)
    pool.add(2, random.Random(5), 800, lanes=4)
    return pool


@pytest.mark.parametrize("build", ["as built", "interpreted"])
def test_a_pools_drive_figures_read_and_write_in_place(build):
    """What reports, statistics resets and the trace do with a pool: read a
    drive's figure, set it, slice, sum and count them; a drive past the end
    is an IndexError, not a read past the arrays."""
    pool = _filled(DrivePool if build == "as built" else _pool_interpreted())
    assert len(pool) == len(pool.free_at) == 5
    assert list(pool.end_off) == [-1] * 5 and list(pool.accesses) == [0] * 5
    pool.free_at[1] = 2.5
    pool.busy[-1] = 0.75
    pool.accesses[0] = 7
    assert pool.free_at[1] == 2.5 and pool.busy[4] == 0.75 and pool.accesses[0] == 7
    assert pool.busy[3:] == [0.0, 0.75] and sum(pool.busy) == 0.75
    assert max(pool.free_at) == 2.5
    assert all(0 <= c < 800 for c in pool.cyl) and all(0 <= p < 1 for p in pool.phase)
    assert pool.lanes == [None, None, None, [0.0] * 4, [0.0] * 4]
    with pytest.raises(IndexError):
        pool.cyl[5]
    with pytest.raises(IndexError):
        pool.free_at[-6] = 1.0


def test_compiled_and_interpreted_pools_draw_the_same_drives():
    """The platter phases and arm positions come from the same draws in
    either build (every seek and rotational delay starts from them)."""
    a, b = _filled(DrivePool), _filled(_pool_interpreted())
    assert list(a.phase) == list(b.phase) and list(a.cyl) == list(b.cyl)


def test_volumes_on_one_rank_see_each_others_drives():
    """A volume's back end shows the pool's drives, not a copy: a stage by
    one volume's back end is what the other's figures show."""
    pool = DrivePool()
    rank = backend_module.Rank("R1", devices.profile("HDD15K"), 4096, "7+P",
                               random.Random(2), pool)
    one = Backend(rank.disk, 4096, on=[rank], slots=[rank.allocate(3)])
    two = Backend(rank.disk, 4096, on=[rank], slots=[rank.allocate(3)])
    done, _ = one.stage(0.0, 10, 0, 12)
    drive, _ = one.locate(10)
    assert two.free_at[drive] == done > 0.0 and two.accesses[drive] == 1
    assert rank.busy_s() == pytest.approx(sum(two.busy)) and rank.busy_s() > 0.0


def test_an_ssd_stage_takes_the_lane_free_soonest():
    """An SSD's lanes overlap the access latency of stages issued at once;
    one stage more than it has lanes waits for the lane free soonest (the
    first), and books it."""
    sub = IOSubsystem(Engine(1), device="SSD", protocol="zHPF", seq_detect=False,
                      staging="record")
    be = sub.backend
    n = devices.profile("SSD").parallelism
    drive, _ = be.locate(0)
    ends = [be._ssd(0.0, drive, 4608) for _ in range(n + 1)]
    access = be.access
    assert ends[0] >= access and ends[n - 1] < 2 * access     # overlapped on n lanes
    assert ends[n] >= ends[0] + access                        # the extra one waited
    lanes = be.lanes[drive]
    assert len(lanes) == n and lanes[0] == ends[n] and lanes[1:] == ends[1:n]


@pytest.mark.parametrize("build", ["as built", "interpreted"])
def test_a_drive_the_pool_lacks_is_refused_not_read(build):
    """A drive number past the pool, or the lanes of a disk, are refused
    with a message (compiled, nothing is read past the C arrays)."""
    pool = _filled(DrivePool if build == "as built" else _pool_interpreted())
    with pytest.raises(IndexError, match="drive 9 out of range"):
        pool.lane_min(9)
    with pytest.raises(ValueError, match="a disk"):
        pool.lane_min(0)
    with pytest.raises(IndexError):
        pool._value(0, -1)
    assert pool.lane_min(4) == 0.0
