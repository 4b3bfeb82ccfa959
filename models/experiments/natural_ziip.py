"""Experiment ``natural_ziip`` (case study D): a Natural session on a zIIP.

The run builds a :class:`~models.cpu.ProcessorComplex`, turns the
``operation`` into a small Natural program (:func:`models.natural.program_for`)
and runs it as an enclave SRB under its workload card's label; switch
counts and CPU times come from the complex's accounting (docs/model-cpu.md).
"""
from __future__ import annotations

from models.cpu import ProcessorComplex
from models.engine import Engine
from models.experiments import Experiment
from models.natural import NaturalSession, Profile, program_for
from models.natural.session import NATURAL
from models.core.params import Metric, Param, Schema
from models.core.run import RunContext, RunResult, Table

NATURAL_SCHEMA = Schema((
    Param("operation", "choice", "adabas_read",
          choices=("adabas_read", "print", "work_read", "sort", "fetch_programs"),
          label="Operation", help="What the Natural program does: read Adabas records, print "
               "lines, read a work file, sort records or fetch programs."),
    Param("records", "int", 10000, min=1, max=100_000_000,
          label="Records", help="Records read, lines printed or records sorted (programs fetched)."),
    Param("multi_fetch", "int", 1, min=1, max=1000,
          label="Records per Adabas call", help="Records per Adabas call. Each call is an SRB→TCB switch, so "
               "8 records per call means 8 times fewer switches."),
    Param("print_cache_kb", "int", 0, unit="KB", min=0, max=4096,
          label="Print buffer (PWCSIZE)", help="PWCSIZE print buffer. 0: one write (one switch) per line; "
               "otherwise one flush per full buffer."),
    Param("work_cache_kb", "int", 0, unit="KB", min=0, max=4096,
          label="Work file cache", help="Work file cache buffer. 0: one switch per record."),
    Param("line_bytes", "int", 132, unit="bytes", min=1, max=32760,
          label="Line length", help="Length of a print line or work file record."),
    Param("sort", "choice", "external", choices=("external", "natural"),
          label="Sort", help="external: the z/OS sort program, several switches per record "
               "(SORTIN, SORTOUT); natural: Natural's internal sort."),
    Param("mt", "float", 60.0, unit="s", min=0.0, max=86400.0,
          label="CPU time limit (MT)", help="MT, the CPU time limit: a timer request (a switch) at every "
               "program start. 0 sets no timer."),
    Param("thsize_kb", "int", 0, unit="KB", min=0, max=2_097_152,
          label="Thread size (THSIZE)", help="THSIZE: 0 gets thread storage piecemeal (a GETMAIN each "
               "time); a size gets it in one GETMAIN."),
    Param("calls_3gl", "int", 0, min=0, max=1000,
          label="3GL calls per record", help="3GL program calls per record; each always switches to TCB mode."),
    Param("gcps", "int", 2, min=1, max=200, group="processor",
          label="General CPs", help="General CPs: run TCB work, the switches back to SRB mode and, "
               "when zIIPs are busy and help is on, zIIP-eligible work."),
    Param("ziips", "int", 1, min=0, max=200, group="processor",
          label="zIIPs", help="zIIPs: run only enclave SRB work. 0: everything runs on CPs."),
    Param("ziip_help", "bool", True, group="processor",
          label="zIIP help (IIPHONORPRIORITY)", help="IIPHONORPRIORITY=YES: a free general CP runs zIIP-eligible work "
               "when every zIIP is busy."),
    Param("background_util", "float", 0.0, min=0.0, max=0.95, group="processor",
          label="Other work on each engine", help="Fraction of every engine's time taken by other work; delays "
               "dispatch (elapsed time), not the session's CPU time."),
))

def run(params: dict, ctx: RunContext) -> RunResult:
    """Run the Natural program of ``params['operation']`` (see module docstring)."""
    profile = Profile(mt=params["mt"], multi_fetch=params["multi_fetch"],
                      print_cache_kb=params["print_cache_kb"],
                      work_cache_kb=params["work_cache_kb"], sort=params["sort"],
                      thsize_kb=params["thsize_kb"])
    program = program_for(params["operation"], params["records"], params["line_bytes"],
                          params["calls_3gl"])
    engine = Engine(seed=ctx.seed)
    # The processors drawn on the canvas are the complex (names, speeds);
    # without a drawing, the counts in the parameters.
    drawn = ctx.config.processors if ctx.config is not None else None
    cpx = ProcessorComplex(engine, gcps=params["gcps"], ziips=params["ziips"],
                           ziip_help=params["ziip_help"],
                           background_util=params["background_util"], trace=ctx.trace,
                           engines=drawn)
    session = NaturalSession(cpx, profile, progress=ctx.progress, name=session_name(ctx.config))

    def main():
        yield from session.run(program)
        cpx.close()

    engine.process(main(), "natural")
    engine.run()
    acc = cpx.account
    cpu = acc.us()
    metrics = {"srb_switches": float(acc.srb_to_tcb), "cpu_ms": cpu / 1000,
               "ziip_cpu_ms": acc.us("ziip") / 1000, "gcp_cpu_ms": acc.us("gcp") / 1000,
               "elapsed_ms": session.end_time * 1000,
               "ziip_share": acc.us("ziip") / cpu if cpu else 0.0}
    return RunResult("natural_ziip", params, ctx.seed, metrics,
                     reports=(acc.table(), acc.cause_table(), _engine_table(cpx, session.end_time)),
                     trace=ctx.trace, components=engine_figures(cpx, session.end_time))


def session_name(config) -> str:
    """The label of the Natural workload's card on the canvas: the name the
    session's own CPU is charged to in the results (``Natural`` undrawn)."""
    for workload in getattr(config, "workloads", None) or ():
        if workload.kind == "wl_natural":
            return workload.name
    return NATURAL


def engine_figures(cpx: ProcessorComplex, elapsed_s: float) -> dict:
    """``{engine name: {"busy_pct": …}}`` for the run's components."""
    out = {}
    for pool in (cpx.ziip, cpx.gcp):
        for name, busy in zip(pool.names, pool.busy_us):
            out[name] = {"busy_pct": 100.0 * busy / (elapsed_s * 1e6) if elapsed_s > 0 else 0.0}
    return out


def _engine_table(cpx: ProcessorComplex, elapsed_s: float) -> Table:
    """Per-engine busy time for the session (RMF CPU activity style)."""
    rows = []
    for pool in (cpx.ziip, cpx.gcp):
        for name, busy, in zip(pool.names, pool.busy_us):
            share = busy / (elapsed_s * 1e6) if elapsed_s > 0 else 0.0
            rows.append((name, round(busy / 1000, 3), round(100 * share, 1)))
    return Table("CPU activity (this session)", ("engine", "busy ms", "busy %"),
                 tuple(rows), note=f"{cpx.gcp.delayed + cpx.ziip.delayed} dispatches delayed")


EXPERIMENTS = [
    Experiment(
        "natural_ziip", "Natural on a zIIP",
        "A Natural session runs as an enclave SRB on a zIIP and switches to "
        "TCB mode on a general CP for every operating system service.",
        NATURAL_SCHEMA,
        (Metric("srb_switches", "", label="SRB→TCB switches", help="SRB→TCB switches"),
         Metric("cpu_ms", "ms", label="CPU time", help="Total CPU time"),
         Metric("ziip_cpu_ms", "ms", label="zIIP CPU time", help="CPU time on zIIPs"),
         Metric("gcp_cpu_ms", "ms", label="General CP CPU time", help="CPU time on general CPs"),
         Metric("elapsed_ms", "ms", label="Elapsed time", help="Elapsed time of the program"),
         Metric("ziip_share", "", label="zIIP share of CPU", help="Fraction of the CPU time spent on zIIPs")),
        run),
]
