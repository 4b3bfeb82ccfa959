"""Property tests (hypothesis): Param.coerce and the scenario loader never
fail with anything but their one-line error, whatever they are given.

Derandomized (the same examples every run, no example database), so the
suite stays reproducible; ``--hypothesis-seed`` explores further by hand."""
import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import experiments

from models.drawing import components, documents
from models.drawing.documents import InputError, ScenarioFileError, from_document
from models.core.params import Param, ParamError

SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 300)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
           | st.sampled_from(["NaN", "Infinity", "1e400", "9" * 400, "\ud800", "[" * 2000,
                              '{"read": NaN}', "SYS1.LINKLIB", "zHPF", "3390"]))
JSONISH = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
PARAMS = [p for e in experiments.registry().values() for p in e.schema.params] + [
    Param("t", "text", ""), Param("f", "float", 1.0), Param("i", "int", 1),
    Param("o", "float", None, optional=True, min=0, max=1)]


def _one_line(text: str) -> None:
    assert "\n" not in text and len(text) < 600
    assert not any(ord(c) < 32 for c in text), repr(text)


@settings(max_examples=600, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PARAMS), JSONISH)
def test_coerce_gives_a_checked_value_or_one_line(param, value):
    try:
        out = param.coerce(value)
    except ParamError as exc:
        _one_line(str(exc))
        assert param.name in str(exc)
        return
    if out is None:
        assert param.optional
    elif param.kind == "float":
        assert isinstance(out, float) and math.isfinite(out)
        assert (param.min is None or out >= param.min) and (param.max is None or out <= param.max)
    elif param.kind == "int":
        assert isinstance(out, int) and not isinstance(out, bool)
        assert (param.min is None or out >= param.min) and (param.max is None or out <= param.max)
    elif param.kind == "mix":
        assert out and all(math.isfinite(v) and 0 <= v <= 100 for v in out.values())
        assert sum(out.values()) > 0
    elif param.kind == "choice":
        assert out in param.choices
    json.dumps(out)                                   # storable in the history


def _node(kind=st.sampled_from(list(components.KINDS)) | st.text(max_size=5)):
    return st.fixed_dictionaries(
        {"id": st.text(min_size=1, max_size=6) | SCALARS, "kind": kind,
         "label": st.text(min_size=1, max_size=10) | SCALARS},
        optional={"x": SCALARS, "y": SCALARS,
                  "properties": st.dictionaries(st.sampled_from(
                      ["pages", "aliases", "cache_gb", "speed", "mix", "contents", "channel"]),
                      JSONISH, max_size=3) | SCALARS})


DOCS = st.fixed_dictionaries(
    {"format": st.just("zperflab-scenario") | SCALARS, "version": st.sampled_from([1, 2]) | SCALARS},
    optional={"experiment": st.sampled_from(list(experiments.registry())) | SCALARS,
              "title": st.text(max_size=20) | SCALARS,
              "nodes": st.lists(_node(), max_size=5) | SCALARS,
              "links": st.lists(st.fixed_dictionaries({"id": st.text(max_size=4) | SCALARS,
                                                       "source": st.sampled_from(["n1", "n2"]),
                                                       "target": st.sampled_from(["n1", "n3"])}),
                                max_size=3) | SCALARS})


@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(DOCS)
def test_loader_builds_a_scenario_or_says_why_in_one_line(doc):
    try:
        sc = from_document(doc, "fuzz.zpl.json")
    except ScenarioFileError as exc:
        _one_line(str(exc))
        return
    sc.issues()
    json.dumps(documents.to_document(sc))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=60) | st.sampled_from(["[" * 5000, '{"a": NaN}', "1e400", '"\\ud800"']))
def test_strict_json_parse_never_fails_otherwise(text):
    try:
        documents.parse_json(text)
    except InputError as exc:
        _one_line(str(exc))
