"""import-rmf's last line tells what to do with the file: a drawing with no
workload (the real z/OS 2.5 channel answer alone: a CP and a FICON group) is
not offered to 'zperflab run', which refuses it, but said to need one."""
from pathlib import Path

from app.cli import main

DDS = Path(__file__).resolve().parents[2].parent / "shared" / "rmf" / "dds-zos25"
if not DDS.is_dir():                     # a worktree: the shared folder of the session
    DDS = Path("/work/shared/rmf/dds-zos25")


def _last_line(capsys, tmp_path, name):
    out = tmp_path / f"{name}.zpl.json"
    capsys.readouterr()
    assert main(["import-rmf", str(DDS / f"{name}.xml"), "--out", str(out)]) == 0
    return out, capsys.readouterr().out.splitlines()[-1]


def test_a_drawing_without_a_workload_is_not_offered_to_run(tmp_path, capsys):
    out, last = _last_line(capsys, tmp_path, "chan")
    assert "run it with" not in last
    assert last == (f"Wrote {out} (2 cards, RPRT); it has no workload to run: no report of "
                    "this interval gives one (a device, cache or CPU report does); add one "
                    f"with 'zperflab gui --open {out}'")
    assert main(["run", "--scenario", str(out)]) == 2        # what it would have met
    assert "needs a workload" in capsys.readouterr().err


def test_a_drawing_with_a_workload_is_offered_to_run(tmp_path, capsys):
    out, last = _last_line(capsys, tmp_path, "cpu")
    assert last.endswith(f"run it with: zperflab run --scenario {out}")
