"""A drawing's results carry only what it measured: drawn devices that no
I/O workload uses show an I/O rate and utilisations of 0 (true) but no I/O
response time (0 ms would read as instant I/O); drawn CPUs that no CPU
workload uses are 0 % busy with no transaction response time."""
import json

from app.cli import main
from models import experiments
from models.drawing import documents


def test_cpus_drawn_without_cpu_work_are_idle_with_no_transaction_response(capsys):
    assert main(["run", "--scenario", "large_shop", "--set", "duration_s=0.01", "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["metrics"]
    assert m["io_resp_ms"] > 0 and 0 < m["read_hit_ratio"] < 1
    assert m["tran_rate"] == 0 and m["gcp_busy_pct"] == 0      # the drawn CPs, idle
    assert "cpu_resp_ms" not in m and "ziip_share" not in m
    assert "ziip_busy_pct" not in m                            # no zIIP is drawn


def test_devices_drawn_without_io_work_are_idle_with_no_io_response_time():
    sc = documents.load_case("custom")
    io = next(n for n in sc.nodes.values() if n.label == "OLTP I/O")
    sc.remove_node(io.id)
    assert any(n.kind.startswith("vol") for n in sc.nodes.values())     # the devices stay
    m = experiments.run_experiment("custom", {}, scenario=sc).metrics
    assert m["cpu_resp_ms"] > 0 and m["gcp_busy_pct"] > 0
    assert m["io_rate"] == 0 and m["channel_util_pct"] == 0 and m["volume_busy_pct"] == 0
    for key in ("io_resp_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms", "read_hit_ratio"):
        assert key not in m, key
