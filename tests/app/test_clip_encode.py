"""Clip encoding without Qt: MP4 and GIF read back with imageio / ffmpeg; a
cancel or a failure leaves no file; the frame times of a clip."""
import errno
import os
import tempfile

import imageio.v3 as iio
import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image

from app import atomic, clip_encode
from app.clip_encode import ClipError, frame_times, write_clips
from models.core.run import Cancelled

W, H = 160, 96


def bars(n):
    """n frames, each with a red bar one step further right (every frame differs)."""
    for k in range(n):
        f = np.full((H, W, 3), 255, np.uint8)
        f[10:60, 3 * k: 3 * k + 12] = (213, 94, 0)
        yield f


def leftovers(folder):
    return [p for p in os.listdir(folder) if p.endswith(atomic.TMP_SUFFIX)]


@pytest.fixture(autouse=True)
def own_tempdir(tmp_path_factory, monkeypatch):
    """The GIF palette's scratch folder goes here, so a test sees one left behind."""
    scratch = tmp_path_factory.mktemp("scratch")
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    return scratch


def test_mp4_and_gif_have_the_frames_size_and_duration_asked(tmp_path, own_tempdir):
    infos = write_clips({"mp4": tmp_path / "c.mp4", "gif": tmp_path / "c.gif"}, bars(30),
                        fps=20, size=(W, H), total=30)
    assert [(i.fmt, i.frames, i.seconds) for i in infos] == [("mp4", 30, 1.5), ("gif", 30, 1.5)]
    frames, secs = imageio_ffmpeg.count_frames_and_secs(str(tmp_path / "c.mp4"))
    assert (frames, secs) == (30, 1.5)
    meta = iio.immeta(tmp_path / "c.mp4", plugin="FFMPEG")
    assert meta["size"] == (W, H) and meta["fps"] == 20 and meta["codec"] == "h264"
    assert meta["pix_fmt"].startswith("yuv420p")
    gif = Image.open(tmp_path / "c.gif")
    assert (gif.n_frames, gif.size) == (30, (W, H))
    durations = []
    for k in range(gif.n_frames):
        gif.seek(k)
        durations.append(gif.info["duration"])
    assert sum(durations) == 1500 and set(durations) == {50}
    # The picture survives: the bar of frame 10 is where it was drawn.
    f10 = iio.imread(tmp_path / "c.gif", index=10)[..., :3]
    assert tuple(f10[30, 35]) == (213, 94, 0) and tuple(f10[30, 80]) == (255, 255, 255)
    assert leftovers(tmp_path) == [] and os.listdir(own_tempdir) == []


def test_a_gif_palette_from_sample_frames_keeps_later_colours_exact(tmp_path):
    """The first frame has no blue; the samples spread over the clip do."""
    frames = list(bars(12))
    for f in frames[6:]:
        f[70:90, 20:60] = (0, 114, 178)
    write_clips({"gif": tmp_path / "p.gif"}, frames, fps=10, size=(W, H),
                palette_frames=[frames[0], frames[11]])
    last = iio.imread(tmp_path / "p.gif", index=11)[..., :3]
    assert tuple(last[80, 40]) == (0, 114, 178) and tuple(last[30, 3 * 11 + 5]) == (213, 94, 0)


def test_a_gif_keeps_held_frames_and_their_duration(tmp_path):
    """'As fast as readable' holds a picture for several frames: none is dropped."""
    frames = [f for f in bars(5) for _ in range(3)]
    (info,) = write_clips({"gif": tmp_path / "h.gif"}, frames, fps=10, size=(W, H))
    gif = Image.open(tmp_path / "h.gif")
    total = 0
    for k in range(gif.n_frames):
        gif.seek(k)
        total += gif.info["duration"]
    assert (info.frames, gif.n_frames, total) == (15, 15, 1500)


def test_cancel_writes_nothing_and_keeps_the_old_file(tmp_path):
    old = tmp_path / "c.mp4"
    old.write_bytes(b"the clip from last week")

    class CancelAfter:
        def __init__(self, n):
            self.n = n

        def is_set(self):
            self.n -= 1
            return self.n < 0

    with pytest.raises(Cancelled):
        write_clips({"mp4": old, "gif": tmp_path / "c.gif"}, bars(20), fps=10, size=(W, H),
                    cancel=CancelAfter(5))
    assert old.read_bytes() == b"the clip from last week"
    assert sorted(os.listdir(tmp_path)) == ["c.mp4"]
    assert os.listdir(tempfile.gettempdir()) == []        # nor the GIF's palette


def test_a_full_disk_is_one_message_and_leaves_no_file(tmp_path, monkeypatch):
    """ffmpeg stops writing when the disk fills: one line, no half file, no temp file."""
    def full_disk(path, *args, **kwargs):
        with open(path, "wb") as fh:
            fh.write(b"GIF89a half")
        yield
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(imageio_ffmpeg, "write_frames", full_disk)
    with pytest.raises(atomic.WriteError) as err:
        write_clips({"gif": tmp_path / "c.gif"}, bars(4), fps=10, size=(W, H))
    assert str(err.value) == f"cannot write {tmp_path / 'c.gif'}: the disk is full"
    assert os.listdir(tmp_path) == []


def test_a_missing_folder_is_one_message(tmp_path):
    with pytest.raises(atomic.WriteError, match=r"^cannot write .*: no folder"):
        write_clips({"mp4": tmp_path / "nope" / "c.mp4"}, bars(2), fps=10, size=(W, H))


@pytest.mark.parametrize("fmt, fps, size, says", [
    ("mp4", 25, (161, 96), "even width and height"),
    ("gif", 30, (160, 96), "10, 20, 25, 50 frames per second"),
    ("avi", 25, (160, 96), "not a clip format"),
])
def test_clips_that_cannot_keep_their_promise_are_refused(tmp_path, fmt, fps, size, says):
    with pytest.raises(ClipError, match=says):
        write_clips({fmt: tmp_path / f"c.{fmt}"}, bars(2), fps=fps, size=size)
    assert os.listdir(tmp_path) == []


def test_frame_times_start_and_end_where_asked():
    t = frame_times(0.010, 0.012, speed=0.001, fps=25)   # 2 s of clip
    assert len(t) == 51 and t[0] == 0.010 and t[-1] == 0.012
    assert np.allclose(np.diff(t), 0.001 / 25)


def test_as_fast_as_readable_holds_each_event_time():
    events = np.array([0.0, 1e-3, 1e-3, 2e-3, 5e-3, 9e-3])
    t = frame_times(1e-3, 5e-3, speed=0.0, fps=20, event_times=events, hold_s=0.35)
    # start, then 2 ms and 5 ms (the start's own time is not shown twice), 7 frames each
    assert t.tolist() == [1e-3] * 7 + [2e-3] * 7 + [5e-3] * 7


def test_a_clip_too_long_for_the_disk_is_refused_before_a_frame():
    with pytest.raises(ClipError, match="shorten the window or raise the speed"):
        frame_times(0.0, 60.0, speed=0.001, fps=25)
    assert clip_encode.MAX_FRAMES == 15_000


def test_a_gif_is_written_whatever_the_temporary_folder_is_called(tmp_path, monkeypatch):
    """The palette's path goes into an ffmpeg filter graph: brackets, commas,
    quotes and colons in it must not break the clip."""
    odd = tmp_path / "scratch [1], it's: here"
    odd.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(odd))
    (info,) = write_clips({"gif": tmp_path / "c.gif"}, bars(3), fps=10, size=(W, H))
    assert info.frames == 3 and Image.open(tmp_path / "c.gif").n_frames == 3
    assert os.listdir(odd) == []
