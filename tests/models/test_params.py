"""Parameter schemas: coercion, ranges, clear errors."""
import pytest

from models import experiments
from models.core.params import Param, ParamError, parse_cli_value


def test_every_experiment_resolves_its_defaults():
    for name, exp in experiments.registry().items():
        params = exp.resolve({})
        assert set(params) == set(exp.schema.names()), name
        for p in exp.schema.params:
            if p.default is not None:
                assert p.coerce(p.default) == params[p.name]


def test_out_of_range_names_key_value_and_range():
    with pytest.raises(ParamError) as err:
        experiments.get("program_fetch").resolve({"blksize": 40000})
    msg = str(err.value)
    assert "blksize" in msg and "40000" in msg and "256–32760" in msg
    assert "\n" not in msg


def test_unknown_key_and_choice_are_refused():
    with pytest.raises(ParamError, match="unknown parameter 'nope'"):
        experiments.get("db2_io").resolve({"nope": 1})
    with pytest.raises(ParamError, match="FICON, zHPF"):
        experiments.get("db2_io").resolve({"protocol": "ESCON"})


def test_values_are_not_silently_converted():
    p = Param("n", "int", 1, min=1, max=10)
    with pytest.raises(ParamError):
        p.coerce(2.5)
    with pytest.raises(ParamError):
        p.coerce(True)
    assert p.coerce("7") == 7
    assert Param("c", "choice", "zHPF", choices=("FICON", "zHPF")).coerce("zhpf") == "zHPF"
    assert Param("v", "choice", 10, choices=(9, 10)).coerce("9") == 9
    # --set device=3390 arrives as the integer 3390
    assert experiments.get("program_fetch").resolve({"device": 3390})["device"] == "3390"
    with pytest.raises(ParamError):
        Param("c", "choice", "a", choices=("a", "1")).coerce(True)


def test_mix_and_sizes():
    mix = experiments.get("vsam_rls").schema["mix"]
    assert mix.coerce('{"read": 100}') == {"read": 100.0}
    with pytest.raises(ParamError, match="unknown request type"):
        mix.coerce({"scan": 5})
    sizes = experiments.get("library_space").schema["contents"]
    assert sizes.coerce("SYS1.LINKLIB") == "SYS1.LINKLIB"
    assert sizes.coerce([100, 2000]) == [100, 2000]
    with pytest.raises(ParamError):
        sizes.coerce([100, -1])


def test_cli_values_parse_as_json_else_string():
    assert parse_cli_value("4") == 4
    assert parse_cli_value('{"read":100}') == {"read": 100}
    assert parse_cli_value("zHPF") == "zHPF"
