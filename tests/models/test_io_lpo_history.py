"""The LPO's history of the tracks it staged from (issue 42: a long run's
memory). A list that comes back to a track the LPO staged from is a revisit,
staged in track mode. The history is a set while it is small, then a bit a
track, so it stops growing at the volume's highest track however long the
run (a set of every track grew about 20,000 tracks a simulated second in
the Large shop)."""
from __future__ import annotations

import sys

import pytest

from models.drawing.config import ChannelPath, Configuration, ControlUnit, Rank, Volume
from models.engine import Engine
from models.io.cache import PARTIAL, RECORD
from models.io.request import IOResult
from models.io.system import IOSystem

TRACKS = 150_000        # a 3390-9


def volume():
    config = Configuration(
        channels=(ChannelPath("CHPID 40", "zHPF", "FEx8S", control_units=("DS8K-1",)),),
        control_units=(ControlUnit("DS8K-1", 64.0),),
        ranks=(Rank("R1", "HDD15K"),),
        volumes=(Volume("PRD000", "HDD15K", "DS8K-1", ("R1",), 3),))
    return IOSystem(Engine(1), config).volume("PRD000")


def stage_record_5(vol, track):
    """The LPO stages record 5 of ``track`` (out of cache): the mode it used."""
    before = list(vol.stats.stages)
    vol._lpo_schedule(0.0, [(track, 1 << 5)], IOResult(), False)
    modes = [m for m in range(3) if vol.stats.stages[m] != before[m]]
    assert len(modes) == 1
    return modes[0]


def history_bytes(vol):
    """The history's memory (its set's table, or its bits)."""
    return sys.getsizeof(vol._lpo_staged if vol._lpo_bits is None else vol._lpo_bits)


@pytest.mark.parametrize("kind", ["a set", "bits"])
def test_a_track_staged_before_is_a_revisit(kind):
    vol = volume()
    if kind == "bits":
        # Enough tracks, far from the ones below, for a set to cost more.
        for track in range(100_000, 100_600):
            stage_record_5(vol, track)
    assert (vol._lpo_bits is None) == (kind == "a set")
    # Tracks at the edges of the bits' bytes, and the volume's last.
    tracks = (0, 7, 8, 15, 16, 1023, 1024, TRACKS - 1)
    for track in tracks:
        assert stage_record_5(vol, track) == RECORD
    vol.clear_cache()
    for track in tracks:
        # Staged from before: from record 5 to the end of the track.
        assert stage_record_5(vol, track) == PARTIAL
    # Their neighbours were never staged from: one record each.
    vol.clear_cache()
    for track in (1, 6, 9, 14, 17, 1022, 1025, TRACKS - 2):
        assert stage_record_5(vol, track) == RECORD


def test_the_history_stops_growing_at_the_volumes_highest_track():
    vol = volume()
    for track in range(TRACKS - 1, 0, -7):    # 21,429 tracks, the highest first
        stage_record_5(vol, track)
    size = history_bytes(vol)
    assert size < 2 * TRACKS // 8 + 1024, size
    for track in range(1, TRACKS, 7):         # as many others: no more memory
        stage_record_5(vol, track)
    assert history_bytes(vol) == size


def test_a_short_history_stays_a_small_set():
    """A run that stages from a few tracks spread over the volume keeps
    them as a set: less memory than a bit for each of 150,000 tracks."""
    vol = volume()
    for track in range(0, TRACKS, TRACKS // 40):
        stage_record_5(vol, track)
    assert vol._lpo_bits is None
    assert history_bytes(vol) < TRACKS // 8 // 4
