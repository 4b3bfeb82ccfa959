"""Experiment ``db2_io``: one DB2 I/O of N pages (case study E).

The model is :class:`models.io.system.IOSystem`, built from the drawn
configuration (the I/O goes to the first volume of the DB2 workload's data
set) or, without one, from the parameters (one volume, ``VOL0``); this
module only builds the page list, warms or empties the cache, issues the
I/O a number of times (fresh random pages each time) and reports the mean
response time and its IOSQ/PEND/DISC/CONN parts, with RMF-style tables and
each component's figures under its canvas label.
"""
from __future__ import annotations

from models.engine import Engine
from models.experiments import Experiment
from models.experiments.common import device_param, protocol_param
from models.io.reports import cache_table, channel_activity, device_table, rank_activity
from models.io.subsystem import one_volume_config, pages_to_groups
from models.io.system import IOSystem
from models.core.params import Metric, Param, ParamError, Schema
from models.core.run import RunContext, RunResult

#: I/Os averaged per run: enough that rotational luck averages out (the
#: standard error of a cold 1-page I/O is then ~2 %).
SAMPLES = 400
#: Pause between sampled I/Os, so each starts on an idle volume (s).
GAP_S = 0.05

DB2_IO_SCHEMA = Schema((
    Param("pages", "int", 32, unit="pages", min=1, max=64, group="workload", label="Pages per I/O",
          help="4 KB pages in the I/O: up to 32 for list or sequential "
               "prefetch, 64 for utilities."),
    Param("layout", "choice", "discontiguous", choices=("contiguous", "discontiguous"),
          label="Page layout",
          group="dataset",
          help="contiguous: consecutive pages (Read Track Data on FICON); "
               "discontiguous: a page list, one Locate Record domain each on FICON."),
    protocol_param("zHPF", lpo=False),
    Param("channel", "choice", "FEx8S", choices=("FEx8", "FEx8S"), group="channel",
          label="Channel generation",
          help="FICON Express 8 (zHPF splits a 32-page list into two I/Os: "
               "22-address limit) or FICON Express 8S (all 32 in one)."),
    Param("cache", "choice", "resident", choices=("resident", "cold"), group="control_unit",
          label="Cache at the start",
          help="resident: every page is in the control unit cache; cold: "
               "every page is a miss staged from disk."),
    device_param("HDD15K"),
    Param("stride", "int", 0, unit="pages", min=0, max=100_000, group="dataset",
          label="Pages between list entries",
          help="Pages from one page of a discontiguous list to the next; 0 draws "
               "the pages at random from the table space, as a RID list does."),
    Param("table_pages", "int", 2_000_000, unit="pages", min=1000, max=100_000_000,
          group="dataset", label="Table space size", help="Size of the table space the pages come from."),
))


def _page_list(params: dict, rng) -> list[int]:
    """Pages of one I/O, ascending (DB2 sorts RIDs)."""
    n, space = params["pages"], params["table_pages"]
    stride = params["stride"] if params["layout"] == "discontiguous" else 1
    if stride == 0:
        return sorted(rng.sample(range(space), min(n, space)))
    span = (n - 1) * stride + 1
    if span > space:
        raise ParamError(f"pages × stride ({span}) exceeds table_pages ({space}); "
                         "use a smaller stride or a larger table space")
    first = rng.randrange(space - span + 1)
    return [first + i * stride for i in range(n)]


def run(params: dict, ctx: RunContext) -> RunResult:
    """Issue the I/O ``SAMPLES`` times and report mean response-time parts."""
    eng = Engine(seed=ctx.seed)
    system, name = _system(eng, params, ctx)
    sub = system.volume(name)
    rng = eng.stream("db2_io/pages")
    resident = params["cache"] == "resident"
    results = []

    def workload():
        for i in range(SAMPLES):
            pages = _page_list(params, rng)
            groups = pages_to_groups(pages, sub.rpt)
            sub.clear_cache()
            if resident:
                sub.warm_pages(pages)
            res = yield from sub.read(groups, list_prefetch=params["layout"] == "discontiguous")
            results.append(res)
            if i % 50 == 0:
                ctx.progress(i / SAMPLES)
            yield GAP_S

    eng.process(workload())
    eng.run()
    n = len(results)
    metrics = {k: sum(r.as_ms()[k] for r in results) / n
               for k in ("io_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms")}
    reports = (device_table(sub, eng.now), cache_table(sub), channel_activity(system, eng.now),
               rank_activity(system, eng.now))
    return RunResult("db2_io", params, ctx.seed, metrics, reports, ctx.trace,
                     components=system.component_figures(eng.now))


def _system(eng: Engine, params: dict, ctx: RunContext) -> tuple[IOSystem, str]:
    """The I/O system and the volume the I/O goes to: the drawing's, or one
    volume on one path made from the parameters."""
    cfg = ctx.config
    if cfg is None:
        cfg = one_volume_config("VOL0", device=params["device"], protocol=params["protocol"],
                                channel=params["channel"])
        return IOSystem(eng, cfg, ctx.trace, trace_names="legacy", seq_detect=False), "VOL0"
    from models.db2.runs import drawn_dataset
    from models.db2.dataset import DataSet
    vols = cfg.volumes_of(drawn_dataset(cfg, DataSet("TS1", params["table_pages"])))
    if not vols:
        raise ParamError("the DB2 data set is on no volume")
    return IOSystem(eng, cfg, ctx.trace, seq_detect=False), vols[0].name


EXPERIMENTS = [
    Experiment(
        "db2_io", "One DB2 I/O",
        "One DB2 read I/O of N pages through a channel and a DS8000-style "
        "control unit, split into PEND, DISC and CONN time.",
        DB2_IO_SCHEMA,
        (Metric("io_ms", "ms", "I/O response time", label="I/O response time"),
         Metric("pend_ms", "ms", "Channel and control unit start", label="PEND time"),
         Metric("disc_ms", "ms", "Disconnected: seek, rotation, staging", label="DISC time"),
         Metric("conn_ms", "ms", "Connected: data transfer", label="CONN time"),
         Metric("iosq_ms", "ms", "Queued on the device in z/OS", label="IOSQ time")),
        run),
]
