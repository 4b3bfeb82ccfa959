"""Animation clips from a real run: Export ▸ Animation clip writes an MP4 and a
GIF with the frames, size and duration asked; each frame is what the replay
view on screen shows at that time; Cancel writes nothing."""
import os

import imageio.v3 as iio
import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QFileDialog

from app import atomic
from models.experiments import run_experiment
from ui.animation import READABLE, ReplayView
from ui.clip import ClipPlan, default_scale, rgb_array, render_clips
from ui.clip_dialog import ClipDialog, parse_time

#: A window of the cold-cache FICON run where the track view changes all the
#: time (a drive positions, then reads a whole track).
T0, T1 = 0.0500, 0.0520


@pytest.fixture(scope="module")
def db2():
    return run_experiment("db2_io", {"cache": "cold", "protocol": "FICON"}, trace=True)


@pytest.fixture
def replay(qtbot, db2):
    rv = ReplayView()
    qtbot.addWidget(rv)
    rv.resize(1000, 700)
    rv.show()
    qtbot.waitExposed(rv)
    rv.set_result(db2)
    return rv


def gif_frames(path):
    gif = Image.open(path)
    durations = []
    for k in range(gif.n_frames):
        gif.seek(k)
        durations.append(gif.info["duration"])
    return gif.n_frames, gif.size, durations


def test_clip_of_a_real_run_as_mp4_and_gif(replay, tmp_path):
    """2 ms of replay at 1/1000×, 10 fps: 2 s of clip, 21 frames (both ends shown)."""
    plan = ClipPlan(type(replay.current_view()), replay.data,
                    {"mp4": tmp_path / "c.mp4", "gif": tmp_path / "c.gif"},
                    T0, T1, speed=0.001, fps=10, size=(640, 360))
    infos = render_clips(plan)
    assert [(i.frames, i.size) for i in infos] == [(21, (640, 360))] * 2
    assert imageio_ffmpeg.count_frames_and_secs(str(tmp_path / "c.mp4")) == (21, 2.1)
    meta = iio.immeta(tmp_path / "c.mp4", plugin="FFMPEG")
    assert meta["size"] == (640, 360) and meta["fps"] == 10 and meta["codec"] == "h264"
    n, size, durations = gif_frames(tmp_path / "c.gif")
    # Every frame differs (the time read-out moves 0.1 ms a frame), so none is merged.
    assert (n, size, sum(durations)) == (21, (640, 360), 2100)
    # The replay moves: the first and last frames are different pictures.
    mp4 = iio.imread(tmp_path / "c.mp4", plugin="FFMPEG", index=None)
    assert mp4.shape == (21, 360, 640, 3)
    assert np.abs(mp4[0].astype(int) - mp4[-1].astype(int)).mean() > 1


def test_each_frame_is_what_the_view_on_screen_shows_at_that_time(replay, tmp_path):
    view = replay.current_view()
    size = (view.width(), view.height())
    plan = ClipPlan(type(view), replay.data, {"gif": tmp_path / "v.gif"}, T0, T1,
                    speed=0.001, fps=10, size=size, scale=1.0, caption=False)
    render_clips(plan)
    clip = iio.imread(tmp_path / "v.gif", index=None)[..., :3].astype(int)
    assert clip.shape[1:3] == (size[1], size[0])
    for k in (0, 7, 20):
        replay.controller.seek(plan.times[k])
        screen = rgb_array(view.grab().toImage()).astype(int)
        diffs = [np.abs(frame - screen).mean() for frame in clip]
        # This frame is the screen's picture (GIF palette aside); the frames
        # of the clip that show another picture are not.
        other = [j for j in range(len(clip)) if np.abs(clip[j] - clip[k]).mean() > 0.3]
        assert diffs[k] < 0.1, (k, diffs)
        assert len(other) >= 5 and min(diffs[j] for j in other) > 0.2, (k, diffs)


@pytest.fixture
def ran(window, qtbot):
    window.open_case_or_file("db2_io")
    cu = window.editor.scenario.of_category("control_unit")[0]
    window.editor.set_property(cu.id, "cache", "cold")
    with qtbot.waitSignal(window.run_done, timeout=60_000):
        window.run()
    window.show_view("animation")
    QGuiApplication.processEvents()
    return window


def answer_dialog(monkeypatch, tmp_path, name, **fields):
    """Accept the clip dialog after setting its fields; answer the file dialog."""
    def exec_(dialog):
        for key, value in fields.items():
            if key in ("t_from", "t_to"):
                getattr(dialog, key).setText(value)
            else:
                combo = getattr(dialog, key)
                combo.setCurrentIndex(combo.findData(value))
        assert dialog.buttons.buttons()[0].isEnabled(), dialog.summary.text()
        return QDialog.DialogCode.Accepted
    monkeypatch.setattr(ClipDialog, "exec", exec_)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / name), ""))


def test_export_menu_writes_both_clips_with_progress(ran, qtbot, monkeypatch, tmp_path):
    answer_dialog(monkeypatch, tmp_path, "lesson.mp4", speed=0.001, t_from="50 ms", t_to="51 ms", format="both", size="960x540", fps=10)
    seen = []
    ran.exports.clip_export.progressed.connect(seen.append)
    with qtbot.waitSignal(ran.exports.clip_export.done, timeout=60_000):
        assert ran.exports.a.clip.isEnabled()
        ran.exports.a.clip.trigger()
        assert ran.task_progress.isVisible() and ran.task_cancel.isVisible()
    assert seen[-1] == 1.0 and seen == sorted(seen)
    assert not ran.task_progress.isVisible()
    assert imageio_ffmpeg.count_frames_and_secs(str(tmp_path / "lesson.mp4")) == (11, 1.1)
    assert gif_frames(tmp_path / "lesson.gif")[1] == (960, 540)
    assert "lesson.mp4 (1.1 s, 11 frames)" in ran.status.text()


def test_cancel_leaves_no_clip_and_keeps_the_old_one(ran, qtbot, monkeypatch, tmp_path):
    (tmp_path / "c.mp4").write_bytes(b"old clip")
    answer_dialog(monkeypatch, tmp_path, "c.mp4", t_from="50 ms", t_to="60 ms", speed=0.001, format="mp4", size="960x540", fps=25)
    exporter = ran.exports.clip_export
    exporter.progressed.connect(lambda f: ran._on_task_cancel_clicked())   # Cancel, as a click
    with qtbot.waitSignal(exporter.cancelled, timeout=60_000):
        ran.exports.a.clip.trigger()
    assert not exporter.running
    assert (tmp_path / "c.mp4").read_bytes() == b"old clip"
    assert [p for p in os.listdir(tmp_path) if p.endswith(atomic.TMP_SUFFIX)] == []
    assert ran.status.text() == "Clip cancelled: nothing written."


def test_dialog_defaults_and_bad_times(replay, qtbot):
    replay.controller.seek(0.05)
    dialog = ClipDialog(replay)
    qtbot.addWidget(dialog)
    assert dialog.t_from.time() == 0.05                   # from where the replay is
    assert dialog.speed.currentData() == READABLE         # at the replay's own speed
    plan = dialog.plan()
    assert 7.5 < plan.seconds < 9                         # about eight seconds of clip
    dialog.speed.setCurrentIndex(dialog.speed.findData(0.01))
    assert dialog.t_to.time() == pytest.approx(0.05 + 8 * 0.01)
    save = dialog.buttons.buttons()[0]
    dialog.t_to.setText("70 s")
    assert not save.isEnabled() and "outside the run" in dialog.summary.text()
    dialog.t_to.setText("soon")
    assert not save.isEnabled() and "is not a time" in dialog.summary.text()
    dialog.t_to.setText("60 ms")
    assert save.isEnabled() and "replay time 50.000 ms to 60.000 ms" in dialog.summary.text()
    assert parse_time("300 µs") == pytest.approx(3e-4) and parse_time("1.5") == 1.5


def test_no_run_no_clip_one_message(window, monkeypatch):
    seen = []
    monkeypatch.setattr(window, "alert", lambda title, text: seen.append((title, text)))
    monkeypatch.setattr(ClipDialog, "exec", lambda self: pytest.fail("no dialog without a run"))
    assert window.exports.clip() is False
    assert seen == [("No animation", "There is nothing to replay: run the scenario (F5) "
                                     "and show the Animation tab.")]


def test_a_large_clip_draws_the_same_layout_with_larger_text(replay):
    """1920×1080 is the 1280×720 picture at 1.5× (text grows), not a wider layout."""
    from ui.clip import ClipStage

    stage = ClipStage(type(replay.current_view()), replay.data, 0.001)
    heights = {}
    for size in ((1280, 720), (1920, 1080)):
        frame = rgb_array(stage.frame(T0, size, default_scale(size))).astype(int)
        dark = np.nonzero((frame[: size[1] // 10].sum(axis=2) < 300).any(axis=1))[0]
        heights[size] = dark.max() - dark.min() + 1    # ink of the top tenth (title lines)
        assert stage.view.width() < 1280 and stage.view.height() < 720   # same layout
    assert 1.35 < heights[(1920, 1080)] / heights[(1280, 720)] < 1.65, heights
    stage.close()
