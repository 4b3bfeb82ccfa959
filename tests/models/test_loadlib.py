"""Mechanisms of the load-library model: directory, binder layout, PDSE, space."""
import math

import pytest

from models.io.geometry import CELLS_PER_TRACK, record_cells
from models.loadlib import costs as C
from models.loadlib import layout as L
from models.loadlib import pdse as P
from models.loadlib.linklib import LINKLIB_CSV, generate, linklib_sizes


# -- the PDS directory -------------------------------------------------------------------
def test_seven_entries_per_directory_block_and_45_blocks_per_track():
    assert L.entries_per_block() == 7
    recs = L.directory_records(46)
    assert [r.track for r in recs[44:46]] == [0, 1]
    assert recs[45].number == 1 and recs[44].number == 45


@pytest.mark.parametrize("members,blocks", [(1, 1), (6, 1), (7, 2), (4200, 601), (100_000, 14286)])
def test_directory_blocks_grow_with_members(members, blocks):
    # A 4,200-member library has ~600 directory blocks (DOMAIN.md case A).
    assert L.directory_blocks(members) == blocks


def test_entry_position_selects_block_searched():
    assert L.block_of_entry(L.entry_index(4200, 0.0)) == 0
    assert L.block_of_entry(L.entry_index(4200, 1.0)) == 599
    assert L.block_of_entry(L.entry_index(4200, 0.5)) == 300


# -- how the binder writes a module ------------------------------------------------------------
def _module(nbytes, blksize):
    w = L.TrackWriter(0)
    return L.write_module(w, nbytes, blksize), w


@pytest.mark.parametrize("blksize", [1024, 4096, 6144, 23440, 32760])
def test_text_adds_up_and_no_block_exceeds_blksize(blksize):
    mod, _ = _module(1_000_000, blksize)
    texts = [r.length for r in mod.records if r.kind == L.TEXT]
    assert sum(texts) == 1_000_000
    assert max(texts) == blksize
    assert all(r.length <= 256 for r in mod.records if r.kind != L.TEXT)


@pytest.mark.parametrize("blksize", [6144, 32760])
def test_binder_fills_the_rest_of_each_track(blksize):
    mod, _ = _module(4 * 1024 * 1024, blksize)
    groups = mod.by_track()
    for group in groups[1:-1]:
        used = sum(record_cells(r.length) for r in group)
        # what is left could not hold even the smallest fill block
        assert CELLS_PER_TRACK - used < record_cells(C.MIN_FILL_BLOCK)
        assert any(r.kind == L.TEXT and r.length < blksize for r in group)


def test_full_text_blocks_per_track():
    # 6144: eight bare blocks fit a track (geometry), but every text block
    # brings a control/RLD record, so the binder gets seven plus a filler.
    full = lambda g, bs: sum(1 for r in g if r.kind == L.TEXT and r.length == bs)
    mod, _ = _module(4 * 1024 * 1024, 6144)
    assert full(mod.by_track()[2], 6144) == 7
    mod, _ = _module(4 * 1024 * 1024, 32760)
    assert full(mod.by_track()[2], 32760) == 1


def test_bigger_blocks_need_fewer_tracks_for_a_big_module():
    tracks = [_module(4 * 1024 * 1024, bs)[1].tracks_used for bs in (1024, 4096, 6144, 23440, 32760)]
    assert tracks == sorted(tracks, reverse=True)
    assert tracks[-1] < 0.92 * tracks[2]


def test_tiny_module_is_one_block_at_any_blksize():
    for bs in (1024, 6144, 32760):
        mod, _ = _module(8, bs)
        assert mod.text_blocks == 1 and len(mod.by_track()) == 1


# -- PDSE -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("members,depth", [(1, 1), (80, 1), (81, 2), (6400, 2), (6401, 3), (100_000, 3)])
def test_pdse_index_depth_is_logarithmic(members, depth):
    assert P.index_depth(members) == depth


def test_pdse_pages_are_4k_and_chains_bounded():
    obj = P.ProgramObject.of(4 * 1024 * 1024)
    reads = P.chains(10, obj.runs("NOPACK,NOPRIME"))
    assert all(r.length == 4096 for ch in reads for r in ch)
    assert max(len(ch) for ch in reads) == C.MM_CHAIN_PAGES
    assert sum(len(ch) for ch in reads) == sum(obj.runs("NOPACK,NOPRIME"))


def test_pack_prime_reads_everything_in_fewer_runs():
    obj = P.ProgramObject.of(264 * 1024)
    packed, unpacked = obj.runs("PACK,PRIME"), obj.runs("NOPACK,NOPRIME")
    assert len(packed) == 1 < len(unpacked)
    # PACK,PRIME also brings in the classes the loader does not need
    assert sum(packed) > sum(unpacked)


# -- library space and the bundled LINKLIB ------------------------------------------------------
def test_linklib_file_is_the_documented_draw():
    assert linklib_sizes() == [s for _, s in generate()]
    assert (LINKLIB_CSV.parent / "README.md").exists()


def test_linklib_sizes_are_plausible():
    sizes = sorted(linklib_sizes())
    median = sizes[len(sizes) // 2]
    assert 2000 < median < 50_000
    assert sizes[0] >= 8 and sizes[-1] > 1_000_000


def test_space_falls_with_block_size_for_big_members():
    sizes = [300_000, 1_000_000, 50_000, 4 * 1024 * 1024]
    tracks = [L.library_space(sizes, bs).tracks for bs in (1024, 6144, 23440, 32760)]
    assert tracks == sorted(tracks, reverse=True)


def test_space_counts_every_byte_once():
    sizes = [8, 424, 270_336]
    sp = L.library_space(sizes, 6144)
    assert sp.bytes > sum(sizes)                          # plus control/RLD/CESD/directory
    assert sp.tracks >= math.ceil(sum(sizes) / 56_664)
