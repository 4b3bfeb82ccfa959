"""Entry point: pick the program, lay out the files, run, report."""
from __future__ import annotations

from models.core.run import RunContext
from models.spool import sptape, spxtape
from models.spool.results import Outcome, component_figures, metrics, tables

__all__ = ["run", "metrics", "tables", "component_figures"]


def run(params: dict, ctx: RunContext, load: bool) -> Outcome:
    """Dump or load the spool files described by ``params``.

    For a dump, ``placement`` says where the files are. For a load, the
    loader's own allocation decides where they go: SPTAPE leaves the
    ``restored`` layout, SPXTAPE spreads pages over the volumes (``even``),
    and ``placement`` is not used.
    """
    from models.spool.setup import build

    if params["program"] == "SPTAPE":
        layout = "restored" if load else params["placement"]
        return sptape.run(build(params, ctx, layout, drives=1), load)
    layout = "even" if load else params["placement"]
    s = build(params, ctx, layout, drives=params["tape_drives"])
    return spxtape.load(s) if load else spxtape.dump(s)
