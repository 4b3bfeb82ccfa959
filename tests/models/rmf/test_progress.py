"""Reading a large listing tells its progress over both passes and stops at once on cancel."""
import importlib.util
from pathlib import Path

import pytest

from models.core.run import Cancelled
from models.rmf import read_reports, xmlmap

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "rmf"


def _bench():
    spec = importlib.util.spec_from_file_location("rmf_import_scale",
                                                  ROOT / "bench" / "rmf_import_scale.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def listing(tmp_path_factory):
    """About 3 MB of Postprocessor listing (15-minute intervals of 200 volumes)."""
    path = tmp_path_factory.mktemp("rmf") / "listing.txt"
    _bench().write_listing(path, 3.0, 200)
    return path


def test_progress_rises_over_both_passes_of_a_large_input_to_the_end(listing):
    seen = []
    system = read_reports([listing], large_bytes=1_000_000, progress=seen.append)
    assert system.interval.volumes
    assert len(seen) >= 6 and seen == sorted(seen) and seen[-1] == 1.0
    assert any(0.4 <= f <= 0.6 for f in seen)            # the first pass ends halfway


def test_cancel_stops_the_reading_at_once(listing):
    seen = []
    with pytest.raises(Cancelled):
        read_reports([listing], large_bytes=1_000_000, progress=seen.append,
                     cancel=lambda: bool(seen))
    assert len(seen) == 1 and seen[0] < 0.25              # one step of lines, not the file


def test_cancel_stops_an_xml_file_too(monkeypatch):
    """The XML is watched per MB read (here per 2 KB; the parser reads 64 KB at a time)."""
    monkeypatch.setattr(xmlmap._Watched, "STEP", 2048)
    seen = []
    with pytest.raises(Cancelled):
        read_reports([DATA / "sysa-many-intervals.xml"], progress=seen.append,
                     cancel=lambda: bool(seen))
    assert len(seen) == 1
