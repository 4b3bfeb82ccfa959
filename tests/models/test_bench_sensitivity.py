"""bench/sensitivity.py: --factor sweeps a constant down and up by each factor,
and the bench prints, per target, how far its model value moved and whether
its verdict flipped (a run on one cheap constant and one target; no timing)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from models.io import channel
from models.loadlib import volume as loadlib_volume

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import sensitivity as bench
finally:
    sys.path.pop(0)


def test_help_lists_the_factor_option(capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--factor" in out and "0.1,0.3" in out


def test_a_tiny_run_prints_each_targets_move_at_each_factor(capsys):
    assert bench.main(["--only", "LR_DOMAIN_S", "--targets", "E1.io.contig.ficon",
                       "--factor", "0.1,0.3"]) == 0
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if line.strip().startswith("target"))
    assert re.search(r"-30 % .*-10 % .*\+10 % .*\+30 %", head)
    row = next(line for line in out.splitlines() if line.strip().startswith("E1.io.contig.ficon"))
    moves = [float(m) for m in re.findall(r"([+-]\d+\.\d) %", row)]
    assert len(moves) == 4, row
    down30, down10, up10, up30 = moves
    # A shorter Locate Record domain makes the FICON I/O faster, a longer one
    # slower, and three times the change moves it about three times as far.
    assert down30 < down10 < 0 < up10 < up30
    assert 2.0 < up30 / up10 < 4.0
    assert "flips at ±10%: 0" in out
    # The constant is put back, in its module and in the module that imports it.
    assert channel.LR_DOMAIN_S == loadlib_volume.LR_DOMAIN_S == 50e-6


def test_an_integer_that_rounds_back_is_not_run(capsys):
    bench.main(["--only", "SEQ_TRIGGER_TRACKS", "--targets", "E1.io.contig.ficon",
                "--factor", "0.1"])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("E1.io.contig.ficon"))
    assert row.split()[-2:] == ["=", "="]
    assert "rounds back" in out


def test_a_value_picked_at_import_is_refused_with_the_reason(capsys):
    assert bench.main(["--list", "--only", "PROFILES[3390]"]) == 0
    out = capsys.readouterr().out
    assert "REFUSED  models.io.devices.PROFILES[3390].avg_seek_ms" in out
    assert "models.spool.volume picks PROFILES[3390] at import" in out


def test_a_factor_outside_0_and_1_is_one_clear_message(capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--factor", "1.5"])
    assert exc.value.code == 2
    assert "between 0 and 1" in capsys.readouterr().err


def test_a_constant_another_module_imports_is_moved_there_too(capsys):
    # Program fetch reads LR_DOMAIN_S through its own import of it: the bench
    # patches that copy too, so the fetch target moves with the constant.
    bench.main(["--only", "LR_DOMAIN_S", "--targets", "A1.iefbr14.elapsed", "--factor", "0.3"])
    out = capsys.readouterr().out
    assert "also set in models.loadlib.volume" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("A1.iefbr14.elapsed"))
    down, up = (float(m) for m in re.findall(r"([+-]\d+\.\d) %", row))
    assert down < -1.0 and up > 1.0
