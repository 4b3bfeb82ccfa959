"""Writes the built-in example ``resources/scenarios/rmf_sysa.json``: the sample
reports of this folder imported as ``zperflab import-rmf`` imports them, with
two classroom changes, each stated in the file's assumptions:

* 256 MB of cache per control unit instead of the 64 GB the reports give, so
  the fit sizes each working set for that cache and a run warms in a second
  (the lessons ``rmf_read_reports`` and ``rmf_whatif_baseline`` open it);
* 10 s of simulated I/O per workload instead of 2 s, so that a small group's
  figures are not short-run noise (SGTSO does about 48 I/Os a second).

Run it again after a change to the readers or the workload fit:

    python tests/data/rmf/make_example.py
"""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = "tests/data/rmf/sysa-0900-full.txt"
OUT = ROOT / "resources" / "scenarios" / "rmf_sysa.json"
CACHE_MB = 256.0
DURATION_S = 10.0
TITLE = ("Imported from RMF: SYSA, 09:00–09:15 from the sample reports, on small caches "
         "(2 storage groups, 2 control units)")


def build():
    from models.rmf import read_reports
    from models.rmf.drawing import build as draw

    os.chdir(ROOT)                  # the file names the reports by their path in the repo
    system = read_reports([SAMPLE])
    measured_gb = {u.ssid: u.cache_mb for u in system.interval.cache_units.values()}
    for unit in system.interval.cache_units.values():
        unit.cache_mb = CACHE_MB
    sc = draw(system, run_s=DURATION_S)     # the workloads are fitted to run that long
    sc.title = TITLE
    for n in sc.nodes.values():
        if n.kind == "wl_cpu":
            n.properties["duration_s"] = DURATION_S
    lines = [i + 1 for i, text in enumerate(Path(SAMPLE).read_text().splitlines())
             if "CONFIGURED" in text]
    sc.imported["assumptions"] = [
        {"what": f"cache of SSID {ssid}", "value": f"{CACHE_MB:g} MB",
         "why": f"a classroom example: the report gives {mb:g} MB; a small cache warms in "
                "a second, and the workloads are fitted to it", "file": SAMPLE,
         "line": lines[i] if i < len(lines) else None}
        for i, (ssid, mb) in enumerate(sorted(measured_gb.items()))
    ] + [{"what": "run length", "value": f"{DURATION_S:g} s per workload",
          "why": "a classroom example: the import's 2 s would leave a small group's figures "
                 "to short-run noise (SGTSO does about 48 I/Os a second)",
          "file": None, "line": None}] \
        + [a for a in sc.imported["assumptions"] if a["what"] != "run length"]
    return sc


def main() -> None:
    from app import scenario_io

    scenario_io.save(build(), OUT)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
