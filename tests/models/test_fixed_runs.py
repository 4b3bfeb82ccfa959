"""Every figure stays what it was before the speed work (issue 29).

``tests/models/data/fixed_runs.json`` was written by ``tests/models/fixed_runs.py``
on the code before the engine and the I/O path were made faster: each
built-in case study and a few other parameter points, at fixed seeds.
Making the model faster must not change what it computes, so today's code
must give the same figures, metric by metric.

Tolerance: the speed work keeps every random draw in the same order and
every event at the same simulated time, so the figures agree to the last
bits (a relative 1e-9 allows only for a sum taken in another order). A
speed change that must alter the random-number consumption belongs in
``TOLERANCE`` with its reason, never in a rewrite of the stored file.
A figure that is new (a new report row or table) is not a change of an
old one and passes; a figure that is gone fails. Work that is meant to
change what the model computes rewrites the file
(``python -m tests.models.fixed_runs --write``) and says why in its commit.
"""
from __future__ import annotations

import json
import math

import pytest

from tests.models import fixed_runs

#: case -> relative tolerance, where a change had to move random draws (none).
TOLERANCE: dict[str, float] = {}
EXACT = 1e-9

BEFORE = json.loads(fixed_runs.DATA.read_text())


def _differences(name: str, now: dict) -> list[str]:
    tol = TOLERANCE.get(name, EXACT)
    old = {k: v for k, v in BEFORE.items() if k.split("/", 1)[0] == name}
    out = [f"{k}: gone (was {old[k]!r})" for k in sorted(old.keys() - now.keys())]
    for k in sorted(old.keys() & now.keys()):
        a, b = old[k], now[k]
        if isinstance(a, str) or isinstance(b, str):
            same = a == b
        else:
            same = math.isclose(a, b, rel_tol=tol, abs_tol=1e-12)
        if not same:
            out.append(f"{k}: {a!r} before, {b!r} now")
    return out


@pytest.mark.parametrize("name", fixed_runs.all_cases())
def test_figures_as_before(name):
    diffs = _differences(name, fixed_runs.run_case(name))
    assert not diffs, f"{len(diffs)} figures of {name} changed:\n" + "\n".join(diffs[:20])


def test_the_comparison_sees_a_changed_figure():
    """The check itself: one figure moved by a millionth is reported."""
    name = "db2_io"
    now = {k: v for k, v in BEFORE.items() if k.startswith(name + "/")}
    key = next(k for k, v in now.items() if isinstance(v, float) and v > 0)
    now[key] *= 1.000001
    assert _differences(name, now) == [f"{key}: {BEFORE[key]!r} before, {now[key]!r} now"]
    del now[key]
    assert _differences(name, now) == [f"{key}: gone (was {BEFORE[key]!r})"]
