"""One trace vocabulary: every kind, phase and role is named in models.engine.trace_vocab,
and no writer or reader spells one out by itself."""
import pathlib
import re

import pytest

from models.engine import trace_vocab as V
from models.engine.trace import Trace

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_a_kind_outside_the_vocabulary_is_refused():
    tr = Trace()
    assert tr.kind(V.IO_START) == 0
    with pytest.raises(ValueError, match="trace_vocab"):
        tr.kind("io_begin")                   # a typo a reader would never find
    with pytest.raises(ValueError):
        tr.component("DB2V01", role="VOLUME")


def test_no_writer_or_reader_spells_a_kind_or_phase_out_itself():
    literal = re.compile(r"""["'](%s)["']""" % "|".join(V.KINDS))
    phases = re.compile(r"""\(\s*"IOSQ",\s*"PEND",\s*"DISC",\s*"CONN"\s*\)""")
    offenders = []
    for package in ("models", "app", "ui"):
        for path in (ROOT / package).rglob("*.py"):
            if path.name == "trace_vocab.py" or "rmf" in path.relative_to(ROOT).parts:
                # models/rmf reads RMF's report columns ("stage", "read"): RMF's
                # vocabulary, not the trace's; it neither writes nor reads a trace.
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                if literal.search(code) or phases.search(code):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
