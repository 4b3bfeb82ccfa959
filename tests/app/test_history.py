"""Run history: round trip, migration of an old file, WAL, and `zperflab history`."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.history import MIGRATIONS, SCHEMA_VERSION, History, HistoryError
from models.core.run import RunResult

ROOT = Path(__file__).resolve().parents[2]


def result(exp="db2_io", io_ms=0.98, seed=1):
    return RunResult(exp, {"pages": 32, "protocol": "zHPF"}, seed, {"io_ms": io_ms, "conn_ms": 0.4})


@pytest.fixture
def hist(tmp_path, monkeypatch):
    monkeypatch.setenv("ZPERFLAB_DATA_DIR", str(tmp_path))
    h = History()
    yield h
    h.close()


def test_round_trip_keeps_parameters_seed_and_metrics(hist, tmp_path):
    assert hist.path == tmp_path / "history.sqlite3"
    rid = hist.add(result(seed=7), scenario="E3 discontiguous", label="zHPF")
    rec = hist.get(rid)
    assert (rec.experiment, rec.seed, rec.scenario, rec.label) == ("db2_io", 7, "E3 discontiguous", "zHPF")
    assert rec.params == {"pages": 32, "protocol": "zHPF"}
    assert rec.metrics == {"io_ms": 0.98, "conn_ms": 0.4}
    back = rec.as_result()
    assert back.metrics["io_ms"] == 0.98 and back.params["pages"] == 32


def test_runs_list_newest_first_filter_and_delete(hist):
    a = hist.add(result("db2_io"))
    b = hist.add(result("spool_dump"))
    c = hist.add(result("db2_io", io_ms=2.4))
    assert [r.id for r in hist.runs()] == [c, b, a]
    assert [r.id for r in hist.runs("db2_io")] == [c, a]
    assert hist.delete(b) and not hist.delete(b)
    with pytest.raises(KeyError):
        hist.get(b)


def test_wal_mode_and_a_reader_sees_committed_runs(hist):
    assert hist._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    hist.add(result())
    reader = sqlite3.connect(hist.path)
    assert reader.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
    reader.close()


def test_a_version_1_file_is_migrated_and_keeps_its_runs(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO runs (created, experiment, params, seed, metrics) VALUES (?,?,?,?,?)",
               (1.0e9, "spool_dump", json.dumps({"program": "SPTAPE"}), 3,
                json.dumps({"elapsed_s": 12279.0})))
    db.commit()
    db.close()
    h = History(path)
    assert h.version == SCHEMA_VERSION == 3
    [old] = h.runs()
    assert (old.experiment, old.seed, old.scenario, old.label) == ("spool_dump", 3, "", "")
    assert old.metrics == {"elapsed_s": 12279.0}
    h.add(result())   # new columns usable after migration
    assert len(h.runs()) == 2
    h.close()


def test_a_file_from_a_newer_version_is_refused_with_one_line(tmp_path):
    path = tmp_path / "new.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(HistoryError, match="newer than"):
        History(path)


def test_cli_history_lists_runs(hist, tmp_path):
    hist.add(result(io_ms=0.983), changes=[{"component": "DB2V01", "property": "PAV aliases",
                                            "old": "0", "new": "8"}])
    env = {"ZPERFLAB_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "app", "history"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    # A run whose drawing changed from the case as opened is a what-if.
    assert "One DB2 I/O (what-if), seed 1: I/O response time 0.983 ms" in out.stdout
    assert "changed: DB2V01 PAV aliases: 0 → 8" in out.stdout
    out = subprocess.run([sys.executable, "-m", "app", "history", "--json"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert json.loads(out.stdout)[0]["metrics"]["io_ms"] == 0.983
    assert json.loads(out.stdout)[0]["changes"][0]["new"] == "8"
