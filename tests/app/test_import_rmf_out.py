"""Issue 39: ``import-rmf --out`` that cannot be written is said before any report
is read (a DDS fetch can take minutes), in one line naming the file and why."""
from pathlib import Path

import pytest

from app.cli import main

FULL = Path(__file__).resolve().parents[1] / "data" / "rmf" / "sysa-0900-full.txt"


@pytest.mark.parametrize("out,why", [
    (".", "it is a folder, not a regular file"),
    ("no/such/folder/shop.zpl.json", "no folder"),
])
def test_an_unwritable_out_is_said_before_reading(tmp_path, monkeypatch, capsys, out, why):
    import app.rmf_cli as cli
    read = []
    monkeypatch.setattr(cli, "read", lambda args: read.append(args) or pytest.fail("read"))
    target = tmp_path / out
    assert main(["import-rmf", str(FULL), "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"zperflab: error: cannot write {target}: ") and why in err
    assert err.count("\n") == 1 and read == []


def test_a_storage_group_idle_in_the_interval_gets_no_workload(tmp_path, capsys):
    """Before: SGTSO's workload was written with io_rate 0.0, which ``run`` refused
    ("bad value for 'io_rate': 0.0 (out of range)")."""
    import json
    lines = FULL.read_text().splitlines()
    for k, ln in enumerate(lines):
        if ln.startswith(" SGTSO"):
            cells = ln.split()
            lines[k] = " ".join(cells[:7] + ["0.000"] * 9 + ["0.00", "0.00"] + cells[18:])
    src = tmp_path / "idle.txt"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "idle.zpl.json"
    assert main(["import-rmf", str(src), "--out", str(out), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)["assumptions"]
    assert any(a.startswith("I/O workload of SGTSO = none (assumed: 0 I/O per second in "
                            "interval 1") and "the group is drawn idle" in a for a in said)
    labels = [n["label"] for n in json.loads(out.read_text())["nodes"]]
    assert "SGTSO" in labels and "SGTSO I/O" not in labels and "SGDB2 I/O" in labels
    assert main(["run", "--scenario", str(out), "--set", "duration_s=0.1",
                 "--set", "cache_gb=0.1"]) == 0


def test_a_folder_that_takes_no_file_names_the_real_cause(capsys):
    """/proc: before, "the disk is full" (its file system reports no free block);
    a folder's permission bits do not tell for root or a read-only mount either."""
    assert main(["import-rmf", str(FULL), "--out", "/proc/shop.zpl.json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("zperflab: error: cannot write /proc/shop.zpl.json: ")
    assert "disk is full" not in err and err.count("\n") == 1


def test_a_group_busier_than_one_workload_runs_is_refused_not_written(tmp_path, capsys):
    """Two volumes at 150,000 I/O/s each (each a rate a volume may have): before,
    the file was written and 'run' refused its io_rate of 300,000."""
    text = FULL.read_text().replace("  245.301", "150000.0").replace("  198.220", "150000.0")
    src = tmp_path / "busy.txt"
    src.write_text(text)
    out = tmp_path / "busy.zpl.json"
    out.write_text("old")
    assert main(["import-rmf", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    line = next(k for k, ln in enumerate(text.splitlines(), 1) if "DB2001" in ln)
    assert err.startswith(f"zperflab: error: {src}:{line}: storage group 'SGDB2' in interval 1")
    assert "more than one workload of the model runs (200,000)" in err
    assert out.read_text() == "old"
