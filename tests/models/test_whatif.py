"""The six built-in what-if studies: both sides run on the model path and show the
expected direction, with a size."""
import pytest

from models import experiments

from models.studies import whatif


def _pair(name):
    before, after = whatif.study(name).documents()
    return (experiments.run_experiment("custom", scenario=before),
            experiments.run_experiment("custom", scenario=after))


def test_six_studies_each_with_a_paragraph_and_two_drawings():
    names = whatif.names()
    assert names[:6] == list(whatif.ORDER)
    for st in whatif.studies():
        assert len(st.about.split()) > 40, st.name          # one real paragraph
        assert st.expect in ("lower", "higher")
        assert st.metric in experiments.metric_names("custom")
        before, after = st.load()
        assert before.issues() == [] and after.issues() == []
        assert before.to_dict() != after.to_dict()


def test_hdd_to_ssd_takes_the_seek_out_of_every_miss():
    b, a = _pair("hdd_to_ssd")
    assert b.metrics["read_hit_ratio"] < 0.3                 # a random-read volume
    assert a.metrics["read_hit_ratio"] == pytest.approx(b.metrics["read_hit_ratio"], abs=0.01)
    assert a.metrics["io_resp_ms"] < 0.25 * b.metrics["io_resp_ms"]
    assert a.metrics["disc_ms"] < 0.2 * b.metrics["disc_ms"]


def test_ficon_to_zhpf_cuts_the_channel_work_of_small_blocks():
    b, a = _pair("ficon_to_zhpf")
    assert b.metrics["channel_util_pct"] > 60
    assert a.metrics["channel_util_pct"] < 0.3 * b.metrics["channel_util_pct"]
    assert a.metrics["pend_ms"] < b.metrics["pend_ms"] - 0.04
    assert a.metrics["conn_ms"] < b.metrics["conn_ms"]


def test_a_second_channel_halves_utilisation_and_the_pend_wait():
    b, a = _pair("one_to_two_channels")
    assert b.metrics["channel_util_pct"] > 65
    assert a.metrics["channel_util_pct"] == pytest.approx(b.metrics["channel_util_pct"] / 2,
                                                          rel=0.05)
    wait_b, wait_a = b.metrics["pend_ms"] - 0.12, a.metrics["pend_ms"] - 0.12
    assert wait_a < 0.25 * wait_b
    assert a.metrics["conn_ms"] == pytest.approx(b.metrics["conn_ms"], rel=0.01)


def test_hyperpav_aliases_empty_iosq():
    b, a = _pair("hyperpav_aliases")
    assert b.metrics["iosq_ms"] > 0.5
    assert a.metrics["iosq_ms"] < 0.05
    # The channel is idle (0.4 %): PEND stays at the 0.12 ms start, aliases or not.
    assert a.metrics["pend_ms"] < 0.125
    assert a.metrics["io_resp_ms"] < 0.7 * b.metrics["io_resp_ms"]


def test_striping_over_four_volumes_spreads_the_hot_spot():
    b, a = _pair("stripe_four_volumes")
    assert a.metrics["io_resp_ms"] < 0.5 * b.metrics["io_resp_ms"]
    assert a.metrics["iosq_ms"] < 0.2 * b.metrics["iosq_ms"]
    busy = [a.components[f"CLMV0{i}"]["io_rate"] for i in range(1, 5)]
    assert min(busy) > 0.8 * max(busy)                      # an even spread
    assert b.components["CLMV04"]["io_rate"] == 0


def test_a_zip_under_eligible_work_unloads_the_general_cps():
    b, a = _pair("add_ziip")
    assert b.metrics["ziip_busy_pct"] == 0
    assert a.metrics["ziip_busy_pct"] > 30
    assert a.metrics["gcp_busy_pct"] < 0.75 * b.metrics["gcp_busy_pct"]
    assert a.metrics["cpu_resp_ms"] < 0.8 * b.metrics["cpu_resp_ms"]
