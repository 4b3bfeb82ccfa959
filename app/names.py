"""Names a person reads, for values the models keep as identifiers (Qt-free).

A choice value (``adabas_read``, ``list_prefetch``) or a report cell that is
an identifier is shown in words (“Adabas read”); everything else is left as
it is (``zHPF``, ``FICON``, ``HDD15K`` and component names are already what
the user reads).
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from models import experiments
from models.core.params import ParamError, key_words
from models.cpu.services import CAUSE_TITLES as SERVICE_CAUSE_TITLES

_IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def format_number(v: Any) -> str:
    """A figure as the results table writes it: 4 significant figures,
    thousands separated, and a tiny value as a decimal (0.00001731), never
    in exponent form."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if v == 0:
        return "0"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) < 1e-4:
        digits = 3 - math.floor(math.log10(abs(v)))
        return f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return f"{v:.4g}"


def file_stem(title: str, fallback: str = "zperflab") -> str:
    """A file name from a case's title: "HDD → SSD, before: random reads"
    → "HDD-to-SSD-before-random-reads" (letters, digits, '-' and '_' only)."""
    text = str(title or "").replace("→", " to ").replace("&", " and ")
    stem = re.sub(r"[^A-Za-z0-9_]+", "-", text).strip("-")
    return stem[:80].rstrip("-") or fallback


def format_value(value: Any) -> str:
    """How a parameter value is written in an edit field."""
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def format_mix(value: dict) -> str:
    """A mix as a person writes it: ``Read 69 %, Read update 10 %``."""
    def label(k) -> str:
        text = str(words(k))
        return text[:1].upper() + text[1:]
    return ", ".join(f"{label(k)} {format_value(v)} %" for k, v in value.items())


def param_value_text(param, value: Any) -> str:
    """A parameter's value as the inspector shows it: a choice in words, a
    mix as "Read 69 %, Read update 10 %", a switch as yes or no, an unset optional value as "not
    set", then the unit ("32 pages")."""
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if param.kind == "mix" and isinstance(value, dict):
        return format_mix(value)
    text = str(words(value)) if param.kind == "choice" else format_value(value)
    return f"{text} {unit_for(value, param.unit)}" if param.unit else text


#: Units written in the singular after a value of one ("1 page").
_SINGULAR = {"pages": "page", "tracks": "track", "bytes": "byte", "records": "record"}


def unit_for(value: Any, unit: str) -> str:
    """``unit`` as it reads after ``value``: "page" after 1, else as declared."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 1:
        return _SINGULAR.get(unit, unit)
    return unit


def words(value: Any) -> Any:
    """``value`` in words if it is a snake_case identifier, else unchanged."""
    if isinstance(value, str) and _IDENTIFIER.fullmatch(value):
        text = value.replace("_", " ")
        return text[0].upper() + text[1:]
    return value


def param_title(experiment, key: str) -> str:
    """The title of parameter ``key`` of ``experiment`` (the key in words if unknown)."""
    try:
        return experiment.schema[key].title
    except (KeyError, AttributeError, ValueError):
        return str(words(key))


def metric_title(experiment, key: str) -> tuple[str, str]:
    """(title, unit) of metric ``key`` of ``experiment``."""
    for m in getattr(experiment, "metrics", ()):
        if m.name == key:
            return m.title, m.unit or ""
    return key_words(key), ""


def experiment_of(name: str):
    """The registered experiment ``name``, or ``None`` (a stored run of an
    experiment this build no longer has)."""
    try:
        return experiments.get(name)
    except ParamError:
        return None


def experiment_title(name: str) -> str:
    """The title the app shows for experiment ``name`` ("db2_io" → "One DB2
    I/O"); the name in words for one this build no longer has."""
    exp = experiment_of(name)
    return exp.title if exp is not None else str(words(name))


def metrics_text(experiment, metrics: dict, limit: int | None = None, sep: str = ", ") -> str:
    """``Title value unit`` of the first ``limit`` of ``metrics`` (all if
    ``None``), as the History tab and ``zperflab history`` list a run.

    Parameters
    ----------
    experiment : Experiment or None
        Whose metric titles to use (``None``: the keys in words).
    metrics : dict
        Metric key → value, in the run's order.
    """
    out = []
    for k, v in list(metrics.items())[:limit]:
        title, unit = metric_title(experiment, k)
        out.append(f"{title} {format_number(v)}{' ' + unit if unit else ''}")
    return sep.join(out)


#: Why a unit of work left SRB mode (``trace.meta["causes"]``, the ``b`` of an
#: SRB→TCB row), as the z/OS books and a systems programmer write it: the
#: processor model's own titles, the ones its results table uses.
CAUSE_TITLES = SERVICE_CAUSE_TITLES


def cause_title(cause: str) -> str:
    """The title of a mode-switch cause ("adabas_call" → "Adabas call")."""
    return CAUSE_TITLES.get(cause, str(words(cause)))
