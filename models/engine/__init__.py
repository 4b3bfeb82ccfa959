"""The discrete-event engine every zPerfLab model runs on.

Public surface: :class:`Engine` (``now``, ``schedule``, ``step``, ``run``,
``process``), :class:`Event`, :class:`Resource`, :class:`PriorityResource`,
:class:`Trace` and :class:`Counters`.

``core`` runs compiled when ``packaging/setup.sh`` has built it (Cython, see
core.py) and interpreted otherwise; ``COMPILED`` says which. The source is
always core.py: a compiled module older than core.py or core.pxd is not used
(one line on stderr says so; run packaging/setup.sh again), and the
environment variable ``ZPERFLAB_ENGINE=python`` runs core.py interpreted even
when a build is present (the benches' A/B and the test that compares the two).
"""
import os as _os
import sys as _sys


def _load_interpreted_core_if_needed() -> None:
    import glob
    import importlib.machinery

    here = _os.path.dirname(__file__)
    source = _os.path.join(here, "core.py")
    built = [p for suffix in importlib.machinery.EXTENSION_SUFFIXES
             for p in glob.glob(_os.path.join(here, "core" + suffix))]
    if not built or "models.engine.core" in _sys.modules or not _os.path.exists(source):
        return   # nothing built, already loaded, or a bundle that ships the build alone
    forced = _os.environ.get("ZPERFLAB_ENGINE", "") == "python"
    if not forced:
        newest = max(_os.path.getmtime(p) for p in (source, source[:-3] + ".pxd")
                     if _os.path.exists(p))
        if min(_os.path.getmtime(p) for p in built) >= newest:
            return
        print("zperflab: the compiled engine is older than models/engine/core.py; running it "
              "interpreted (bash packaging/setup.sh rebuilds it)", file=_sys.stderr)
    _exec_core_source("models.engine.core")


def _exec_core_source(name: str):
    """Run core.py, interpreted, as the module ``name`` (registered in sys.modules)."""
    import importlib.util

    source = _os.path.join(_os.path.dirname(__file__), "core.py")
    spec = importlib.util.spec_from_file_location(name, source)
    module = importlib.util.module_from_spec(spec)
    _sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def interpreted_core():
    """core.py run interpreted as a module of its own, beside the one in use.

    For benches that compare the compiled and interpreted engines in one
    process on a model built from the engine alone (its Engine, Resource, ...
    are distinct classes: do not mix them with models.engine's).
    """
    name = "models.engine._core_interpreted"
    return _sys.modules.get(name) or _exec_core_source(name)


_load_interpreted_core_if_needed()

from models.engine.core import COMPILED, Engine, Event, Process, Interrupt, Step  # noqa: E402
from models.engine.resources import Resource, PriorityResource, Request, Store  # noqa: E402
from models.engine.trace import Trace  # noqa: E402
from models.engine.counters import Counters  # noqa: E402

__all__ = ["Engine", "Event", "Process", "Interrupt", "Step", "Resource",
           "PriorityResource", "Request", "Store", "Trace", "Counters", "COMPILED",
           "interpreted_core"]
