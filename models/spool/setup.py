"""Build the pieces of a spool run from resolved parameters."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.engine import Engine
from models.core.params import ParamError
from models.core.run import RunContext
from models.spool.costs import Activity, Cpu
from models.spool.files import file_sizes
from models.spool.placement import place
from models.spool.tracing import SpoolTrace
from models.spool.volume import SpoolVolume
from models.tape import TapeChannel, TapeDrive

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
    other_storage_mb: float
    trace: SpoolTrace | None
    #: DASD channel paths drawn to the spool volumes' control unit (names).
    dasd_paths: tuple = ()
    pages: int = 0
    files: int = 0

    def __post_init__(self) -> None:
        self.pages = int(self.sizes.sum())
        self.files = int(self.sizes.size)


def _names(config, nvol: int, drives: int) -> tuple[list[str], str, list[str]]:
    """Canvas labels of the spool volumes, the checkpoint volume and the
    tape drives the run uses (generic names without a drawing)."""
    vols = [f"VOL{i}" for i in range(nvol)]
    ckpt = "CHECKPOINT"
    tapes = [f"TAPE{i}" for i in range(drives)]
    if config is None:
        return vols, ckpt, tapes
    drawn = [v for ds in config.datasets if ds.kind == "ds_spool" for v in ds.volumes]
    drawn = list(dict.fromkeys(drawn))
    if len(drawn) == nvol:
        vols = drawn
    ck = [v for ds in config.datasets if ds.kind == "ds_spool_ckpt" for v in ds.volumes]
    if ck:
        ckpt = ck[0]
    reached = [d.name for d in config.tape_drives_reached()]
    if len(reached) >= drives:
        tapes = reached[:drives]
    return vols, ckpt, tapes


def _tape_channels(config, drive_names: list[str]) -> dict:
    """Each drive's channel path as drawn: drives on one CHPID share one
    :class:`~models.tape.TapeChannel` (its first channel when on several)."""
    if config is None:
        return {}
    paths: dict[str, TapeChannel] = {}
    out = {}
    for d in config.tape_drives:
        if d.name in drive_names and d.channels:
            out[d.name] = paths.setdefault(d.channels[0], TapeChannel(d.channels[0]))
    return out


def _dasd_paths(config, vol_names: list[str]) -> tuple:
    """Channel paths drawn to the spool volumes' control unit(s)."""
    if config is None:
        return ()
    cus = {v.control_unit for v in config.volumes if v.name in vol_names and v.control_unit}
    return tuple(dict.fromkeys(p.name for cu in sorted(cus) for p in config.paths_to(cu)))


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
    if params["other_storage_mb"] > params["real_storage_mb"]:
        raise ParamError(f"other work cannot hold {params['other_storage_mb']:g} MB of a system "
                         f"with {params['real_storage_mb']:g} MB of real storage; give it at most "
                         f"the real storage")
    eng = Engine(seed=ctx.seed)
    sizes = file_sizes(eng.np_stream("file_sizes"), params["files"], params["pages"])
    nvol = params["spool_volumes"]
    vol_names, ckpt_name, drive_names = _names(ctx.config, nvol, drives)
    channels = _tape_channels(ctx.config, drive_names)
    vol, slot = place(layout, sizes, nvol)
    phases = eng.np_stream("rotation").random(nvol + 1)
    first = np.concatenate(([0], np.cumsum(sizes)[:-1])).tolist()
    trace = (SpoolTrace(ctx.trace, vol_names + [ckpt_name], drive_names)
             if ctx.trace is not None else None)
    return Setup(
        engine=eng, ctx=ctx, sizes=sizes, first=first,
        vol=vol.tolist(), slot=slot.tolist(),
        volumes=[SpoolVolume(i, float(phases[i]), eng.stream(f"vol{i}"), vol_names[i])
                 for i in range(nvol)],
        checkpoint=SpoolVolume(nvol, float(phases[nvol]), eng.stream("checkpoint"), ckpt_name),
        drives=[TapeDrive(i, eng.stream(f"tape{i}"), drive_names[i], channels.get(drive_names[i]))
                for i in range(drives)],
        cpu=Cpu(params["background_cpu_util"], eng.stream("dispatch")),
        activity=Activity(), change_s=params["tape_change_s"],
        real_storage_mb=params["real_storage_mb"],
        other_storage_mb=params["other_storage_mb"], trace=trace,
        dasd_paths=_dasd_paths(ctx.config, vol_names + [ckpt_name]))
