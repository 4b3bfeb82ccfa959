"""A control unit's read hit ratio counts each record's hit with its request."""
import json

from app.cli import main


def test_no_hit_ratio_exceeds_one_when_a_short_run_ends_inside_multi_track_reads(capsys):
    """Large shop, 0.1 s: the run ends while many multi-track reads proceed.
    Their hits were counted as each track came and their requests only when
    the I/O ended, so DS8K-3 showed a read hit ratio of 1.15."""
    code = main(["run", "--scenario", "large_shop", "--set", "duration_s=0.1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    ratios = {(label, fig): value for label, figs in out["components"].items()
              for fig, value in figs.items() if fig.endswith("hit_ratio")}
    units = {label for label, _ in ratios}
    assert {"DS8K-1", "DS8K-2", "DS8K-3", "DS8K-4"} <= units
    assert all(0.0 <= v <= 1.0 for v in ratios.values()), ratios
    assert all(ratios[u, "read_hit_ratio"] > 0.5 for u in ("DS8K-3", "DS8K-4"))
