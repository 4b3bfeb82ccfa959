"""The built-in example ``rmf_sysa`` (the two RMF lessons open it) is the
import of the sample reports, as tests/data/rmf/make_example.py writes it."""
import importlib.util
from pathlib import Path

from app import scenario_io
from models.drawing import documents

MAKER = Path(__file__).resolve().parents[1] / "data" / "rmf" / "make_example.py"


def _maker():
    spec = importlib.util.spec_from_file_location("make_example", MAKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_example_is_the_import_of_the_sample(monkeypatch):
    maker = _maker()
    monkeypatch.chdir(maker.ROOT)
    built = documents.to_document(maker.build())
    shipped = documents.to_document(scenario_io.load_case("rmf_sysa"))
    assert shipped == built       # else: python tests/data/rmf/make_example.py
    assert "rmf_sysa" in scenario_io.example_names()


def test_the_example_states_its_classroom_cache_and_carries_the_measurements():
    sc = scenario_io.load_case("rmf_sysa")
    cache = [a for a in sc.imported["assumptions"] if a["what"].startswith("cache of SSID")]
    assert [a["value"] for a in cache] == ["256 MB", "256 MB"]
    assert all(a["line"] and "65536 MB" in a["why"] for a in cache)
    units = {n.label: n.properties["cache_gb"] for n in sc.nodes.values()
             if n.kind == "cu_ds8000"}
    assert units == {"SSID 0006": 0.25, "SSID 0007": 0.25}
    assert sc.imported["measured"]["SGDB2"]["io_rate"] > 0
