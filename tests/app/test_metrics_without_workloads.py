"""A drawing's results carry only what it measured: a drawing with devices
but no I/O workload shows no I/O response time (0 ms read as instant I/O),
one without CPUs no CPU figures; rates and utilisations of what is drawn,
true at 0, stay."""
import json
from pathlib import Path

from app.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _metrics(capsys, *args) -> dict:
    assert main(["run", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["metrics"]


def test_a_drawing_without_cpus_gives_no_cpu_figures(capsys):
    m = _metrics(capsys, "--scenario", "large_shop", "--set", "duration_s=0.01")
    assert m["io_resp_ms"] > 0 and 0 < m["read_hit_ratio"] < 1
    for key in ("tran_rate", "cpu_resp_ms", "gcp_busy_pct", "ziip_busy_pct", "ziip_share"):
        assert key not in m, key


def test_devices_drawn_without_io_work_give_no_io_response_time(capsys):
    m = _metrics(capsys, "--scenario", str(ROOT / "resources" / "whatif" / "add_ziip" / "after.json"))
    assert m["cpu_resp_ms"] > 0 and m["gcp_busy_pct"] > 0
    for key in ("io_resp_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms", "read_hit_ratio"):
        assert key not in m, key
