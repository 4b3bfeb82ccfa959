"""The real answers of a z/OS 2.5 RMF Distributed Data Server (../shared/rmf/dds-zos25,
see its README) read with every figure the README names, as z/OS lays them out.

The files are read where CI has them: ``../shared`` beside the repository.
"""
import re
from pathlib import Path

import pytest

from models.rmf import RmfError, read_reports
from models.rmf.drawing import build

ROOT = Path(__file__).resolve().parents[3]
DDS = ROOT.parent / "shared" / "rmf" / "dds-zos25"
if not DDS.is_dir():                     # a worktree: the shared folder of the session
    DDS = Path("/work/shared/rmf/dds-zos25")
DEVICE, CACHE, CHAN, CPU = (DDS / f"{n}.xml" for n in ("device", "cache", "chan", "cpu"))


@pytest.fixture(scope="module")
def dev_cache():
    system = read_reports([DEVICE, CACHE])
    return system, build(system)


def test_the_device_report_reads_97_volumes_4_lcu_totals_and_4_offline_devices():
    iv = read_reports([DEVICE]).interval
    assert len(iv.volumes) == 97
    assert round(sum(v.rate for v in iv.volumes.values()), 3) == 8.515
    assert {k: t.rate for k, t in iv.lcus.items()} == {
        "000E": 5.999, "000F": 2.469, "0010": 0.021, "0011": 0.021}
    assert [d for d, _, _ in iv.offline] == ["0502D", "0502E", "0502F", "05315"]
    assert "LCU" not in iv.volumes
    v = iv.volumes["Z22IPL"]
    assert (v.devnum, v.lcu, v.device_type, v.cylinders) == ("0511C", "000F", "33909", 10017)
    assert (v.rate, v.resp_ms, v.iosq_ms, v.pend_ms, v.disc_ms, v.conn_ms, v.busy_pct,
            v.pav) == (1.999, 0.391, 0.001, 0.077, 0.0, 0.313, 16.69, 3.0)
    assert iv.volumes["LL5300"].pav == 65.0             # base and 64 aliases in use
    assert iv.volumes["WORK01"].storage_group == "STGWORK"
    assert iv.volumes["CBTCAT"].db_ms == 28.5 and iv.volumes["CBTCAT"].pend_ms == 28.5
    assert sum(v.storage_group is None for v in iv.volumes.values()) == 71


def test_the_cache_report_reads_one_unit_per_ssid_with_its_figures():
    iv = read_reports([CACHE]).interval
    assert sorted(iv.cache_units) == ["5000", "5001", "5002", "5003"]
    units = iv.cache_units
    assert [units[s].cu_id for s in sorted(units)] == ["5008", "511C", "5218", "5316"]
    assert {(u.type_model, u.cache_mb, u.nvs_mb) for u in units.values()} == {
        ("2107-983", 25152.0, 2048.0)}
    a = units["5000"].activity
    assert (a.read_normal.count, a.read_normal.rate, a.read_normal.hits,
            a.read_normal.hit_ratio) == (37024, 20.6, 36761, 0.993)
    assert (a.read_seq.count, a.read_seq.rate, a.read_seq.hit_ratio) == (13092, 7.3, 1.0)
    assert (a.read_total.hit_ratio, a.pct_read) == (0.995, 83.9)
    assert a.host_read.bytes_per_req == 7000.0
    assert units["5000"].overview.io_rate == 33.2
    assert units["5001"].overview.io_rate == 67.6
    assert units["5001"].activity.write_seq.rate == 43.9
    assert units["5001"].volumes["CBTCAT"].io_rate == 48.7
    assert (units["5002"].overview.io_rate, units["5003"].overview.io_rate) == (0.6, 0.8)


def test_the_channel_report_reads_total_and_lpar_utilisation_and_the_rates():
    iv = read_reports([CHAN]).interval
    assert len(iv.channels) == 14                       # 13 channels and one IQD
    c = iv.channels["10"]
    assert (c.type, c.busy_pct, c.part_busy_pct, c.ficon_rate, c.zhpf_rate, c.read_mb_s) == \
        ("FC", 0.21, 0.01, 28.5, 2.2, 0.09)
    assert [iv.channels[k].busy_pct for k in ("10", "14", "40", "41")] == \
        [0.21, 0.21, 0.21, 0.22]
    assert iv.channels["07"].status == "Offline"
    assert {iv.channels[k].type for k in ("FC", "FD")} == {"ICP"}
    assert iv.channels["ED"].type == "IQD"


def test_the_drawing_groups_volumes_without_a_storage_group_by_their_unit(dev_cache):
    _, sc = dev_cache
    labels = {n.label for n in sc.nodes.values() if n.category == "volume"}
    assert {"SSID 5000 volumes", "SSID 5001 volumes", "STGWORK"} <= labels
    said = {a["what"]: a for a in sc.imported["assumptions"]}
    assert "one group per control unit (SSID)" in said["storage group of 71 volumes"]["value"]
    assert said["devices 0502D, 0502E, 0502F, 05315"]["value"] == "not drawn"
    units = {n.label: n.properties["cache_gb"] for n in sc.nodes.values()
             if n.kind == "cu_ds8000"}
    assert units == dict.fromkeys(("SSID 5000", "SSID 5001", "SSID 5002", "SSID 5003"),
                                  round(25152 / 1024, 6))


def test_the_readme_figures_are_under_measured(dev_cache):
    _, sc = dev_cache
    m, members = sc.imported["measured"], sc.imported["members"]
    z = members["SSID 5001 volumes"]["Z22IPL"]
    assert (z["io_rate"], z["resp_ms"], z["pav"], z["cmr_ms"], z["db_ms"]) == \
        (1.999, 0.391, 3.0, 0.0, 0.0)
    assert members["SSID 5000 volumes"]["VISHR1"]["resp_ms"] == 0.416
    assert members["STGWORK"]["WORK01"]["io_rate"] == 0.810
    hdw = members["SSID 5000 volumes"]["HDW001"]
    assert (hdw["io_rate"], hdw["resp_ms"]) == (0.995, 0.234)
    assert (m["SSID 5002"]["cache_io_rate"], m["SSID 5003"]["cache_io_rate"]) == (0.6, 0.8)
    assert m["SSID 5002"]["lcu_io_rate"] == m["SSID 5003"]["lcu_io_rate"] == 0.021
    assert round(sum(f["io_rate"] for g in members.values() for f in g.values()), 3) == 8.515
    assert members["SSID 5001 volumes"]["CBTCAT"]["cache_io_rate"] == 48.7
    u = m["SSID 5000"]
    assert (u["read_count"], u["read_hits"], u["read_hit_ratio"], u["seq_read_count"],
            u["total_read_hit_ratio"], u["pct_read"], u["cache_io_rate"],
            u["read_bytes_per_req"], u["cache_mb"], u["nvs_mb"], u["lcu_io_rate"]) == \
        (37024, 36761, 0.993, 13092, 0.995, 83.9, 33.2, 7000.0, 25152.0, 2048.0, 5.999)
    assert (m["SSID 5001"]["seq_write_rate"], m["SSID 5001"]["pct_read"]) == (43.9, 23.2)


def test_a_device_report_of_offline_devices_only_is_refused(tmp_path):
    # the recording with only its four offline devices' rows left
    rows = re.sub(r"<row refno=.*?</row>", lambda m: m.group(0) if "Offline" in m.group(0)
                  else "", DEVICE.read_text(), flags=re.S)
    f = tmp_path / "offline.xml"
    f.write_text(rows)
    with pytest.raises(RmfError, match=r"offline.xml:18: the device report .* has no volume "
                                       r"with a volume serial \(4 offline devices"):
        read_reports([f])
    with_cache = read_reports([f, CACHE])             # the cache report has activity
    with pytest.raises(RmfError, match="no volume with a volume serial"):
        build(with_cache)


def test_a_known_report_none_of_whose_rows_map_names_its_columns(tmp_path):
    f = tmp_path / "renamed.xml"
    f.write_text(DEVICE.read_text().replace("Volume Serial Number", "Volume Label"))
    with pytest.raises(RmfError) as e:
        read_reports([f])
    msg = str(e.value)
    assert "Device Activity Report" in msg and "none of its 105 rows" in msg
    assert "'Volume Label'" in msg and "'Device Number'" in msg


def test_idle_offline_and_other_chpids_are_not_drawn_and_said_so():
    sc = build(read_reports([CHAN]))
    groups = [n for n in sc.nodes.values() if n.category == "channel"]
    assert [(n.label, n.properties["names"]) for n in groups] == [("FICON CHPIDs",
                                                                   "10,14,40,41")]
    said = {a["what"]: a["why"] for a in sc.imported["assumptions"]}
    assert said["CHPIDs 07"] == "offline in the interval"
    assert said["CHPIDs 08, 11, 12"].startswith("idle: no FICON or zHPF operation")
    assert said["CHPIDs 00, 01, 02, ED, FC, FD"].startswith("not FICON")
    chps = sc.imported["members"]["FICON CHPIDs"]
    assert {c: (f["total_utilization_pct"], f["utilization_pct"]) for c, f in chps.items()} == {
        "10": (0.21, 0.01), "14": (0.21, 0.01), "40": (0.21, 0.01), "41": (0.22, 0.01)}
    assert sc.imported["measured"]["FICON CHPIDs"]["ficon_rate"] == 4 * 28.5


def test_joined_reports_read_the_same_in_two_passes():
    """A large input's second pass keeps the joined intervals' figures too."""
    four = [DEVICE, CACHE, CHAN, CPU]
    whole, passes = read_reports(four, join=True), read_reports(four, join=True, large_bytes=1)
    assert passes.interval == whole.interval
    assert (len(passes.interval.channels), len(passes.interval.engines)) == (14, 2)
    assert passes.reason == whole.reason and "joined with the CHAN report" in passes.reason


def test_what_was_read_stays_one_short_line_per_report_on_a_large_system():
    from models.rmf.readout import read_lines
    system = read_reports([CACHE])
    units = system.interval.cache_units
    for n in range(30):                   # a shop with 34 control units
        units[f"6{n:03d}"] = units["5000"]
    (line,) = read_lines(system)
    assert line.startswith("CACHE (cache.xml:18): 34 control units: SSID 5000 (CU-ID 5008")
    assert line.endswith("and 28 more") and len(line) < 800


def test_cache_units_without_an_ssid_are_refused_not_merged(tmp_path):
    """Before: the four SSIDs merged into one unit '?' with an assumed cache."""
    f = tmp_path / "nossid.xml"
    f.write_text(CACHE.read_text().replace("Subsystem ID", "Unit Name"))
    with pytest.raises(RmfError) as e:
        read_reports([f])
    msg = str(e.value)
    assert msg.startswith(f"{f}:79: Cache Subsystem Activity Report: 4 control units' "
                          "segments have no variable zPerfLab knows as the Subsystem ID")
    assert "'Unit Name'" in msg and "'Physical CU-ID'" in msg


def test_the_cache_report_alone_keeps_each_volumes_cache_figures():
    """README: SSID 5001's busiest volume CBTCAT (05115) 48.7/s, carried with
    the cache report alone too (there was no member figure without a device
    report), as read and out of the comparison."""
    sc = build(read_reports([CACHE]))
    members = sc.imported["members"]
    cbtcat = members["SSID 5001 volumes"]["CBTCAT"]
    assert (cbtcat["cache_io_rate"], cbtcat["cache_read_hit_rate"], cbtcat["dfw_rate"]) == \
        (48.7, 2.6, 46.1)
    assert len(members["SSID 5000 volumes"]) == 42
    assert "io_rate" not in cbtcat       # this system's rate is the device report's
