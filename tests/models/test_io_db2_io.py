"""The db2_io experiment end to end: metrics, parts, and shape over its range."""
import pytest

from models.experiments import run_experiment
from models.core.params import ParamError


def test_metrics_and_parts_add_up():
    m = run_experiment("db2_io", {"cache": "resident"}).metrics
    assert set(m) >= {"io_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms"}
    assert m["io_ms"] == pytest.approx(m["iosq_ms"] + m["pend_ms"] + m["disc_ms"] + m["conn_ms"])
    assert m["disc_ms"] == 0                      # cache resident: nothing to wait for


@pytest.mark.parametrize("protocol", ["FICON", "zHPF"])
def test_more_pages_take_longer(protocol):
    times = [run_experiment("db2_io", {"pages": n, "protocol": protocol}).metrics["io_ms"]
             for n in (1, 8, 32, 64)]
    assert times == sorted(times) and times[0] < times[-1]


def test_cold_cache_disc_dominates_and_ssd_is_faster():
    hdd = run_experiment("db2_io", {"cache": "cold", "device": "HDD10K", "pages": 4}).metrics
    ssd = run_experiment("db2_io", {"cache": "cold", "device": "SSD", "pages": 4}).metrics
    assert hdd["disc_ms"] > hdd["conn_ms"] and ssd["io_ms"] < hdd["io_ms"] / 3


def test_stride_too_large_is_one_clear_error():
    with pytest.raises(ParamError, match="stride"):
        run_experiment("db2_io", {"stride": 100_000, "table_pages": 1000})
