"""``program_fetch`` and ``library_space``: parameters in, RunResult out."""
from __future__ import annotations

from models.loadlib.fetch import FetchConfig, FetchJob
from models.loadlib.layout import directory_blocks, library_space
from models.loadlib.linklib import linklib_sizes
from models.core.run import RunContext, RunResult, Table

#: Text sizes of the named modules (Longpela, "Load Library Performance",
#: 2019: IEFBR14 8 bytes, ARCCTL about 4 MB; the IBM MQ modules CSQLINK and
#: CSQUDMSG as listed in EXPERIMENTS.md).
MODULE_BYTES = {"IEFBR14": 8, "ARCCTL": 4 * 1024 * 1024, "CSQLINK": 424,
                "CSQUDMSG": 264 * 1024}


def fetch_config(params: dict, config=None) -> FetchConfig:
    """The model's view of resolved ``program_fetch`` parameters and of the
    drawing (``config``: the library's and SYSPRINT's volumes, paths and
    control unit, by canvas name)."""
    nbytes = params["module_bytes"] or MODULE_BYTES[params["module"]]
    where: dict = {}
    zhpf = True
    if config is not None:
        for ds in config.datasets:
            role = ("library" if ds.kind in ("ds_pds", "ds_pdse")
                    else "sysprint" if ds.kind == "ds_seq" else None)
            if role is None or not ds.volumes:
                continue
            vol = config.volume(ds.volumes[0])
            paths: tuple = config.paths_to(vol.control_unit) if vol.control_unit else ()
            where[f"{role}_volume"] = (vol.name, vol.device,
                                       paths[0].name if paths else "CHP0",
                                       vol.control_unit or "CU")
            if role == "library":
                zhpf = bool(paths) and paths[0].protocol == "zHPF"
        where["zhpf_path"] = zhpf
    return FetchConfig(params["library"], params["blksize"], params["members"],
                       params["member_position"], nbytes, params["iterations"],
                       params["fetchopt"], params["lla"], params["device"], **where)


def run_program_fetch(params: dict, ctx: RunContext) -> RunResult:
    """Simulate the LOAD/DELETE job step and report what it cost."""
    cfg = fetch_config(params, ctx.config)
    drawn = ctx.config.processors if ctx.config is not None else None
    job = FetchJob(cfg, seed=ctx.seed, trace=ctx.trace, progress=ctx.progress,
                   processors=drawn).run()
    if ctx.trace is not None:
        ctx.trace.meta["loads_traced"] = job.loads_simulated
    st = job.vol.stats
    metrics = {"cpu_s": job.cpx.account.us() / 1e6, "excps": float(job.excps),
               "elapsed_s": job.engine.now, "directory_reads": float(job.dir_reads),
               "bytes_read": float(round(st.bytes))}
    reports = (_load_table(job), _device_table(job), job.cpx.account.table())
    return RunResult("program_fetch", params, ctx.seed, metrics, reports, ctx.trace,
                     components=_volume_figures(job))


def _volume_figures(job: FetchJob) -> dict:
    """Per drawn volume: I/O rate, response time and its parts, busy % (the
    z/OS device busy, as RMF's % DEV UTIL: DISC + CONN, PEND not included)."""
    t = job.engine.now or 1e-12
    out = {}
    for vol in (job.vol, job.sysvol):
        st = vol.stats
        ios = st.ios or 1
        resp = st.pend + st.disc + st.conn
        out[vol.name] = {"io_rate": st.ios / t, "resp_ms": resp * 1e3 / ios,
                         "iosq_ms": 0.0, "pend_ms": st.pend * 1e3 / ios,
                         "disc_ms": st.disc * 1e3 / ios, "conn_ms": st.conn * 1e3 / ios,
                         "busy_pct": min(100.0, 100.0 * (st.disc + st.conn) / t)}
    return out


def _load_table(job: FetchJob) -> Table:
    n = job.cfg.iterations
    cpu_us = job.cpx.account.us()
    rows = (("LOADs", n),
            ("EXCPs per LOAD", round(job.excps / n, 2)),
            ("CPU µs per LOAD", round(cpu_us / n, 2)),
            ("elapsed ms per LOAD", round(job.engine.now * 1e3 / n, 4)),
            ("directory blocks/pages read per LOAD", round(job.dir_reads / n, 2)),
            ("bytes read per LOAD", round(job.vol.stats.bytes / n)),
            ("LOADs copied from VLF", job.vlf_loads),
            ("LOADs simulated event by event", job.loads_simulated))
    lib = job.cfg
    note = (f"{lib.library}, BLKSIZE {lib.blksize}, {lib.members} members "
            f"({directory_blocks(lib.members)} directory blocks), module {lib.module_bytes} bytes; "
            "the rest of the LOADs repeat a simulated one exactly")
    return Table("Program fetch (per LOAD/DELETE)", ("quantity", "value"), rows, note)


def _device_table(job: FetchJob) -> Table:
    rows = []
    for vol in (job.vol, job.sysvol):
        st = vol.stats
        ios = st.ios or 1
        rate = st.ios / job.engine.now if job.engine.now else 0.0
        hit = st.hits / (st.hits + st.misses) if st.hits + st.misses else 0.0
        rows.append((vol.name, round(st.ios), round(rate, 1),
                     round((st.pend + st.disc + st.conn) * 1e3 / ios, 4),
                     round(st.pend * 1e3 / ios, 4), round(st.disc * 1e3 / ios, 4),
                     round(st.conn * 1e3 / ios, 4), round(100 * hit, 1)))
    return Table("Direct access device activity",
                 ("volume", "I/Os", "rate /s", "resp ms", "PEND ms", "DISC ms", "CONN ms",
                  "track hit %"), tuple(rows),
                 note=f"{job.vol.name} holds the library, {job.sysvol.name} SYSPRINT")


def run_library_space(params: dict, ctx: RunContext) -> RunResult:
    """Copy the members at the block size and count tracks, blocks and bytes."""
    contents = params["contents"]
    sizes = linklib_sizes() if contents == "SYS1.LINKLIB" else list(contents)
    ctx.progress(0.0)
    space = library_space(sizes, params["blksize"])
    metrics = {"tracks_used": float(space.tracks), "blocks": float(space.blocks),
               "bytes": float(space.bytes)}
    table = Table("Library space", ("quantity", "value"),
                  (("members", len(sizes)), ("member text bytes", sum(sizes)),
                   ("directory tracks", space.directory_tracks),
                   ("tracks used", space.tracks), ("blocks written", space.blocks),
                   ("bytes written", space.bytes),
                   ("cylinders (15 tracks)", round(space.tracks / 15, 1))),
                  note="blocks and bytes include control, RLD and CESD records and the directory"
                  + ("; the SYS1.LINKLIB member sizes are drawn (log-normal, median 12 KB), "
                     "not a real library: no published size list was found"
                     if contents == "SYS1.LINKLIB" else ""))
    # The copy lands on the volume drawn under the library: its tracks.
    vol = _library_volume(ctx.config)
    comps = {vol: {"tracks_used": float(space.tracks)}} if vol else {}
    return RunResult("library_space", params, ctx.seed, metrics, (table,), ctx.trace,
                     components=comps)


def _library_volume(config) -> str | None:
    """The volume the drawn load library lives on (None without a drawing)."""
    if config is None:
        return None
    for ds in config.datasets:
        if ds.kind in ("ds_pds", "ds_pdse") and ds.volumes:
            return ds.volumes[0]
    return None
