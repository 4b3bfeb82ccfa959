"""Build the pieces of a spool run from resolved parameters."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.engine import Engine
from models.run import RunContext
from models.spool.costs import Activity, Cpu
from models.spool.files import file_sizes
from models.spool.placement import place
from models.spool.tracing import SpoolTrace
from models.spool.volume import SpoolVolume
from models.tape import TapeDrive

#: Bytes of the per-file header SPTAPE writes as its own block ahead of the
#: data (the spool file block and tag; our estimate).
FILE_HEADER_BYTES = 1024


@dataclass
class Setup:
    engine: Engine
    ctx: RunContext
    sizes: np.ndarray
    first: list[int]             # first page index of each file
    vol: list[int]               # volume of each page, dump order
    slot: list[int]              # slot of each page on its volume
    volumes: list[SpoolVolume]
    checkpoint: SpoolVolume
    drives: list[TapeDrive]
    cpu: Cpu
    activity: Activity
    change_s: float
    real_storage_mb: float
    trace: SpoolTrace | None
    pages: int = 0
    files: int = 0

    def __post_init__(self) -> None:
        self.pages = int(self.sizes.sum())
        self.files = int(self.sizes.size)


def build(params: dict, ctx: RunContext, layout: str, drives: int) -> Setup:
    """Files, their layout on the spool volumes, drives and accounting.

    Parameters
    ----------
    params : dict
        Resolved ``spool_dump``/``spool_load`` parameters.
    ctx : RunContext
    layout : str
        ``even`` or ``restored``: where the pages are (dump) or go (load).
    drives : int
        Tape drives the program uses.
    """
    eng = Engine(seed=ctx.seed)
    sizes = file_sizes(eng.np_stream("file_sizes"), params["files"], params["pages"])
    nvol = params["spool_volumes"]
    vol, slot = place(layout, sizes, nvol)
    phases = eng.np_stream("rotation").random(nvol + 1)
    first = np.concatenate(([0], np.cumsum(sizes)[:-1])).tolist()
    trace = SpoolTrace(ctx.trace, nvol, drives) if ctx.trace is not None else None
    return Setup(
        engine=eng, ctx=ctx, sizes=sizes, first=first,
        vol=vol.tolist(), slot=slot.tolist(),
        volumes=[SpoolVolume(i, float(phases[i]), eng.stream(f"vol{i}")) for i in range(nvol)],
        checkpoint=SpoolVolume(nvol, float(phases[nvol]), eng.stream("checkpoint")),
        drives=[TapeDrive(i, eng.stream(f"tape{i}")) for i in range(drives)],
        cpu=Cpu(params["background_cpu_util"], eng.stream("dispatch")),
        activity=Activity(), change_s=params["tape_change_s"],
        real_storage_mb=params["real_storage_mb"], trace=trace)
