"""Names a person reads, for values the models keep as identifiers (Qt-free).

A choice value (``adabas_read``, ``list_prefetch``) or a report cell that is
an identifier is shown in words (“Adabas read”); everything else is left as
it is (``zHPF``, ``FICON``, ``HDD15K`` and component names are already what
the user reads).
"""
from __future__ import annotations

import math
import re
from typing import Any

from models.core.params import key_words
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


#: Why a unit of work left SRB mode (``trace.meta["causes"]``, the ``b`` of an
#: SRB→TCB row), as the z/OS books and a systems programmer write it: the
#: processor model's own titles, the ones its results table uses.
CAUSE_TITLES = SERVICE_CAUSE_TITLES


def cause_title(cause: str) -> str:
    """The title of a mode-switch cause ("adabas_call" → "Adabas call")."""
    return CAUSE_TITLES.get(cause, str(words(cause)))
