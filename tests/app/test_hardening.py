"""Issue 18: every bad input gets one clear line, nothing is lost.

Each test names the numbered failure of the issue it guards; each failed on
the code before the fix.
"""
import errno
import json
import os
import re
import stat

import pytest

from app import atomic, scenario_io
from app.cli import main
from app.scenario_io import ScenarioFileError
from models import experiments
from models.studies import calibration
from models.core.params import ParamError


def _doc(**over):
    doc = scenario_io.to_document(scenario_io.load_case("db2_io"))
    doc.update(over)
    return doc


def _write(tmp_path, doc, name="s.zpl.json"):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def _one_line_error(path, needle):
    with pytest.raises(ScenarioFileError) as info:
        scenario_io.load(path)
    text = str(info.value)
    assert "\n" not in text and len(text) < 400, text
    assert needle in text, text
    return text


# ---- 3. mutated scenario files crash the loader ------------------------------------
@pytest.mark.parametrize("experiment", [{}, [], 5, True])
def test_3_experiment_of_the_wrong_type_is_one_line(tmp_path, experiment):
    _one_line_error(_write(tmp_path, _doc(experiment=experiment)), "'experiment' must be")


@pytest.mark.parametrize("ident", ["n²", "n" + "7" * 5000, "l٣", "n 1", "vol-1.a_b:2"])
def test_3_odd_ids_open_or_are_refused_cleanly(tmp_path, ident):
    doc = _doc()
    old = doc["nodes"][0]["id"]
    doc["nodes"][0]["id"] = ident
    for ln in doc["links"]:
        for end in ("source", "target"):
            if ln[end] == old:
                ln[end] = ident
    path = _write(tmp_path, doc)
    if ident != "vol-1.a_b:2":
        # "n²" reached int() (ValueError) in the loader and in the run path
        _one_line_error(path, "an id must be 1–64 characters of A–Z")
        return
    sc = scenario_io.load(path)
    assert ident in sc.nodes and sc.new_id() not in sc.nodes
    experiments.run_experiment("db2_io", {}, scenario=sc)


def test_3_odd_ids_from_other_sources_do_not_reach_int():
    from models.drawing.scenario import Node, Scenario
    sc = Scenario()
    for i, ident in enumerate(("n²", "n" + "7" * 5000, "l٣")):
        sc.add_node(Node(ident, "cpu_cp", f"CP {i + 1}"))
    assert len(sc.to_dict()["nodes"]) == 3 and sc.new_id() == "n1"


def test_3_deep_nesting_is_one_line(tmp_path):
    _one_line_error(_write(tmp_path, "[" * 5000 + "]" * 5000), "nested")
    doc = _doc()
    deep: list = []
    for _ in range(100):
        deep = [deep]
    doc["nodes"][0]["properties"]["extra"] = deep
    _one_line_error(_write(tmp_path, doc), "nested")


def test_3_huge_integer_position_is_one_line(tmp_path):
    doc = _doc()
    text = re.sub(r'"x": [-0-9.e]+', '"x": ' + "9" * 400, json.dumps(doc), count=1)
    assert "9" * 400 in text
    _one_line_error(_write(tmp_path, text), "position")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_3_non_finite_numbers_are_refused(tmp_path, literal):
    text = re.sub(r'"x": [-0-9.e]+', f'"x": {literal}', json.dumps(_doc()), count=1)
    assert literal in text
    _one_line_error(_write(tmp_path, text), "not valid JSON")


def test_3_devices_and_fifos_are_refused_not_read(tmp_path):
    _one_line_error("/dev/zero", "not a regular file")
    fifo = tmp_path / "pipe.zpl.json"
    os.mkfifo(fifo)
    _one_line_error(fifo, "not a regular file")          # used to hang for ever
    _one_line_error(tmp_path, "not a regular file")


def test_3_oversized_file_is_refused_before_reading(tmp_path, monkeypatch):
    from models.drawing import documents
    monkeypatch.setattr(documents, "MAX_FILE_BYTES", 1000)
    big = _write(tmp_path, _doc(title="x" * 1000))
    _one_line_error(big, "too large")


def test_3_schema_messages_name_the_part(tmp_path):
    doc = _doc()
    doc["nodes"][0]["label"] = 5
    _one_line_error(_write(tmp_path, doc), "'label' must be text")


# ---- 6. lone surrogates ----------------------------------------------------------
def test_6_lone_surrogate_title_is_refused_on_open_and_save(tmp_path):
    text = json.dumps(_doc(title="ab\ud800cd"))
    assert "\\ud800" in text
    _one_line_error(_write(tmp_path, text), "lone surrogate")
    sc = scenario_io.load_case("db2_io")
    sc.title = "typed\udc80"
    with pytest.raises(ScenarioFileError, match="lone surrogate.*unchanged"):
        scenario_io.save(sc, tmp_path / "x.zpl.json")
    assert not list(tmp_path.glob("x.zpl.json*")) and not list(tmp_path.glob(".x*"))


# ---- 7. numbers ------------------------------------------------------------------
@pytest.mark.parametrize("pct", [float("nan"), float("inf"), 1e308, -1, 101, True, "x"])
def test_7_mix_takes_finite_percentages_only(pct):
    with pytest.raises(ParamError, match="mix"):
        experiments.get("vsam_rls").resolve({"mix": {"read": 50, "update": pct}})


def test_7_huge_integer_for_every_float_parameter_is_a_param_error():
    count = 0
    for exp in experiments.registry().values():
        for p in exp.schema.params:
            if p.kind in ("float", "int"):
                with pytest.raises(ParamError, match=p.name):
                    p.coerce(10 ** 400)
                with pytest.raises(ParamError, match=p.name):
                    p.coerce("1" + "0" * 400 + ".5")
                count += p.kind == "float"
    assert count >= 15


@pytest.mark.parametrize("data", [
    {"targets": [5]}, {"targets": [None]}, {"targets": [[]]}, {"targets": "x"}, [],
    {"targets": [{"id": 1, "experiment": "db2_io", "params": {}, "metric": "m",
                  "expect": {"value": 1, "rel_tol": 0.1}}]},
    {"targets": [{"id": "a", "experiment": "db2_io", "params": [], "metric": "m",
                  "expect": {"value": 1, "rel_tol": 0.1}}]},
    {"targets": [{"id": "a", "experiment": "db2_io", "params": {}, "metric": "m",
                  "expect": {"value": 1}}]},
    {"targets": [{"id": "a", "experiment": "db2_io", "params": {}, "metric": "m",
                  "expect": 3}]},
    {"targets": [{"id": "a", "experiment": {}, "params": {}, "metric": "m",
                  "expect": {"min": 1}}]},
])
def test_7_malformed_targets_are_one_line(tmp_path, capsys, data):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    with pytest.raises(calibration.TargetsError):
        calibration.load_targets(path)
    assert main(["validate", "--targets", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_7_target_numbers_must_be_finite(tmp_path):
    for literal in ("1e400", "NaN", "9" * 400):
        path = tmp_path / "t.json"
        path.write_text('{"targets": [{"id": "a", "experiment": "db2_io", "params": {}, '
                        '"metric": "m", "expect": {"value": %s, "rel_tol": 0.1}}]}' % literal)
        with pytest.raises(calibration.TargetsError):
            calibration.load_targets(path)


# ---- 9. saving -------------------------------------------------------------------
def test_9_save_keeps_mode_and_symlink(tmp_path):
    real = tmp_path / "real.zpl.json"
    scenario_io.save(scenario_io.load_case("db2_io"), real)
    os.chmod(real, 0o644)
    link = tmp_path / "link.zpl.json"
    link.symlink_to(real)
    sc = scenario_io.load_case("db2_io")
    sc.title = "changed through the link"
    scenario_io.save(sc, link)
    assert link.is_symlink()
    assert scenario_io.load(real).title == "changed through the link"
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.zpl.json", "real.zpl.json"]


def test_9_stale_temp_files_of_a_killed_writer_are_cleaned(tmp_path):
    target = tmp_path / "a.zpl.json"
    dead = tmp_path / f".a.zpl.json.{2 ** 22 + 12345}-deadbeef{atomic.TMP_SUFFIX}"
    dead.write_text("half")
    mine = tmp_path / f".a.zpl.json.{os.getpid()}-cafef00d{atomic.TMP_SUFFIX}"
    mine.write_text("in progress")
    other = tmp_path / ".a.zpl.json.notours.tmp"
    other.write_text("someone else's")
    scenario_io.save(scenario_io.load_case("db2_io"), target)
    assert not dead.exists() and mine.exists() and other.exists()


def test_9_file_and_folder_are_fsynced(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def spy(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)
    monkeypatch.setattr(os, "fsync", spy)
    scenario_io.save(scenario_io.load_case("db2_io"), tmp_path / "s.zpl.json")
    assert synced == [False, True]


def test_9_full_disk_is_called_a_full_disk(tmp_path, monkeypatch, qapp):
    from PySide6.QtGui import QImage

    from app import export

    class Full:
        f_bavail = 0
    monkeypatch.setattr(atomic.os, "statvfs", lambda p: Full())
    image = QImage(10, 10, QImage.Format.Format_ARGB32)

    def short_write(fd, chunk):      # the system takes part of it, then nothing
        return 0
    monkeypatch.setattr(atomic, "_write_chunk", short_write)
    with pytest.raises(export.ExportError) as info:
        export.atomic_write(tmp_path / "c.png", export.png_bytes(image))
    assert "disk is full" in str(info.value) and "c.png" in str(info.value)
    assert ".tmp" not in str(info.value) and not list(tmp_path.iterdir())

    def enospc(tmp):
        raise OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(atomic.WriteError, match="disk is full"):
        atomic.write(tmp_path / "d.csv", enospc)
