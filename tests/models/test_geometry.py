"""3390 geometry against the check values in the domain brief."""
import pytest

from models.io import geometry as g


@pytest.mark.parametrize("dl,per_track", [(4096, 12), (6144, 8), (23440, 2), (27998, 2),
                                          (27999, 1), (32760, 1), (56664, 1)])
def test_unkeyed_records_per_track(dl, per_track):
    assert g.records_per_track(dl) == per_track


def test_pds_directory_blocks_fit_45_per_track():
    assert g.records_per_track(256, key_len=8) == 45


def test_track_capacity_is_one_full_record():
    assert g.record_cells(g.TRACK_CAPACITY) <= g.CELLS_PER_TRACK
    assert g.record_cells(g.TRACK_CAPACITY + 1) > g.CELLS_PER_TRACK


def test_largest_block_fitting_fills_a_track():
    free = g.CELLS_PER_TRACK - g.record_cells(27998)
    fill = g.largest_block_fitting(free)
    assert g.fits_on_track([27998, fill]) and not g.fits_on_track([27998, fill + 1])


def test_models_and_cchhr():
    assert g.volume_tracks("3390-3") == 3339 * 15
    addr = g.CCHHR.of_track(31, 3)
    assert (addr.cc, addr.hh, addr.r, addr.track) == (2, 1, 3, 31)
    with pytest.raises(ValueError):
        g.volume_tracks("3380-K")
