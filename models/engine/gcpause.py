"""The cyclic garbage collector paused while a simulation runs.

A run allocates and frees millions of short-lived objects (a process, its
generators and a result per I/O), none of them in a reference cycle: the
reference counts free them all. The cyclic collector still walks the young
ones every 700 allocations; in the Large shop that was about 4 % of the run
(perf: ``gc_collect_main`` and the visits it makes). Paused, a run gives the
same figures (no model object has a finaliser or a weak reference that
collection order could change) and the collector catches up when it resumes.

:meth:`models.engine.core.Engine.run` pauses it for every run of every
model; ``run_system`` pauses it across its whole loop of steps (the
figures it gives early, the warm-up's end) with :func:`gc_paused`.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def gc_paused():
    """Pause the cyclic collector for the ``with`` block (if it was running)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
