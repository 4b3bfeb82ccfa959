"""The I/O subsystem: 3390 geometry, disks, RAID ranks, control-unit cache,
channels and channel programs.

The hot modules of an I/O (``COMPILED_MODULES``: the request's result, the
channel paths, the volume's state and its channel program) run compiled when
``packaging/setup.sh`` has built them (Cython in pure-Python mode, the types
in a ``.pxd`` beside each ``.py``), as the event engine does, and interpreted
otherwise; ``COMPILED`` says which. The ``.py`` files are the one source. The
compiled modules are used all together or not at all: not when any of them
is missing or older than its sources (one line on stderr says so; run
packaging/setup.sh again), nor when the engine runs interpreted (they use the
compiled engine's types): ``ZPERFLAB_ENGINE=python`` runs both interpreted.
"""
import os as _os
import sys as _sys
from importlib.util import spec_from_file_location as _spec_from_file_location

#: The modules built by packaging/build_engine.py, in import order.
COMPILED_MODULES = ("request", "paths", "channel", "backend", "cache", "trace_io", "staging",
                    "writes", "volume", "driver")


def _built(here: str, name: str) -> list:
    import glob
    import importlib.machinery

    return [p for suffix in importlib.machinery.EXTENSION_SUFFIXES
            for p in glob.glob(_os.path.join(here, name + suffix))]


def _pxd_deps(pxd: str, seen: set) -> set:
    """``pxd`` and the .pxd files it cimports from models, recursively."""
    import re

    if pxd in seen or not _os.path.exists(pxd):
        return seen
    seen.add(pxd)
    root = _os.path.dirname(_os.path.dirname(_os.path.dirname(pxd)))
    with open(pxd, encoding="utf-8") as f:
        for mod in re.findall(r"^from (models\.[\w.]+) cimport", f.read(), re.M):
            _pxd_deps(_os.path.join(root, *mod.split(".")) + ".pxd", seen)
    return seen


def _compiled_ok(here: str) -> bool:
    """Whether every compiled module is there and newer than its .py, its .pxd
    and the .pxd files that one cimports."""
    if not all(_os.path.exists(_os.path.join(here, name + ".py")) for name in COMPILED_MODULES):
        return True     # a bundle that ships the builds alone
    import models.engine
    if not models.engine.COMPILED:
        return False    # they cimport the compiled engine's types
    for name in COMPILED_MODULES:
        built = _built(here, name)
        deps = [_os.path.join(here, name + ".py"),
                *_pxd_deps(_os.path.join(here, name + ".pxd"), set())]
        if not built or min(map(_os.path.getmtime, built)) < max(map(_os.path.getmtime, deps)):
            print(f"zperflab: the compiled I/O model is missing models/io/{name} or older "
                  "than its sources; running it interpreted (bash packaging/setup.sh "
                  "rebuilds it)", file=_sys.stderr)
            return False
    return True


class _Sources:
    """Import finder: the modules of ``COMPILED_MODULES`` from their .py files
    (first on ``sys.meta_path`` when their builds are not to be used)."""

    def __init__(self, here: str):
        self.here = here

    def find_spec(self, fullname: str, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in COMPILED_MODULES:
            return None
        return _spec_from_file_location(fullname, _os.path.join(self.here, name + ".py"))


def _load_interpreted_if_needed() -> bool:
    """Have the compiled modules imported from their sources when their builds
    are not to be used, whichever module imports them first. Returns whether
    the compiled builds are in use."""
    here = _os.path.dirname(__file__)
    if not any(_built(here, name) for name in COMPILED_MODULES):
        return False    # nothing built: the ordinary imports find the sources
    if _compiled_ok(here):
        return True
    _sys.meta_path.insert(0, _Sources(here))
    return False


#: True when the modules of ``COMPILED_MODULES`` run compiled.
COMPILED = _load_interpreted_if_needed()
