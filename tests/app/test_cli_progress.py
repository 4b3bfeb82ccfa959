"""The long-run note on stderr: said for a run that will be long, not for a
run that only started slowly (a large cache warmed before the first step)."""
import io

from app import cli_common


def _run(monkeypatch, setup_s: float, step_s: float, steps: int = 50) -> str:
    clock = [0.0]
    monkeypatch.setattr(cli_common.time, "monotonic", lambda: clock[0])
    out = io.StringIO()
    progress = cli_common.Progress("run custom", out)
    clock[0] += setup_s
    for i in range(1, steps + 1):
        clock[0] += step_s
        progress(i / steps)
    return out.getvalue()


def test_a_slow_start_is_not_taken_for_a_long_run(monkeypatch):
    assert _run(monkeypatch, setup_s=20.0, step_s=0.2) == ""      # 30 s in all


def test_a_long_run_is_announced_once(monkeypatch):
    text = _run(monkeypatch, setup_s=0.0, step_s=10.0)           # 500 s
    assert text.count("will take about") == 1 and "8 min" in text
