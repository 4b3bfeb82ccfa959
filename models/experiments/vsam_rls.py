"""Experiment ``vsam_rls``: CICS VSAM file requests under LSR or RLS (case study B).

The model lives in :mod:`models.cics` (regions, file control, CF, logger) and
:mod:`models.vsam` (KSDS, buffers, DASD, costs); see docs/model-vsam.md.
"""
from __future__ import annotations

from models import cics
from models.experiments import Experiment
from models.core.params import Metric, Param, ParamError, Schema
from models.core.run import RunContext, RunResult, Table

REQUEST_TYPES = ("read", "read_update", "update", "add", "delete", "browse")

VSAM_SCHEMA = Schema((
    Param("mode", "choice", "RLS", choices=("LSR", "RLS"), group="dataset",
          label="Access mode", help="LSR: one CICS region owns the file with local buffers. RLS: "
               "record level sharing through SMSVSAM, with coupling facility "
               "locks and caches."),
    Param("mix", "mix", {"read": 69, "read_update": 10, "update": 9, "add": 11,
                         "delete": 1, "browse": 0},
          unit="%", choices=REQUEST_TYPES, group="workload",
          label="Request mix", help="Percentages of each file request type."),
    Param("requests_per_tran", "int", 6, min=1, max=1000, group="workload",
          label="File requests per transaction", help="File requests per transaction. Every request is simulated: the run's "
               "cost grows with transactions × requests (1,000 per transaction over "
               "10,000 transactions takes minutes)."),
    Param("log", "choice", "UNDO", choices=("NONE", "UNDO", "ALL"), group="dataset",
          label="Recovery logging", help="Recovery logging: NONE, UNDO (backout to DFHLOG) or ALL (also "
               "forward-recovery journaling)."),
    Param("threadsafe", "bool", False, group="workload",
          label="Threadsafe programs", help="Threadsafe transactions: CICS does not record RLS file wait "
               "time for them, though the time is still spent."),
    Param("transactions", "int", 10000, min=1, max=10_000_000, group="workload",
          label="Transactions", help="Transactions to run, each simulated: 10,000 take about a second, the "
               "maximum of 10 million takes hours."),
    Param("regions", "int", 1, min=1, max=32, group="processor",
          label="CICS regions", help="CICS regions sharing the file (RLS lets several update it; "
               "under LSR the others function ship to one file-owning region)."),
    Param("tran_rate", "float", 50.0, unit="/s", min=0.1, max=100000, group="workload",
          label="Transaction rate", help="Transactions arriving per second in each region (Poisson)."),
    Param("records", "int", 100_000, min=1, max=10_000_000, group="dataset",
          label="Records in the file", help="Records in the KSDS."),
    Param("record_bytes", "int", 250, unit="bytes", min=1, max=4086, group="dataset",
          label="Record length", help="Fixed record length (4 KB data CIs)."),
    Param("buffers", "int", 4000, min=1, max=1_000_000, group="dataset",
          label="LSR buffers", help="4 KB data buffers: the LSR pool, or the SMSVSAM local buffers "
               "of each z/OS image under RLS."),
    Param("cf_cache_mb", "float", 8.0, unit="MB", min=0.004, max=100000, group="dataset",
          label="CF cache structure", help="Size of the RLS cache structure in the coupling facility."),
    Param("key_skew", "float", 3.0, min=1.0, max=10.0, group="workload",
          label="Key skew", help="Popularity skew of the keys: the top fraction f of records gets "
               "f^(1/skew) of the requests (1 = uniform)."),
    Param("side_by_side", "bool", False, group="workload",
          label="Run LSR and RLS side by side",
          help="Also run the same transactions in the other access mode (same seed) and "
               "report both: the run takes twice as long."),
))


def run(params: dict, ctx: RunContext) -> RunResult:
    """Simulate the CICS regions and the file; see :mod:`models.cics`.

    Parameters
    ----------
    params : dict
        Resolved parameters.
    ctx : RunContext
        Seed, trace, progress and cancel.

    Returns
    -------
    RunResult
    """
    if params["requests_per_tran"] * params["transactions"] > 200_000_000:
        raise ParamError("transactions × requests_per_tran is over 200,000,000 requests; "
                         "run fewer transactions")
    both = bool(params.get("side_by_side"))
    progress = (lambda f: ctx.progress(f / 2)) if both else ctx.progress
    sp = cics.simulate(params, ctx.seed, ctx.trace, progress, ctx.config)
    elapsed = sp.engine.now
    system = sp.volume.system
    metrics = cics.metrics(sp)
    sides: tuple[Table, ...] = ()
    if both:
        other_mode = "LSR" if params["mode"] == "RLS" else "RLS"
        other = cics.simulate({**params, "mode": other_mode}, ctx.seed, None,
                              lambda f: ctx.progress(0.5 + f / 2), ctx.config)
        sides = (_sides({params["mode"]: metrics, other_mode: cics.metrics(other)}),)
    return RunResult(experiment="vsam_rls", params=params, seed=ctx.seed,
                     metrics=metrics,
                     reports=(*cics.tables(sp), *system.reports(elapsed), *sides),
                     trace=ctx.trace, components=system.component_figures(elapsed))


def _sides(by_mode: dict) -> Table:
    """Both access modes' figures for one table (and the side-by-side chart):
    a transaction's response split into file requests, log writes and the
    rest, and the mean file request time."""
    cols = {}
    for mode in ("LSR", "RLS"):
        m = by_mode[mode]
        file_ms, log_ms = m["file_wait_true_ms"], m["log_ms"]
        cols[mode] = (file_ms, log_ms, max(0.0, m["tran_resp_ms"] - file_ms - log_ms),
                      m["tran_resp_ms"], m["file_resp_ms"], m["cf_requests_per_tran"])
    names = ("file requests", "log writes", "everything else", "transaction response",
             "file request time", "CF requests per transaction")
    rows = tuple((n, round(cols["LSR"][i], 4), round(cols["RLS"][i], 4))
                 for i, n in enumerate(names))
    return Table("LSR and RLS side by side", ("figure (ms per transaction)", "LSR", "RLS"), rows,
                 note="the same transactions and seed in each mode; file request time is per "
                      "request, CF requests a count")


EXPERIMENTS = [
    Experiment(
        "vsam_rls", "CICS VSAM with and without RLS",
        "CICS transactions issue VSAM file requests under LSR or RLS.",
        VSAM_SCHEMA,
        (Metric("file_resp_ms", "ms", label="File request time", help="Mean file request service time (true elapsed)"),
         Metric("tran_resp_ms", "ms", label="Transaction response", help="Mean transaction response time"),
         Metric("file_wait_ms", "ms", label="File wait per transaction", help="File wait time per transaction as CICS "
                "reports it (no RLS wait for threadsafe tasks)"),
         Metric("cf_requests", "", label="CF requests", help="Coupling facility requests"),
         # The figures that explain them (models/cics/report.py), titled as
         # the transaction summary names them.
         Metric("file_wait_true_ms", "ms", label="File wait actually spent",
                help="File wait time per transaction as it elapsed (RLS waits included)"),
         Metric("log_ms", "ms", label="Log writes per transaction",
                help="Time per transaction spent writing the system and forward-recovery logs"),
         Metric("lock_wait_ms", "ms", label="Lock waits per transaction",
                help="Time per transaction waiting for record locks held by other transactions"),
         Metric("cf_requests_per_tran", "", label="CF requests per transaction",
                help="Coupling facility requests per transaction"),
         Metric("buffer_hit_pct", "%", label="Buffer hits",
                help="VSAM data buffer look-ups found in the LSR or RLS buffer pool"),
         Metric("dasd_ios_per_tran", "", label="DASD I/Os per transaction",
                help="Reads and writes to the data set's volume per transaction"),
         Metric("deadlock_retries", "", label="Deadlock retries",
                help="Transactions backed out after a deadlock and run again")),
        run),
]
