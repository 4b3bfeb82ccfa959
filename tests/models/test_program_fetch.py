"""The program_fetch and library_space experiments: published figures and shapes."""
import pytest

from models.engine import Trace
from models.experiments import run_experiment
from models.loadlib.fetch import FetchJob, NATIVE_SAMPLE_LOADS
from models.loadlib.runs import fetch_config
from models.experiments.program_fetch import PROGRAM_FETCH_SCHEMA


def pf(**kw):
    return run_experiment("program_fetch", kw).metrics


def ratio(metric, params, **baseline):
    return pf(**params)[metric] / pf(**{**params, **baseline})[metric]


# -- published figures (Longpela, "Load Library Performance", 2019) ---------------------------
A1 = dict(library="PDS", blksize=6144, module="IEFBR14", iterations=5000)
ARCCTL = dict(library="PDS", blksize=32760, module="ARCCTL", iterations=1000)


def test_a1_iefbr14_cpu_excps_elapsed():
    m = pf(**A1)
    assert m["excps"] == pytest.approx(10006, rel=0.02)
    assert m["cpu_s"] == pytest.approx(0.13, rel=0.3)
    assert m["elapsed_s"] == pytest.approx(3.0, rel=0.3)


def test_a2_iefbr14_same_at_every_blksize():
    base = pf(**A1)
    for bs in (23440, 32760):
        m = pf(**{**A1, "blksize": bs})
        assert 0.95 <= m["elapsed_s"] / base["elapsed_s"] <= 1.05
        assert m["excps"] == base["excps"]


def test_a3_arcctl_32760_about_halves_elapsed_and_cuts_cpu():
    assert 0.45 <= ratio("elapsed_s", ARCCTL, blksize=6144) <= 0.65
    assert 0.4 <= ratio("cpu_s", ARCCTL, blksize=6144) <= 0.85


def test_a6_pdse_much_faster_with_fewer_excps():
    p = {**ARCCTL, "library": "PDSE", "fetchopt": "NOPACK,NOPRIME"}
    assert 0.05 <= ratio("elapsed_s", p, library="PDS") <= 0.6
    assert ratio("excps", p, library="PDS") <= 0.6


def test_a8_pdse_ignores_blksize():
    p = dict(library="PDSE", module="CSQUDMSG", iterations=5000, fetchopt="PACK,PRIME")
    for bs in (1024, 4096, 6144):
        assert 0.97 <= ratio("elapsed_s", {**p, "blksize": 32760}, blksize=bs) <= 1.03


def test_a9_pds_member_count_adds_elapsed_not_much_cpu():
    p = dict(library="PDS", blksize=32760, module="IEFBR14", iterations=5000, members=4200)
    assert 1.2 <= ratio("elapsed_s", p, members=2) <= 6.0
    assert 1.0 <= ratio("cpu_s", p, members=2) <= 1.6


# -- mechanisms ------------------------------------------------------------------------------
def test_directory_reads_grow_linearly_with_members():
    reads = [pf(members=n, member_position=1.0, iterations=10)["directory_reads"] for n in (7, 70, 700, 7000)]
    per_load = [r / 11 for r in reads]            # 10 LOADs + the test program's own fetch
    # the last entry sits in block ceil(members / 7): 7 entries a block
    assert per_load == [1, 10, 100, 1000]


def test_member_position_matters_for_pds_only():
    near = pf(members=4200, member_position=0.0)["elapsed_s"]
    far = pf(members=4200, member_position=1.0)["elapsed_s"]
    assert far > 2 * near
    pdse = [pf(library="PDSE", members=4200, member_position=x)["elapsed_s"] for x in (0.0, 1.0)]
    assert pdse[0] == pytest.approx(pdse[1], rel=1e-9)


def test_pdse_member_count_barely_matters():
    small, big = (pf(library="PDSE", module="CSQLINK", members=n)["elapsed_s"] for n in (2, 100_000))
    assert big == pytest.approx(small, rel=0.01)


def test_lla_removes_directory_io():
    p = dict(members=4200, iterations=200)
    off, on = pf(**p), pf(**p, lla=True)
    assert off["directory_reads"] > 200 * 300
    assert on["directory_reads"] == 0
    assert on["excps"] < off["excps"] / 2
    assert on["elapsed_s"] < off["elapsed_s"] / 2


def test_lla_stages_primed_pdse_objects_only():
    p = dict(library="PDSE", module="ARCCTL", lla=True, iterations=100)
    noprime = pf(**p, fetchopt="NOPACK,NOPRIME")
    prime = pf(**p, fetchopt="NOPACK,PRIME")
    assert prime["excps"] < noprime["excps"] / 10      # VLF copies instead of reads


@pytest.mark.parametrize("library", ["PDS", "PDSE"])
def test_elapsed_grows_with_module_size(library):
    times = [pf(library=library, module_bytes=n, iterations=20)["elapsed_s"]
             for n in (1, 4096, 65536, 1 << 20, 16 << 20)]
    assert times == sorted(times) and times[-1] > 20 * times[0]


def test_elapsed_grows_with_members_on_a_pds():
    times = [pf(members=n, iterations=20)["elapsed_s"] for n in (1, 100, 10_000, 100_000)]
    assert times == sorted(times)


def test_native_3390_directory_search_costs_revolutions():
    cached = pf(members=4200, iterations=50)["elapsed_s"] / 50
    native = pf(members=4200, iterations=50, device="3390")["elapsed_s"] / 50
    # ~300 blocks at 45 a track: several 14.2 ms revolutions per LOAD
    assert native > 0.06 and native > 20 * cached


def test_extremes_run_fast():
    m = pf(module_bytes=16 << 20, blksize=1024, iterations=1_000_000, members=100_000)
    assert m["excps"] > 1_000_000 * 600 and m["elapsed_s"] > 0


# -- fast path == full simulation ------------------------------------------------------------------
def _job(replay, **kw):
    params = PROGRAM_FETCH_SCHEMA.resolve({"iterations": 30, **kw})
    return FetchJob(fetch_config(params), seed=7, replay=replay).run()


@pytest.mark.parametrize("kw", [dict(module="ARCCTL", blksize=6144), dict(members=4200),
                                dict(library="PDSE", module="CSQUDMSG"),
                                dict(lla=True, module="CSQUDMSG")])
def test_replaying_identical_loads_equals_simulating_each(kw):
    fast, full = _job(True, **kw), _job(False, **kw)
    assert fast.loads_simulated < full.loads_simulated == 30
    assert fast.engine.now == pytest.approx(full.engine.now, rel=1e-9)
    assert fast.excps == full.excps and fast.dir_reads == full.dir_reads
    assert fast.cpx.account.us() == pytest.approx(full.cpx.account.us(), rel=1e-9)
    assert fast.vol.stats.bytes == full.vol.stats.bytes


def test_native_sample_gives_the_mean_of_the_whole():
    n = 3 * NATIVE_SAMPLE_LOADS
    fast = _job(True, device="3390", iterations=n, module="CSQUDMSG")
    full = _job(False, device="3390", iterations=n, module="CSQUDMSG")
    assert fast.loads_simulated == NATIVE_SAMPLE_LOADS
    assert fast.engine.now == pytest.approx(full.engine.now, rel=0.03)


# -- trace --------------------------------------------------------------------------------------
def test_trace_shows_directory_and_text_reads():
    tr = Trace()
    run_experiment("program_fetch", {"members": 100, "member_position": 1.0,
                                     "module": "CSQUDMSG", "iterations": 3}, trace=tr)
    reads = tr.of_kind(["track_read"])
    starts, ends = tr.of_kind(["io_start"]), tr.of_kind(["io_end"])
    assert len(starts) == len(ends) > 0
    assert len(tr.of_kind(["seek"])) > 0                       # first LOAD stages tracks
    records = set(reads["b"].tolist())
    assert 15 in records                                        # the 15th directory block passes
    assert tr.meta["loads_traced"] >= 2
    assert (reads["t"][1:] >= reads["t"][:-1]).all()


def test_no_trace_unless_asked():
    assert run_experiment("program_fetch", {"iterations": 5}).trace is None


# -- library_space ------------------------------------------------------------------------------
def test_a5_linklib_32760_uses_fewest_tracks():
    t = {bs: run_experiment("library_space", {"blksize": bs}).metrics["tracks_used"]
         for bs in (6144, 23440, 32760)}
    assert 0.7 <= t[32760] / t[6144] <= 0.99
    assert t[32760] <= t[23440] < t[6144]


def test_library_space_with_a_member_list():
    m = run_experiment("library_space", {"contents": [8, 424, 270336], "blksize": 6144}).metrics
    assert m["tracks_used"] >= 5 and m["blocks"] > 45 and m["bytes"] > 270768


def test_bigger_blocks_load_a_big_pds_module_faster():
    times = [pf(module="ARCCTL", blksize=bs, iterations=10)["elapsed_s"]
             for bs in (1024, 4096, 6144, 12288, 23440, 32760)]
    assert times == sorted(times, reverse=True)
    assert times[0] > 4 * times[-1]


def test_cancel_stops_the_run():
    import threading
    from models.core.run import Cancelled
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        run_experiment("program_fetch", {"iterations": 100}, cancel=cancel)


def test_cli_library_space_with_member_list():
    from app.cli import main
    assert main(["run", "library_space", "--set", "contents=[8,424,270336]", "--json"]) == 0
    assert main(["run", "library_space", "--set", "contents=[0]"]) == 2


# --- issue 17: mechanisms behind the CPU and block-size findings ------------------

def _pf(**params):
    return run_experiment("program_fetch", params).metrics


def test_pdse_pack_prime_uses_a_little_more_cpu_than_pds_at_32760():
    """A: PDSE with FETCHOPT=(PACK,PRIME) is much faster than a PDS but uses a
    little more CPU: SMSPDSE's cross-memory work and Move Page per 4 KB page."""
    pds = _pf(library="PDS", blksize=32760, module="ARCCTL", iterations=1000)
    pdse = _pf(library="PDSE", blksize=32760, module="ARCCTL", iterations=1000,
               fetchopt="PACK,PRIME")
    assert pdse["elapsed_s"] < 0.6 * pds["elapsed_s"]
    assert 1.0 < pdse["cpu_s"] / pds["cpu_s"] < 1.5


BLOCK_SIZES = (4096, 6144, 8192, 16384, 23440, 27998, 32760)


def test_block_size_curve_for_a_big_module():
    """32760 is best; half-track 23440 is clearly worse (a third text block per
    track, each waiting for its control record: one more Locate Record domain);
    small blocks are much worse. 27998 ties 32760: both write two text blocks a
    track (32760 plus a track-fill block)."""
    t = {b: _pf(library="PDS", blksize=b, module="ARCCTL", iterations=200)["elapsed_s"]
         for b in BLOCK_SIZES}
    assert t[32760] == min(t.values())
    assert t[32760] < 0.93 * t[23440]
    assert t[4096] > t[6144] > t[8192] > t[23440]
    assert t[32760] == pytest.approx(t[27998], rel=0.01)
    assert 0.45 < t[32760] / t[6144] < 0.65


def test_pds_member_count_adds_a_little_cpu():
    """A9: 4,200 members add a little CPU (the search's channel program has a
    Locate Record domain per directory track crossed) and much more elapsed."""
    few = _pf(library="PDS", module="IEFBR14", iterations=5000, members=2)
    many = _pf(library="PDS", module="IEFBR14", iterations=5000, members=4200)
    assert 1.05 < many["cpu_s"] / few["cpu_s"] < 1.6
    assert many["elapsed_s"] / few["elapsed_s"] > 2


def test_channel_programs_per_load_follow_tracks_not_blocks():
    """Fetch reads a PDS member with one chained channel program per track it
    occupies (plus BLDL's): EXCPs per LOAD fall with the block size only as
    far as bigger blocks, with the track-fill block at the end of each track
    (IEBCOPY COPYMOD and the binder), pack the module onto fewer tracks. At
    6144 a 4 MB module has about 700 text blocks but under a hundred EXCPs."""
    from models.loadlib.layout import TrackWriter, write_module
    from models.loadlib.runs import MODULE_BYTES
    n = 20
    for bs in (6144, 23440, 32760):
        member = write_module(TrackWriter(0), MODULE_BYTES["ARCCTL"], bs)
        per_load = (_pf(library="PDS", blksize=bs, module="ARCCTL", iterations=n)["excps"] - 6) / n
        assert per_load == len(member.by_track()) + 1           # text tracks + BLDL
        assert member.text_blocks > 1.5 * per_load
    excps = {bs: _pf(library="PDS", blksize=bs, module="ARCCTL", iterations=n)["excps"]
             for bs in (6144, 23440, 32760)}
    assert excps[6144] > excps[23440] > excps[32760]
