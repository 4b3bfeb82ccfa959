"""The I/O configuration as a simulation: channels, control units, ranks, volumes.

:class:`IOSystem` builds, from a :class:`models.drawing.config.Configuration`, one
:class:`~models.io.paths.ChannelPath` per CHPID, one :class:`ControlUnitIO`
per control unit (cache and NVS shared by its volumes, the paths that reach
it), one :class:`~models.io.backend.Rank` per RAID rank (drives shared by
the volumes on it) and, on first use, one :class:`~models.io.volume.VolumeIO`
per volume, each under its canvas label::

    system = IOSystem(engine, ctx.config, trace=ctx.trace)
    vol = system.volume("DB2VOL1")               # same API as IOSubsystem
    res = yield from vol.read_pages([17, 34, 51])
    system.component_figures(engine.now)         # {label: {figure: value}}
    system.reports(engine.now)                   # RMF-style Tables

Wiring rules (the canvas reports wiring problems; here they are errors when
the volume is used): a volume needs a control unit, and the unit a channel
path. The volume's protocol and channel generation are those of the first
path to its unit. A volume with no rank has one of its own, named after it;
a volume listing several ranks stripes its extents over them; volumes on
one rank get their extents one after the other in canvas order. A native
3390 is its own drive (ranks are ignored).
"""
from __future__ import annotations


from models.engine import trace_vocab as V
from models.drawing.config import RAID
from models.io import channel as ch
from models.io import geometry, reports
from models.io.backend import EXTENT_TRACKS, Backend, DrivePool, Rank
from models.io.cache import CacheDirectory, CacheStats
from models.io.devices import profile
from models.io.paths import ChannelPath, PathGroup
from models.io.request import IOResult
from models.io.trace_io import IOTrace
from models.io.reports import volume_figures
from models.io.volume import KEY_BITS, VolumeIO
from models.io.writes import NVS, NVS_FRACTION

#: Options every volume of a system takes (see IOSubsystem for their meaning).
VOLUME_OPTIONS = ("lpo", "staging", "record_bytes", "seq_detect")
_TRACK_MASK = (1 << KEY_BITS) - 1


class ControlUnitIO:
    """A control unit: one cache directory and NVS for all its volumes.

    Parameters
    ----------
    name : str
        Canvas label.
    cache_gb : float
        Cache, GB (2^30 bytes); NVS is :data:`~models.io.writes.NVS_FRACTION` of it.
    paths : PathGroup or None
        The channel paths that reach it (None: none do).
    track_bytes : int
        Smallest NVS (one track).
    on_evict : callable or None
        ``on_evict(key, slots)``, for the trace.
    """

    def __init__(self, name: str, cache_gb: float, paths: PathGroup | None, track_bytes: int,
                 on_evict=None):
        self.name = name
        self.cache_gb = cache_gb
        self.paths = paths
        self.cache = CacheDirectory(max(1, int(cache_gb * 2**30 // 4096)), on_evict)
        self.nvs = NVS(max(track_bytes, int(cache_gb * 2**30 * NVS_FRACTION)))
        self.volumes: list[VolumeIO] = []

    def drop_volume(self, lo: int, span: int) -> None:
        """Remove the cache entries of keys ``lo`` … ``lo + span - 1`` (one volume)."""
        if len(self.volumes) <= 1:
            self.cache.clear()
        else:
            self.cache.drop(lo, lo + span)

    def stats(self) -> CacheStats:
        """Cache activity summed over the unit's volumes."""
        out = CacheStats()
        for v in self.volumes:
            out.add(v.stats)
        out.evicted_slots = self.cache.evicted      # the unit's directory's
        return out


class IOSystem:
    """Channel paths, control units, ranks and volumes built from a configuration.

    Parameters
    ----------
    engine : Engine
    config : models.drawing.config.Configuration
    trace : Trace or None
    trace_names : str
        ``"canvas"``: drive components are ``<rank> drive <n>``; ``"legacy"``:
        ``DRV0``… counted per volume, as before configurations (what
        :class:`~models.io.subsystem.IOSubsystem` keeps).
    **volume_options
        ``lpo``, ``staging``, ``record_bytes``, ``seq_detect`` for every volume.
    """

    def __init__(self, engine, config, trace=None, trace_names: str = "canvas", **volume_options):
        unknown = set(volume_options) - set(VOLUME_OPTIONS)
        if unknown:
            raise TypeError(f"unknown volume option(s): {', '.join(sorted(unknown))}")
        self.engine = engine
        self.config = config
        self.trace = trace
        self.trace_names = trace_names
        self.options = dict(volume_options)
        self.record_bytes = int(volume_options.get("record_bytes", geometry.PAGE_BYTES))
        self.paths: dict[str, ChannelPath] = {}
        for c in config.channels:
            if c.protocol not in ch.PROTOCOLS:
                raise ValueError(f"channel {c.name!r}: unknown protocol {c.protocol!r}")
            if c.generation not in ch.CHANNELS:
                raise ValueError(f"channel {c.name!r}: unknown generation {c.generation!r}")
            path = ChannelPath(c.name, c.protocol, c.generation)
            # the busy of work the drawing lacks (a calibrated quantity)
            path.set_background(float(c.properties.get("background_pct", 0.0)) / 100.0)
            self.paths[c.name] = path
        self.pool = DrivePool()
        self.ranks: dict[str, Rank] = {}
        self._drive_names: dict[int, str] = {}
        for r in config.ranks:
            self._add_rank(r.name, r.drive, r.raid)
        self._layout: dict[str, tuple] = {}
        for v in config.volumes:
            self._layout[v.name] = self._place(v)
        track_bytes = geometry.records_per_track(self.record_bytes) * self.record_bytes
        self.control_units: dict[str, ControlUnitIO] = {}
        for cu in config.control_units:
            paths = [self.paths[c.name] for c in config.paths_to(cu.name)]
            group = PathGroup(engine, paths) if paths else None
            self.control_units[cu.name] = ControlUnitIO(cu.name, cu.cache_gb, group, track_bytes,
                                                        self._evict_recorder(cu.name))
        self._volumes: dict[str, VolumeIO] = {}

    # -- building -------------------------------------------------------------------
    def _add_rank(self, name: str, drive: str, raid: str) -> Rank:
        if name in self.ranks:
            raise ValueError(f"two ranks called {name!r} (a volume without ranks has a rank "
                             "of its own under its name)")
        rank = Rank(name, profile(drive), self.record_bytes, raid,
                    self.engine.stream(f"{name}/drives"), self.pool)
        self.ranks[name] = rank
        for i, d in enumerate(rank.drives()):
            self._drive_names[d] = f"{name} drive {i + 1}"
        return rank

    def _place(self, v) -> tuple:
        """The volume's ranks and first extent slot on each (its region)."""
        if v.device == "3390" or not v.ranks:
            raid = next((r.raid for r in self.config.ranks if r.name in v.ranks), RAID)
            ranks = [self._add_rank(v.name, v.device, raid)]
        else:
            ranks = [self.ranks[r] for r in v.ranks]
            for r in ranks:
                if r.disk.name != v.device:
                    raise ValueError(f"volume {v.name!r} is {v.device} but rank {r.name!r} "
                                     f"holds {r.disk.name} drives")
        cyls = geometry.MODELS.get(v.model)
        if cyls is None:
            raise ValueError(f"volume {v.name!r}: unknown 3390 model {v.model!r}")
        extents = -(-cyls * geometry.TRACKS_PER_CYLINDER // EXTENT_TRACKS)
        per_rank = -(-extents // len(ranks))
        return ranks, [r.allocate(per_rank) for r in ranks]

    def _evict_recorder(self, cu: str):
        tr = self.trace
        if tr is None:
            return None
        comp = tr.component("CU" if self.trace_names == "legacy" else cu, V.CU)
        kind = tr.kind(V.EVICT)
        eng = self.engine

        def on_evict(key: int, slots: int) -> None:
            tr.record(eng.now, comp, kind, key & _TRACK_MASK, slots)
        return on_evict

    def volume(self, name: str) -> VolumeIO:
        """The volume called ``name``, ready for I/O (built on first use).

        Raises ``KeyError`` for an unknown name and ``ValueError`` when the
        volume has no control unit or its unit no channel path.
        """
        vol = self._volumes.get(name)
        if vol is None:
            vol = self._build(name, VolumeIO.__new__(VolumeIO))
        return vol

    def _build(self, name: str, vol: VolumeIO) -> VolumeIO:
        """Initialise ``vol`` (a bare VolumeIO or subclass) as the volume ``name``."""
        v = self.config.volume(name)
        if v.control_unit is None:
            raise ValueError(f"volume {name!r} is not linked to a control unit")
        cu = self.control_units[v.control_unit]
        if cu.paths is None:
            raise ValueError(f"no channel path reaches control unit {cu.name!r} "
                             f"(volume {name!r})")
        first = cu.paths.paths[0]
        ranks, slots = self._layout[name]
        backend = Backend(profile(v.device), self.record_bytes, on=ranks, slots=slots)
        tracer = None
        if self.trace is not None:
            legacy = self.trace_names == "legacy"
            tracer = IOTrace(self.trace, name, backend, self.engine,
                             "CU" if legacy else cu.name,
                             None if legacy else self._drive_names.__getitem__)
        VolumeIO.__init__(vol, self.engine, name, cu, backend, first.protocol, first.generation,
                          index=len(self._volumes), aliases=v.aliases, tracer=tracer,
                          **self.options)
        p = v.properties
        vol.conn_extra = float(p.get("conn_overhead_ms", 0.0)) / 1000.0
        if p.get("start_ms") is not None:
            vol.start_s = float(p["start_ms"]) / 1000.0
        vol.write_disc = float(p.get("write_disc_ms", 0.0)) / 1000.0
        if p.get("aliases_in_use") is not None:
            vol.exposures = 1.0 + float(p["aliases_in_use"])
        vol.reserved = float(p.get("reserved_pct", 0.0)) / 100.0
        cu.volumes.append(vol)
        self._volumes[name] = vol
        return vol

    def volumes(self) -> list[VolumeIO]:
        """The volumes built so far (used), in order of first use."""
        return list(self._volumes.values())

    def reset_statistics(self) -> None:
        """Start a new measurement interval now (warm-up removal, as an RMF
        interval starts): every counter behind the figures and reports is
        zeroed. Work a channel or drive already has booked beyond now stays
        counted (it falls in the new interval); the cache contents, arm
        positions and queues are untouched."""
        now = self.engine.now
        for p in self.paths.values():
            p.background(now)
            p.busy = max(0.0, p.free_at - now)
            p.bg_busy = 0.0
            p.starts = p.reconnects = 0
        for v in self._volumes.values():
            v.stats = CacheStats()
            v.totals = IOResult()
            v.completed = v.path_waits = v.amp_waits = 0
        pool = self.pool
        for d in range(len(pool)):
            pool.busy[d] = max(0.0, pool.free_at[d] - now)
            pool.accesses[d] = 0

    # -- figures ----------------------------------------------------------------------
    def component_figures(self, elapsed_s: float) -> dict[str, dict[str, float]]:
        """Each component's figures under its canvas label.

        Channel paths ``utilization_pct`` (this system's drawn work) and,
        on a path with a background busy, ``total_utilization_pct`` (with
        the background's, as RMF's total); volumes ``io_rate`` (/s),
        ``resp_ms``, ``iosq_ms``, ``pend_ms``, ``disc_ms``, ``conn_ms`` (mean
        per I/O) and ``busy_pct`` (DISC + CONN per exposure, as RMF's device
        utilisation); control units ``read_hit_ratio``; ranks ``busy_pct``
        (mean over their drives), a volume on a rank of its own the rank's as
        ``rank_busy_pct``. Volumes not used report zeros.
        """
        el = elapsed_s if elapsed_s > 0 else float("inf")
        out: dict[str, dict[str, float]] = {}
        for name, p in self.paths.items():
            out[name] = {"utilization_pct": min(100.0, 100.0 * p.busy / el)}
            if p.bg_item > 0:
                p.background(self.engine.now)
                out[name]["total_utilization_pct"] = min(100.0, 100.0 * p.total_utilisation(el))
        for v in self.config.volumes:
            out[v.name] = volume_figures(self._volumes.get(v.name), el)
        for name, cu in self.control_units.items():
            out[name] = {"read_hit_ratio": cu.stats().hit_ratio}
        for name, r in self.ranks.items():
            busy = reports.rank_busy_pct(r, el)
            if name in out:
                # A volume's rank of its own shares its name: the volume keeps
                # its device busy (RMF's % DEV UTIL) and gains its drives'.
                out[name]["rank_busy_pct"] = busy
            else:
                out[name] = {"busy_pct": busy}
        return out

    def reports(self, elapsed_s: float) -> tuple:
        """RMF-style tables: device, channel path, cache subsystem and rank activity."""
        return reports.system_tables(self, elapsed_s)
