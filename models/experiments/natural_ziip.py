"""Experiment ``natural_ziip`` (case study D)."""
from __future__ import annotations

from models.experiments import Experiment
from models.params import Metric, Param, Schema

NATURAL_SCHEMA = Schema((
    Param("operation", "choice", "adabas_read",
          choices=("adabas_read", "print", "work_read", "sort", "fetch_programs"),
          help="What the Natural program does: read Adabas records, print "
               "lines, read a work file, sort records or fetch programs."),
    Param("records", "int", 10000, min=1, max=100_000_000,
          help="Records read, lines printed or records sorted (programs fetched)."),
    Param("multi_fetch", "int", 1, min=1, max=1000,
          help="Records per Adabas call. Each call is an SRB→TCB switch, so "
               "8 records per call means 8 times fewer switches."),
    Param("print_cache_kb", "int", 0, unit="KB", min=0, max=4096,
          help="PWCSIZE print buffer. 0: one write (one switch) per line; "
               "otherwise one flush per full buffer."),
    Param("work_cache_kb", "int", 0, unit="KB", min=0, max=4096,
          help="Work file cache buffer. 0: one switch per record."),
    Param("line_bytes", "int", 132, unit="bytes", min=1, max=32760,
          help="Length of a print line or work file record."),
    Param("sort", "choice", "external", choices=("external", "natural"),
          help="external: the z/OS sort program, several switches per record "
               "(SORTIN, SORTOUT); natural: Natural's internal sort."),
    Param("mt", "float", 60.0, unit="s", min=0.0, max=86400.0,
          help="MT, the CPU time limit: a timer request (a switch) at every "
               "program start. 0 sets no timer."),
    Param("thsize_kb", "int", 0, unit="KB", min=0, max=2_097_152,
          help="THSIZE: 0 gets thread storage piecemeal (a GETMAIN each "
               "time); a size gets it in one GETMAIN."),
    Param("calls_3gl", "int", 0, min=0, max=1000,
          help="3GL program calls per record; each always switches to TCB mode."),
))

EXPERIMENTS = [
    Experiment(
        "natural_ziip", "Natural on a zIIP",
        "A Natural session runs as an enclave SRB on a zIIP and switches to "
        "TCB mode on a general CP for every operating system service.",
        NATURAL_SCHEMA,
        (Metric("srb_switches", "", "SRB→TCB switches"),
         Metric("cpu_ms", "ms", "Total CPU time"),
         Metric("ziip_cpu_ms", "ms", "CPU time on zIIPs"),
         Metric("gcp_cpu_ms", "ms", "CPU time on general CPs")),
        None),
]
