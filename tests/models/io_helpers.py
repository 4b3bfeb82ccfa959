"""Shared helpers for the I/O subsystem tests."""


def run_requests(sub, requests, streams=1):
    """Issue the requests (lists of groups) from ``streams`` processes; returns results."""
    out = []
    queue = list(requests)

    def proc():
        while queue:
            out.append((yield from sub.read(queue.pop(0))))

    for _ in range(streams):
        sub.engine.process(proc())
    sub.engine.run()
    return out


def as_python(module):
    """``module`` (one of models/io's compiled modules) loaded again from its
    .py as a plain module: the source as it runs interpreted, beside the
    build under test."""
    import importlib.util
    import sys
    from pathlib import Path

    name = module.__name__.rsplit(".", 1)[-1]
    spec = importlib.util.spec_from_file_location(
        f"_{name}_as_python", Path(module.__file__).with_name(f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    assert not mod.cython.compiled
    return mod
