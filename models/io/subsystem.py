"""One 3390 volume behind a DS8000-style control unit, reached over FICON or zHPF.

:class:`IOSubsystem` is the one-volume entry point (see docs/model-io.md):
a configuration of one channel path, one control unit, one volume and its
rank(s), built as a :class:`models.io.system.IOSystem`, and the volume
itself (a :class:`models.io.volume.VolumeIO`). Inside a process::

    res = yield from sub.read_pages([17, 34, 51])    # IOSQ + PEND + DISC + CONN
    res.total, res.pend, res.disc, res.conn, res.hits, res.misses

Configurations drawn on the canvas use :class:`~models.io.system.IOSystem`
directly. The request helpers live in :mod:`models.io.request` and are
re-exported here.
"""
from __future__ import annotations

from models.drawing.config import ChannelPath, Configuration, ControlUnit, Rank, Volume
from models.engine import Engine
from models.io import geometry
from models.io.request import IOResult, pages_to_groups, range_to_groups, res_pages
from models.io.staging import AMP_MAX_STRIPES
from models.io.system import IOSystem
from models.io.volume import SEQ_STREAMS, SEQ_TRIGGER_TRACKS, STAGING_MODES, VolumeIO

__all__ = ["IOSubsystem", "IOResult", "pages_to_groups", "range_to_groups", "res_pages",
           "one_volume_config", "simple_config", "AMP_MAX_STRIPES", "SEQ_STREAMS", "SEQ_TRIGGER_TRACKS",
           "STAGING_MODES"]


def simple_config(volumes=("VOL0",), device: str = "HDD15K", protocol: str = "zHPF",
                  channel: str = "FEx8S", ranks: int = 1, raid: str = "7+P",
                  cache_gb: float = 64.0, aliases: int = 0, paths: int = 1,
                  cu: str = "CU") -> Configuration:
    """Volumes behind one control unit on ``paths`` channel paths.

    Each volume has rank(s) of its own: ``ranks`` > 1 gives it ranks called
    ``<volume> rank <n>`` (storage pool striping); 1 a rank under its name.
    Channel paths are ``CHP0``, ``CHP1`` …. For runs without a drawn
    configuration and for :class:`IOSubsystem`.
    """
    if ranks < 1:
        raise ValueError("a volume needs at least one rank")
    vols, rks = [], []
    for name in volumes:
        own = tuple(f"{name} rank {i + 1}" for i in range(ranks)) if ranks > 1 else ()
        rks += [Rank(r, device, raid) for r in own]
        vols.append(Volume(name, device, cu, own, aliases))
    return Configuration(
        channels=tuple(ChannelPath(f"CHP{i}", protocol, channel, control_units=(cu,))
                       for i in range(paths)),
        control_units=(ControlUnit(cu, cache_gb),), ranks=tuple(rks), volumes=tuple(vols))


def one_volume_config(name: str = "VOL0", **kw) -> Configuration:
    """:func:`simple_config` of one volume called ``name``."""
    return simple_config((name,), **kw)


class IOSubsystem(VolumeIO):
    """A volume, its control unit, cache, back-end drives and channel path.

    Parameters
    ----------
    engine : Engine
    device : str
        ``HDD10K``, ``HDD15K``, ``SSD`` or ``3390`` (native).
    protocol : str
        ``FICON`` (command mode) or ``zHPF`` (transport mode).
    channel : str
        ``FEx8`` (zHPF lists limited to 22 addresses) or ``FEx8S``.
    ranks : int
        RAID ranks the volume's extents are spread over.
    raid : str
        ``7+P`` or ``6+P+S``.
    lpo : bool or None
        List Prefetch Optimizer; None means "on with zHPF".
    cache_gb : float
        Cache of the control unit, GB (2^30 bytes).
    staging : str
        What a miss stages without LPO: ``record``, ``partial``, ``full``.
    aliases : int
        HyperPAV aliases: I/Os beyond 1 + aliases queue in IOSQ.
    record_bytes : int
        Record (page) size; 4096 for DB2.
    seq_detect : bool
        Sequential detection and prestaging.
    trace : Trace or None
    name : str
        Volume component name in the trace.
    paths : int
        Channel paths to the control unit (one by default: concurrent I/Os
        on aliases then share it).
    """

    def __init__(self, engine: Engine, device: str = "HDD15K", protocol: str = "zHPF",
                 channel: str = "FEx8S", ranks: int = 1, raid: str = "7+P",
                 lpo: bool | None = None, cache_gb: float = 64.0, staging: str = "full",
                 aliases: int = 0, record_bytes: int = geometry.PAGE_BYTES,
                 seq_detect: bool = True, trace=None, name: str = "VOL0", paths: int = 1):
        config = one_volume_config(name, device=device, protocol=protocol, channel=channel,
                                   ranks=ranks, raid=raid, cache_gb=cache_gb, aliases=aliases,
                                   paths=paths)
        self.system = IOSystem(engine, config, trace, trace_names="legacy", lpo=lpo,
                               staging=staging, record_bytes=record_bytes, seq_detect=seq_detect)
        self.system._build(name, self)
