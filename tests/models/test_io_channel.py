"""Channel programs: FICON command mode vs zHPF transport mode, cache resident."""
import pytest

from models.engine import Engine
from models.io import channel as ch
from models.io.subsystem import IOSubsystem, pages_to_groups, range_to_groups


def _io(groups, protocol, channel="FEx8S", warm=True):
    eng = Engine(1)
    sub = IOSubsystem(eng, device="HDD15K", protocol=protocol, channel=channel, seq_detect=False)
    if warm:
        for t, m in groups:
            sub.cache.warm(t, sub.full_mask)
    box = []

    def proc():
        box.append((yield from sub.read(groups)))

    eng.process(proc())
    eng.run()
    return box[0], sub


DISCONTIG = pages_to_groups([1000 + 17 * i for i in range(32)])
CONTIG = range_to_groups(1200, 32)


def test_ficon_discontiguous_pays_one_domain_per_page():
    r1, _ = _io(pages_to_groups([1000]), "FICON")
    r32, _ = _io(DISCONTIG, "FICON")
    per_domain = (r32.total - r1.total) / 31
    assert per_domain == pytest.approx(ch.LR_DOMAIN_S + 2 * ch.CCW_S + ch.SLOT_S
                                       + 4096 / ch.LINK_BYTES_S["FEx8S"], rel=1e-6)


def test_published_cache_resident_times():
    """REDP-4862: 0.64 ms (FICON contiguous), 2.4 ms (FICON list), 0.983 ms (zHPF list), ±20 %."""
    assert _io(CONTIG, "FICON")[0].total * 1e3 == pytest.approx(0.64, rel=0.2)
    assert _io(DISCONTIG, "FICON")[0].total * 1e3 == pytest.approx(2.4, rel=0.2)
    assert _io(DISCONTIG, "zHPF")[0].total * 1e3 == pytest.approx(0.983, rel=0.2)


def test_zhpf_makes_disorganization_cheap():
    f = _io(DISCONTIG, "FICON")[0].total / _io(CONTIG, "FICON")[0].total
    z = _io(DISCONTIG, "zHPF")[0].total / _io(CONTIG, "zHPF")[0].total
    assert f > 3 and z < 1.8


def test_fex8_splits_32_page_list_but_not_contiguous_read():
    r8, _ = _io(DISCONTIG, "zHPF", "FEx8")
    r8s, _ = _io(DISCONTIG, "zHPF", "FEx8S")
    assert (r8.ios, r8s.ios) == (2, 1)
    assert r8.total > r8s.total
    assert _io(CONTIG, "zHPF", "FEx8")[0].ios == 1


def test_split_addresses_keeps_every_record():
    parts = ch.split_addresses(DISCONTIG, 22)
    assert [sum(ch.runs(m) for _, m in p) for p in parts] == [22, 10]
    assert sum(m.bit_count() for p in parts for _, m in p) == 32
    mixed = [(5, 0b101010101010)]       # six runs on one track
    parts = ch.split_addresses(mixed, 4)
    assert [p[0][1] for p in parts] == [0b000010101010, 0b101000000000]
