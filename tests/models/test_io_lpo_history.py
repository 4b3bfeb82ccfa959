"""The LPO's history of the tracks it staged from (issue 42: a long run's
memory). A list that comes back to a track the LPO staged from is a revisit,
staged in track mode; the history is a bit a track, so it stops growing at
the volume's highest track however long the run (a set of every track grew
about 20,000 tracks a simulated second in the Large shop)."""
from __future__ import annotations

import sys

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


def test_a_track_staged_before_is_a_revisit_at_every_bit_of_the_history():
    vol = volume()
    # Tracks at the edges of the history's bytes, and the volume's last.
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
    size = sys.getsizeof(vol._lpo_staged)
    assert size < 2 * TRACKS // 8 + 1024, size
    for track in range(1, TRACKS, 7):         # as many others: no more memory
        stage_record_5(vol, track)
    assert sys.getsizeof(vol._lpo_staged) == size
