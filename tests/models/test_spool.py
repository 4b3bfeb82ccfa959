"""Spool dump/load (case study C): published figures and the published reasoning."""
import numpy as np
import pytest

from models.studies import calibration
from models.engine import Trace
from models.experiments import run_experiment
from models.core.params import ParamError
from models.spool.files import MAX_PAGES, file_sizes
from models.spool.placement import even, restored

# A third of the published population: enough for several cartridges.
MID = {"files": 11000, "pages": 115000}


def _run(exp, **params):
    return run_experiment(exp, params).metrics


# --- file population and layout ---------------------------------------------------

def test_file_sizes_match_the_published_population():
    sizes = file_sizes(np.random.default_rng(7), 34000, 353000)
    assert sizes.sum() == 353000 and sizes.size == 34000
    assert sizes.min() >= 2 and sizes.max() <= MAX_PAGES     # 100 to 600,000 records
    assert np.median(sizes) < sizes.mean()                   # heavy tail: most files small


def test_file_sizes_reject_fewer_pages_than_files():
    with pytest.raises(ParamError):
        file_sizes(np.random.default_rng(1), 10, 5)


def test_even_spreads_files_restored_fills_a_cylinder_per_volume_in_turn():
    sizes = np.array([8] * 100)
    vol_e, _ = even(int(sizes.sum()), 4)
    vol_r, slot_r = restored(sizes, 4)
    assert set(vol_e[:8]) == {0, 1, 2, 3}
    # CP hands out a 180-page cylinder at a time, volumes in turn.
    assert set(vol_r[:180]) == {0} and set(vol_r[180:360]) == {1}
    assert vol_r[720] == 0 and slot_r[720] == 180


# --- published figures (full scale) ------------------------------------------------

@pytest.fixture(scope="module")
def verdicts():
    targets = [t for t in calibration.load_targets() if t["experiment"].startswith("spool_")]
    assert len(targets) >= 12
    return calibration.validate(targets)


def test_every_published_spool_figure_is_reproduced(verdicts):
    failed = [(v.id, v.model, v.expected) for v in verdicts if not v.ok]
    assert failed == []


# --- the published reasoning (smaller population, same mechanisms) ----------------

def test_spxtape_is_much_faster_than_sptape_and_uses_fewer_tapes():
    sp = _run("spool_dump", program="SPTAPE", **MID)
    spx = _run("spool_dump", program="SPXTAPE", **MID)
    assert sp["elapsed_s"] > 5 * spx["elapsed_s"]
    assert sp["tapes"] > spx["tapes"]


def test_more_drives_help_until_dasd_is_the_limit():
    one = _run("spool_dump", tape_drives=1, **MID)["elapsed_s"]
    two = _run("spool_dump", tape_drives=2, **MID)["elapsed_s"]
    four = _run("spool_dump", tape_drives=4, **MID)["elapsed_s"]
    assert two < 0.95 * one                 # a change hides behind the other drive
    assert four == pytest.approx(two, rel=0.03)   # four volumes: DASD is the limit
    many1 = _run("spool_dump", tape_drives=1, spool_volumes=16, **MID)["elapsed_s"]
    many2 = _run("spool_dump", tape_drives=2, spool_volumes=16, **MID)["elapsed_s"]
    assert many2 < 0.8 * many1              # sixteen volumes: one drive was the limit


def test_second_drive_removes_idle_time():
    m = _run("spool_dump", tape_drives=2, **MID)
    assert m["tape_change_s"] > 0 and m["overlap_pct"] > 95


def test_restored_layout_penalty_comes_from_cylinder_allocation(monkeypatch):
    """Consecutive restored files share a cylinder, and the readers all help
    the files at the head of the queue, so they meet on one volume: markedly
    slower, but not the fourfold of files piled up volume by volume.
    Allocating page by page across volumes would leave no penalty."""
    from models.spool import placement
    ev = _run("spool_dump", placement="even", **MID)["elapsed_s"]
    rs = _run("spool_dump", placement="restored", **MID)["elapsed_s"]
    assert 2.0 * ev < rs < 3.5 * ev
    monkeypatch.setattr(placement, "ALLOCATION_PAGES", 1)
    per_page = _run("spool_dump", placement="restored", **MID)["elapsed_s"]
    assert per_page < 1.1 * ev


def test_a_large_file_is_read_a_section_at_a_time():
    """SPXTAPE reads a file in sections of at most 32 pages (z/VM SSQBK), a
    section per reader: one 5,000-page file restored on one cylinder after
    another keeps 4 x 32 pages in flight, nearly all on one volume, so it
    dumps several times slower than the same file spread over the volumes.
    With every page of the file in flight at once it would not."""
    one = {"files": 1, "pages": 5000}
    ev = _run("spool_dump", placement="even", **one)["elapsed_s"]
    rs = _run("spool_dump", placement="restored", **one)["elapsed_s"]
    assert rs > 3.0 * ev


def test_readers_in_flight_decide_the_restored_penalty(monkeypatch):
    """Readers are not tied to volumes: more of them keep more sections of
    consecutive files in flight, which reach the next volumes' cylinders, so
    the restored penalty falls towards none while the even dump, already
    volume-bound, does not move."""
    from models.spool import spxtape
    ev = _run("spool_dump", placement="even", **MID)["elapsed_s"]
    monkeypatch.setattr(spxtape, "READERS_PER_VOLUME", 16)
    ev16 = _run("spool_dump", placement="even", **MID)["elapsed_s"]
    rs16 = _run("spool_dump", placement="restored", **MID)["elapsed_s"]
    assert ev16 == pytest.approx(ev, rel=0.01)
    assert rs16 < 1.1 * ev


def test_fewer_spool_volumes_shrink_spxtape_advantage():
    small = {"files": 3000, "pages": 31000}
    ratio = {}
    for v in (1, 4):
        sp = _run("spool_dump", program="SPTAPE", spool_volumes=v, **small)["elapsed_s"]
        spx = _run("spool_dump", program="SPXTAPE", spool_volumes=v, **small)["elapsed_s"]
        ratio[v] = sp / spx
    assert ratio[1] < 0.6 * ratio[4]


def test_less_storage_overlaps_less_of_a_change():
    big = _run("spool_dump", **MID)["overlap_pct"]
    mid = _run("spool_dump", real_storage_mb=256, **MID)["overlap_pct"]
    small = _run("spool_dump", real_storage_mb=32, **MID)["overlap_pct"]
    assert small < mid < big - 15


def test_memory_hungry_concurrent_work_overlaps_less_of_a_change():
    alone = _run("spool_dump", **MID)["overlap_pct"]
    beside = _run("spool_dump", other_storage_mb=768, **MID)["overlap_pct"]
    assert beside < alone - 15
    # Two drives still hide the change: the buffer matters for one drive.
    two = _run("spool_dump", other_storage_mb=768, tape_drives=2, **MID)["overlap_pct"]
    assert two > 95


def test_load_cpu_is_an_order_above_dump_published():
    """C: SPXTAPE LOAD about 900 CPU s (±35 %), DUMP 79 s, at full scale."""
    full = {"files": 34000, "pages": 353000}
    load = _run("spool_load", **full)["cpu_s"]
    dump = _run("spool_dump", **full)["cpu_s"]
    assert load == pytest.approx(900, rel=0.35)
    assert load > 5 * dump


def test_background_cpu_slows_the_dump():
    small = {"files": 2000, "pages": 20000, "program": "SPTAPE"}
    times = [_run("spool_dump", background_cpu_util=u, **small)["elapsed_s"] for u in (0, 0.5, 0.9)]
    assert times[0] < times[1] < times[2]


def test_load_hides_tape_changes_behind_spool_writes():
    m = _run("spool_load", program="SPXTAPE", **MID)
    assert m["overlap_pct"] > 90 and m["system_idle_s"] < 0.1 * m["tape_change_s"]


# --- extremes and trace ------------------------------------------------------------

@pytest.mark.parametrize("exp", ["spool_dump", "spool_load"])
@pytest.mark.parametrize("program", ["SPTAPE", "SPXTAPE"])
def test_extremes_run(exp, program):
    m = _run(exp, program=program, files=1, pages=1, spool_volumes=64, tape_drives=16,
             tape_change_s=0, real_storage_mb=1)
    assert m["tapes"] == 1 and m["elapsed_s"] > 0


def test_too_many_pages_for_the_volumes_is_a_clear_error():
    with pytest.raises(ParamError, match="do not fit"):
        run_experiment("spool_dump", {"files": 1000, "pages": 5_000_000, "spool_volumes": 1})


def test_other_work_holding_more_than_real_storage_is_a_clear_error():
    with pytest.raises(ParamError, match="cannot hold 2048 MB of a system with 1024 MB"):
        run_experiment("spool_dump", {"files": 300, "pages": 3000, "other_storage_mb": 2048})


def test_trace_records_volumes_drives_and_buffer():
    tr = Trace()
    run_experiment("spool_dump", {"files": 300, "pages": 60000}, trace=tr)
    kinds = set(tr.kinds)
    assert {"volume_read", "tape_write", "buffer_level", "tape_change_start",
            "tape_change_end", "tape_mark"} <= kinds
    # Components carry their canvas names (the case study draws SPOOL1-4 and TAPE1).
    assert "SPOOL1" in tr.components and "TAPE1" in tr.components
    assert tr.meta["roles"]["Real storage buffer"] == "BUF"
