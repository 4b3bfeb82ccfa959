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
