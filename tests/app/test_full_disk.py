"""Every file the app writes, on a disk that fills part-way, at an odd target.

The disk is filled by replacing the one system write of :mod:`app.atomic`
with one that takes part of the data and then fails with ENOSPC, exactly
what a nearly full file system does. Each writer must leave the old file
as it was, leave no temporary file, and say "the disk is full" in one line
(a command exits non-zero). A symlink to ``/dev/full``, a FIFO and a folder
are refused before anything runs; a 245-character name can be written.
"""
from __future__ import annotations

import errno
import os
import stat

import numpy as np
import pytest

from models.core.params import shorten

from app import atomic, cli, clip_encode, scenario_io
from app.clip_encode import write_clips

OLD = b"last week's file, still wanted"


@pytest.fixture
def full_disk(monkeypatch):
    """Writes take the first 100 bytes (at most half the data), then ENOSPC."""
    room = [100]

    def chunk(fd, data):
        if room[0] <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = min(room[0], max(1, len(data) // 2))
        room[0] -= n
        return os.write(fd, data[:n])
    monkeypatch.setattr(atomic, "_write_chunk", chunk)


def _only(folder, name):
    assert sorted(os.listdir(folder)) == [name], "a temporary or half file was left"


def _export(capsys, *argv) -> tuple[int, list[str]]:
    code = cli.main(["export", *map(str, argv)])
    return code, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("ext", ["png", "svg", "csv", "pptx"])
def test_export_on_a_full_disk_keeps_the_old_file(qapp, tmp_path, capsys, full_disk, ext):
    out = tmp_path / f"keep.{ext}"
    out.write_bytes(OLD)
    code, err = _export(capsys, "db2_io", out)
    assert code == 1
    assert err == [f"zperflab: error: cannot write {out}: {atomic.DISK_FULL}"]
    assert out.read_bytes() == OLD
    _only(tmp_path, out.name)


def test_scenario_file_on_a_full_disk_keeps_the_old_file(tmp_path, full_disk):
    out = tmp_path / "keep.zpl.json"
    out.write_bytes(OLD)
    with pytest.raises(scenario_io.ScenarioFileError) as err:
        scenario_io.save(scenario_io.load_case("db2_io"), out)
    # The path is shortened in the message when long (as under pytest-xdist).
    assert str(err.value) == (f"could not save {shorten(str(out))}: {atomic.DISK_FULL}; "
                              "the previous file (if any) is unchanged")
    assert out.read_bytes() == OLD
    _only(tmp_path, out.name)


def _frames(n, w=64, h=48):
    for k in range(n):
        f = np.full((h, w, 3), 255, np.uint8)
        f[:, k: k + 4] = (213, 94, 0)
        yield f


class _FillingEncoder:
    """ffmpeg on a full disk: the first frames land, then a write fails."""

    def __init__(self, path):
        self.path = path
        self.frames = 0

    def append_data(self, frame):
        self.frames += 1
        with open(self.path, "ab") as fh:
            fh.write(b"\0" * 64)
        if self.frames == 3:
            raise OSError(errno.ENOSPC, "No space left on device")

    def send(self, frame):
        self.append_data(frame)

    def close(self):
        pass


@pytest.mark.parametrize("fmt", ["mp4", "gif"])
def test_clip_on_a_full_disk_keeps_the_old_file(tmp_path, monkeypatch, fmt):
    out = tmp_path / f"keep.{fmt}"
    out.write_bytes(OLD)
    opener = "_open_mp4" if fmt == "mp4" else "_open_gif"
    monkeypatch.setattr(clip_encode.ClipWriter, opener,
                        lambda self, *a: _FillingEncoder(self._tmp))
    with pytest.raises(atomic.WriteError) as err:
        write_clips({fmt: out}, _frames(6), fps=10, size=(64, 48))
    assert str(err.value) == f"cannot write {out}: {atomic.DISK_FULL}"
    assert out.read_bytes() == OLD
    _only(tmp_path, out.name)


def test_sweep_csv_on_a_full_disk_keeps_the_old_file(tmp_path, capsys, full_disk):
    out = tmp_path / "keep.csv"
    out.write_bytes(OLD)
    code = cli.main(["sweep", "db2_io", "--over", "pages=1,8", "--workers", "1",
                     "--csv", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0
    assert err[-1] == f"zperflab: error: cannot write {out}: {atomic.DISK_FULL}"
    assert out.read_bytes() == OLD
    _only(tmp_path, out.name)


# ---- targets that are not regular files --------------------------------------
def test_symlink_to_dev_full_is_refused_and_stays(tmp_path, capsys):
    link = tmp_path / "x.png"
    link.symlink_to("/dev/full")
    code, err = _export(capsys, "db2_io", link)
    assert code == 2
    assert err == [f"zperflab: error: cannot write {link}: it leads to /dev/full, a device, "
                   "not a regular file; choose a file name"]
    assert link.is_symlink() and os.readlink(link) == "/dev/full"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_fifo_and_folder_are_refused_by_every_writer(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    folder = tmp_path / "a folder.zpl.json"
    folder.mkdir()
    with pytest.raises(atomic.WriteError, match="it is a pipe .FIFO., not a regular file"):
        atomic.write(fifo, b"data")
    with pytest.raises(scenario_io.ScenarioFileError, match="it is a folder, not a regular"):
        scenario_io.save(scenario_io.load_case("db2_io"), folder)
    with pytest.raises(atomic.WriteError, match="it is a pipe"):
        write_clips({"gif": fifo}, _frames(2), fps=10, size=(64, 48))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and folder.is_dir()
    assert sorted(os.listdir(tmp_path)) == ["a folder.zpl.json", "pipe.csv"]


def test_symlink_to_a_regular_file_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.csv"
    real.write_bytes(OLD)
    link = tmp_path / "link.csv"
    link.symlink_to(real.name)
    atomic.write(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_a_245_character_name_can_be_written(qapp, tmp_path, capsys):
    out = tmp_path / ("r" * 241 + ".csv")
    assert len(out.name) == 245
    code, err = _export(capsys, "db2_io", out)
    assert code == 0, err
    assert out.read_text(encoding="utf-8").startswith("Metrics")
    scenario_io.save(scenario_io.load_case("db2_io"), tmp_path / ("s" * 236 + ".zpl.json"))
    assert len(os.listdir(tmp_path)) == 2
