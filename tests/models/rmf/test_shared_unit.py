"""Several storage groups on one large-cache control unit: each fits, the last too."""
import subprocess
import sys
from pathlib import Path

import pytest

from models import experiments
from models.rmf import read_reports
from models.rmf.drawing import build
from models.rmf.measured import TABLE_TITLE

DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"
#: storage group, LCU, volumes, I/O per second per volume, read hit ratio, seq share:
#: three groups on one 64 GB unit (more than the warm start's page limit), random reads.
GROUPS = (("SGDB2", "0006", 8, 150.0, 0.90, 0.0), ("SGCICS", "0006", 8, 100.0, 0.95, 0.0),
          ("SGTSO", "0006", 8, 60.0, 0.96, 0.0))


@pytest.fixture(scope="module")
def shared_unit_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("rmf") / "shared.txt"
    code = ("import sys; sys.argv = ['x', sys.argv[1]]; import make_large_sample as m; "
            f"m.GROUPS = {GROUPS!r}; m.main()")
    subprocess.run([sys.executable, "-c", code, str(out)], cwd=DATA, check=True,
                   capture_output=True)
    system = read_reports([out])
    sc = build(system)
    for n in list(sc.nodes.values()):
        if n.kind == "wl_io":
            n.properties["duration_s"] = 4.0
        elif n.kind == "wl_cpu":
            sc.remove_node(n.id)
    return sc, experiments.run_experiment("custom", scenario=sc)


def test_every_group_on_a_shared_large_cache_unit_gets_its_measured_hit_ratio(shared_unit_run):
    """Before, the warm start handed the unit's pages out in canvas order: the
    first group took them all, the later ones started cold and their fit was
    replaced by the workload's defaults (an assumption said so)."""
    sc, result = shared_unit_run
    units = {n.properties.get("cache_gb") for n in sc.nodes.values() if n.kind.startswith("cu")}
    assert units == {64.0}
    said = [a["what"] for a in sc.to_dict()["imported"]["assumptions"]]
    assert not [w for w in said if w.startswith("working set and skew of")], said
    rows = {(r[0], r[1]): r for r in next(t for t in result.reports
                                          if t.title == TABLE_TITLE).rows}
    for group in ("SGDB2", "SGCICS", "SGTSO"):          # SGTSO is last on the unit
        _, _, measured, model, diff, _ = rows[group, "request hit ratio"]
        assert abs(diff) <= 0.03, (group, measured, model)
        _, _, measured, model, diff, _ = rows[group, "I/O rate /s"]
        assert abs(diff) <= 0.05 * measured, (group, measured, model)
