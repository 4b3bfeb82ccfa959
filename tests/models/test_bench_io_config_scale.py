"""bench/io_config_scale.py: its options size the configuration, and it prints
the figures issue 29 asks for (a run, not a timing: the figures are not checked)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import io_config_scale as bench
finally:
    sys.path.pop(0)


def test_the_options_size_the_shop_and_the_figures_are_printed(capsys):
    assert bench.main(["--volumes", "40", "--channels", "3", "--control-units", "3",
                       "--rate", "4000", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("40 volumes, 3 channels, 3 control units, 4,000 I/O/s for 0.05 simulated s")
    for figure in ("simulated s per wall s", "us CPU per I/O", "events per I/O", "peak RSS"):
        assert figure in out
    assert "DS8K-3:" in out and "CHPID 42:" in out and "PRD039:" in out
    # Which engine ran, and a machine-speed peer measured in the same run.
    from models.engine import COMPILED
    assert ("engine compiled (Cython)" if COMPILED else "engine interpreted") in out
    assert "machine peer: a bare heapq push+pop takes" in out
    # The bench's own (interpreted) load generator apart from the model.
    assert "of which the bench's own load generator" in out and "; the model " in out


def test_the_positional_arguments_keep_their_meaning(capsys):
    bench.main(["0.02", "3000"])
    assert capsys.readouterr().out.startswith(
        "64 volumes, 8 channels, 2 control units, 3,000 I/O/s for 0.02 simulated s")


def test_the_reference_shop_is_issue_29s():
    cfg = bench.configuration(*bench.REFERENCE[:3])
    assert (len(cfg.volumes), len(cfg.channels), len(cfg.control_units)) == (1000, 16, 4)
    assert bench.REFERENCE[3] == 200_000
    # Every unit has its share of the volumes, every path reaches every unit.
    assert {v.control_unit for v in cfg.volumes} == {c.name for c in cfg.control_units}
    assert all(len(p.control_units) == 4 for p in cfg.channels)


def test_the_generator_timed_apart_starts_what_the_run_starts():
    """The bench's load generator, timed apart from the model, is the run's:
    the same requests on the same volumes, so the CPU it takes alone is the
    share it had in the run."""
    sim_s, rate = 0.05, 4000.0
    eng, system = bench.build(sim_s, rate, seed=5)
    eng.run()
    in_run = [v.requests for v in system.volumes()]
    apart = [0] * len(in_run)
    pages = [0]

    class Counting:
        rpt = 12

        def __init__(self, number):
            self.number = number

        def start(self, groups, write, list_prefetch):
            apart[self.number] += 1
            pages[0] += sum(bin(m).count("1") for _, m in groups)

        def start_track(self, track, mask, write):
            apart[self.number] += 1
            pages[0] += 1

    assert bench.generator_us(int(sim_s * rate), rate, len(in_run), seed=5,
                              volume=Counting) > 0
    assert apart == in_run and sum(apart) == 200
    assert pages[0] == sum(v.totals.pages for v in system.volumes())


def test_a_bad_size_is_one_clear_message(capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--volumes", "0"])
    assert exc.value.code == 2
    assert "must be positive" in capsys.readouterr().err


@pytest.mark.parametrize("kind", sorted(bench.KINDS))
def test_a_kind_makes_every_io_of_that_kind(kind):
    """``--kind``: every I/O is a hit, a miss, a 32-page sequential read or a
    write, so the bench prints what one of them costs."""
    eng, system = bench.build(0.05, 4000.0, kind=kind)
    eng.run()
    vols = system.volumes()
    ios = sum(v.completed for v in vols)
    stats = [v.stats for v in vols]
    writes = sum(s.write_requests for s in stats)
    misses = sum(s.misses for s in stats)
    pages = sum(v.totals.pages for v in vols)
    assert ios > 150
    if kind == "write":
        assert writes == pages and misses == 0
    else:
        assert writes == 0
        if kind == "hit":
            assert misses == 0 and pages == ios
        elif kind == "miss":            # anywhere on the volume: a few land on hot tracks
            assert misses >= 0.95 * ios and pages == ios
        else:
            assert pages == 32 * ios
