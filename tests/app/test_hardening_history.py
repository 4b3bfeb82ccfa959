"""Issue 18, items 1, 5, 6 and 10: the run history never stops or blocks the app."""
import json
import sqlite3
import threading
import time

import pytest

from app import history as history_mod
from app.cli import main
from app.history import History, HistoryError
from models.core.run import RunResult


def result(exp="db2_io", seed=1, metric=0.98):
    return RunResult(exp, {"pages": 32}, seed, {"io_ms": metric})


def _filled(path, n=40):
    h = History(path)
    for i in range(n):
        h.add(result(metric=i), scenario=json.dumps({"pad": "x" * 3000, "i": i}), label=f"r{i}")
    h.close()
    return path


def damage_garbage(path):
    path.write_bytes(b"this was never a database\x00" * 400)


def damage_page(path):
    _filled(path)
    data = bytearray(path.read_bytes())
    assert len(data) > 16 * 4096
    for at in range(3 * 4096, 3 * 4096 + 2 * 4096, 7):   # pages 4 and 5: b-tree pages
        data[at] = 0xA5
    path.write_bytes(bytes(data))


def damage_row(path):
    _filled(path, 3)
    db = sqlite3.connect(path)
    db.execute("UPDATE runs SET params = '{not json' WHERE id = 2")
    db.commit()
    db.close()


DAMAGES = {"not a database": damage_garbage, "damaged page": damage_page,
           "bad row": damage_row}


@pytest.mark.parametrize("how", DAMAGES)
def test_1_history_api_survives_damage(tmp_path, how):
    path = tmp_path / history_mod.DB_NAME
    DAMAGES[how](path)
    h = History(path)
    runs = h.runs()
    if how == "bad row":
        assert [r.id for r in runs] == [3, 1] and h.skipped == {2}
        assert "could not be read" in h.skipped_message() and not h.notice
    else:
        assert runs == [] and "damaged" in h.notice
        aside = [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name]
        assert aside and aside[0].startswith("history.sqlite3.damaged-")
    new = h.add(result("spool_dump"))
    assert h.get(new).experiment == "spool_dump"
    h.close()


@pytest.mark.parametrize("how", DAMAGES)
def test_1_cli_history_lists_and_says_so_once(tmp_path, monkeypatch, capsys, how):
    monkeypatch.setenv("ZPERFLAB_DATA_DIR", str(tmp_path))
    DAMAGES[how](tmp_path / history_mod.DB_NAME)
    assert main(["history"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert main(["history"]) == 0
    err = capsys.readouterr().err
    assert ("could not be read" in err) == (how == "bad row") and "damaged" not in err


@pytest.mark.parametrize("how", DAMAGES)
def test_1_app_starts_says_so_once_and_records_new_runs(qtbot, monkeypatch, how):
    from ui.main_window import MainWindow

    DAMAGES[how](history_mod.data_dir() / history_mod.DB_NAME)
    said = []
    monkeypatch.setattr(MainWindow, "alert", lambda self, title, text: said.append(text))
    win = MainWindow()                      # raised inside MainWindow() before: exit 134
    qtbot.addWidget(win)
    try:
        assert len(said) == 1, said
        assert ("damaged" in said[0]) or ("could not be read" in said[0])
        before = len(win.study.history.runs())
        # a finished run reaches the history through the document (app/document.py)
        win.document.set_result(result("natural_ziip"), win.document.snapshot())
        assert win.study.history.flush(10)
        runs = win.study.history.runs()
        assert len(runs) == before + 1 and runs[0].experiment == "natural_ziip"
        assert len(said) == 1
    finally:
        win.shutdown()


class _Hook:
    """A connection that lets another instance open the file the first time
    this one reads the schema version: the race of two instances starting."""

    def __init__(self, db, on_version):
        self._db, self._on_version = db, on_version

    def execute(self, sql, *args):
        if "user_version" in sql and "=" not in sql and self._on_version:
            hook, self._on_version = self._on_version, None
            hook()
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def test_5_two_instances_migrating_at_once_both_record(tmp_path, monkeypatch):
    path = tmp_path / "h.sqlite3"
    other: list = []
    real_connect = sqlite3.connect
    calls = {"n": 0}

    def connect(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == 1:      # the first instance's connection
            return _Hook(db, lambda: other.append(History(path)))
        return db
    monkeypatch.setattr(history_mod.sqlite3, "connect", connect)
    first = History(path)       # "table runs already exists" before: recorded nothing
    monkeypatch.setattr(history_mod.sqlite3, "connect", real_connect)
    assert first.version == other[0].version == history_mod.SCHEMA_VERSION
    a, b = first.add(result()), other[0].add(result())
    assert {r.id for r in first.runs()} == {a, b}
    first.close()
    other[0].close()


def test_5_many_instances_on_a_fresh_file(tmp_path):
    for round_ in range(5):
        path = tmp_path / f"h{round_}.sqlite3"
        barrier = threading.Barrier(6)
        errors, made = [], []

        def open_and_record():
            barrier.wait()
            try:
                h = History(path)
                h.add(result())
                made.append(h)
            except HistoryError as exc:
                errors.append(str(exc))
        threads = [threading.Thread(target=open_and_record) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert errors == []
        assert all(h.flush(20) for h in made)       # adds that met a lock finish now
        assert len(made[0].runs()) == 6
        for h in made:
            h.close()


def test_6_lone_surrogate_label_is_recorded(tmp_path):
    h = History(tmp_path / "h.sqlite3")
    rid = h.add(result(), scenario=json.dumps({"title": "a\ud800"}), label="title \ud800 here")
    assert rid is not None and "\\ud800" in h.get(rid).label
    h.close()


def test_10_locked_history_never_blocks_the_caller(tmp_path):
    path = tmp_path / "h.sqlite3"
    h = History(path)
    h.add(result())
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    t0 = time.monotonic()
    assert h.add(result("spool_dump")) is None          # queued, not waited for
    assert time.monotonic() - t0 < 0.5                  # was 5 s and a HistoryError
    locker.execute("COMMIT")
    locker.close()
    assert h.flush(10)
    assert [r.experiment for r in h.runs()] == ["spool_dump", "db2_io"]
    assert h.problems == []
    h.close()


def test_10_history_limit_must_be_positive(capsys):
    for bad in ("-5", "0", "abc", "9" * 400):
        with pytest.raises(SystemExit) as info:
            main(["history", "--limit", bad])
        assert info.value.code == 2
        assert "--limit" in capsys.readouterr().err
