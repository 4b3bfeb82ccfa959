"""Write animation clips (MP4 and GIF) from RGB frames, atomically (no Qt).

The replay frames are grabbed elsewhere (:mod:`ui.clip` renders the real
replay views); this module only encodes them with maintained libraries:

* **MP4**: H.264 in ``yuv420p`` (what PowerPoint, Keynote, browsers and
  QuickTime play), through imageio's ffmpeg plugin. ``imageio-ffmpeg``
  ships an ffmpeg binary in its wheel, so nothing is installed by hand.
  ``-movflags +faststart`` puts the index first (a slide starts at once),
  ``-tune animation`` suits flat colours and text.
* **GIF**: ffmpeg too (``imageio_ffmpeg.write_frames``; imageio's plugin
  does not write GIFs), in two steps: ffmpeg's ``palettegen`` makes one
  256-colour palette from a few sample frames spread over the clip (the
  caller passes them; by default the first frame), then ``paletteuse``
  maps every frame to it without dithering as the frames stream in. One
  palette keeps the views' flat colours and white exact and lets the GIF
  store only what changed between frames. Measured on 1920×1080 frames of
  the cache view: 22 ms a frame, 0.13 MB for 100 frames, ffmpeg under
  200 MB. (A palette from all frames made ffmpeg hold every frame, 1.75 GB
  for 8 s; a palette per frame made the GIF 50 times larger; Pillow's median
  cut took 100 ms a frame and its fast octree turned white into 254 grey.)
  GIF delays are in 1/100 s, so only frame rates that divide 100 are
  offered (:data:`GIF_FPS`); the duration is then exact.

Frames go to a temporary file beside the target, named as
:mod:`app.atomic` names its own (so a killed export's leftover is cleaned up
by the next write), and only a finished clip is renamed over the target:
a cancelled or failed export leaves no half file, and a full disk is one
message ("cannot write PATH: the disk is full").
"""
from __future__ import annotations

import errno
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from app import atomic
from models.core.params import shorten
from models.core.run import Cancelled

#: Formats and their file extensions.
FORMATS = {"mp4": ".mp4", "gif": ".gif"}
#: Frame rates a GIF can keep exactly (its delays are whole 1/100 s).
GIF_FPS = (10, 20, 25, 50)
#: Frame rates offered for MP4 (25 is also exact in a GIF).
MP4_FPS = (10, 20, 25, 30, 50, 60)
#: x264 constant rate factor: 18 is visually lossless for text and lines.
MP4_CRF = 18
#: ffmpeg filter making a GIF palette from sample frames.
PALETTE_FILTER = "palettegen=stats_mode=full:reserve_transparent=0"
#: Longest clip accepted, in frames (ten minutes at 25 fps): a mistyped
#: window must not fill the disk.
MAX_FRAMES = 15_000


class ClipError(ValueError):
    """A clip that cannot be written as asked; one line for the user."""


@dataclass(frozen=True)
class ClipInfo:
    """What was written: file, format, frames sent, frame rate, size (w, h)."""

    path: Path
    fmt: str
    frames: int
    fps: float
    size: tuple[int, int]

    @property
    def seconds(self) -> float:
        """Playing time of the clip (frames / fps)."""
        return self.frames / self.fps


def check(fmt: str, fps: float, size: tuple[int, int]) -> None:
    """Raise :class:`ClipError` if ``fmt`` cannot be written at ``fps`` and ``size``."""
    if fmt not in FORMATS:
        raise ClipError(f"'{fmt}' is not a clip format: use one of {', '.join(FORMATS)}")
    w, h = size
    if not (16 <= w <= 4096 and 16 <= h <= 4096):
        raise ClipError(f"{w}x{h} is out of range for a clip: 16 to 4096 pixels a side")
    if fmt == "mp4" and (w % 2 or h % 2):
        raise ClipError(f"an MP4 (H.264, yuv420p) needs an even width and height, not {w}x{h}")
    if fmt == "gif" and fps not in GIF_FPS:
        raise ClipError(f"a GIF keeps its timing only at {', '.join(map(str, GIF_FPS))} "
                        f"frames per second, not {fps:g}")
    if not 1 <= fps <= 120:
        raise ClipError(f"{fps:g} frames per second is out of range: 1 to 120")


def frame_times(t0: float, t1: float, speed: float, fps: float,
                event_times: np.ndarray | None = None, hold_s: float = 0.35) -> np.ndarray:
    """The replay time shown in each frame of a clip from ``t0`` to ``t1``.

    At a speed factor (simulated seconds per second of clip) frame ``k``
    shows ``t0 + k * speed / fps``; the last frame shows ``t1`` itself, so a
    clip starts and ends where it was asked to and lasts about
    ``(t1 - t0) / speed`` seconds plus one frame. At ``speed == 0`` ("as
    fast as readable") each event time in ``[t0, t1]`` of ``event_times``
    (sorted) is held for ``hold_s`` seconds, as the replay does on screen.
    """
    if not t1 >= t0:
        raise ClipError("the clip must end after it starts")
    if speed < 0:
        raise ClipError(f"the speed must be positive, not {speed:g}")
    if speed == 0:
        if event_times is None:
            raise ClipError("'as fast as readable' needs the run's event times")
        ev = np.unique(np.asarray(event_times, dtype=float))
        ev = ev[(ev > t0) & (ev <= t1)]
        hold = max(1, round(hold_s * fps))
        times = np.repeat(np.concatenate(([t0], ev)), hold)
    else:
        n = round((t1 - t0) / speed * fps)
        if n + 1 > MAX_FRAMES:
            raise ClipError(_too_long(n + 1, fps))
        times = t0 + np.arange(n + 1) * (speed / fps)
        times[-1] = t1
    if len(times) > MAX_FRAMES:
        raise ClipError(_too_long(len(times), fps))
    return np.minimum(times, t1)


def _too_long(frames: int, fps: float) -> str:
    return (f"that clip would last {frames / fps / 60:,.1f} minutes ({frames:,} frames); "
            f"the longest is {MAX_FRAMES / fps / 60:.0f} minutes: shorten the window "
            "or raise the speed")


def filter_path(path: str | os.PathLike) -> str:
    r"""``path`` as a value inside an ffmpeg filter graph (both escaping levels).

    The option level escapes ``\ ' :`` and the graph level ``\ ' [ ] , ;``
    with a backslash, so a temporary folder with a drive colon, brackets or
    quotes still names the palette file.
    """
    text = Path(path).as_posix()
    for specials in ("\\':", "\\'[],;"):
        text = "".join("\\" + c if c in specials else c for c in text)
    return text


def even_size(w: int, h: int) -> tuple[int, int]:
    """``(w, h)`` rounded down to even numbers (H.264 in yuv420p needs them)."""
    return int(w) // 2 * 2, int(h) // 2 * 2


class ClipWriter:
    """One clip being written: :meth:`add` frames, then :meth:`finish` or :meth:`abort`.

    Used as a context manager, an exception (or a cancel) inside the block
    aborts: the temporary file is removed and the target is untouched.

    Parameters
    ----------
    path : str or PathLike
        The clip file to write (replaced only when :meth:`finish` succeeds).
    fmt : {"mp4", "gif"}
    fps : float
        Frames per second of playback.
    size : (int, int)
        Width and height of every frame, in pixels.
    palette_frames : list of frames, optional
        GIF only: frames spread over the clip its palette is made from
        (default: the first frame). Colours missing from them are drawn
        with the nearest colour that is there.
    """

    def __init__(self, path: str | os.PathLike, fmt: str, fps: float,
                 size: tuple[int, int], palette_frames=None) -> None:
        check(fmt, fps, size)
        self.path = Path(path)
        self.fmt, self.fps, self.size = fmt, float(fps), (int(size[0]), int(size[1]))
        self.frames = 0
        self._shown = shorten(os.fspath(path), 200)
        real = atomic.check_target(path)    # a device or a folder is refused up front
        atomic.clean_stale(real)
        self._tmp = atomic.temp_path(real.parent)
        self._mp4: Any = None     # imageio's ffmpeg writer, opened on the first frame
        self._gif: Any = None     # imageio-ffmpeg's frame generator, ditto
        self._palette_frames = palette_frames
        self._palette_dir: str | None = None
        self._closed = False

    # ---- writing ----------------------------------------------------------
    def add(self, frame: np.ndarray) -> None:
        """Append one frame: an ``(h, w, 3)`` uint8 RGB array of the clip's size."""
        frame = np.asarray(frame)
        w, h = self.size
        if frame.shape != (h, w, 3) or frame.dtype != np.uint8:
            raise ClipError(f"frame {self.frames + 1} is {frame.shape} {frame.dtype}, "
                            f"not ({h}, {w}, 3) uint8")
        try:
            if self.fmt == "mp4":
                if self._mp4 is None:
                    self._mp4 = self._open_mp4()
                self._mp4.append_data(frame)
            else:
                if self._gif is None:
                    self._gif = self._open_gif(frame)
                self._gif.send(np.ascontiguousarray(frame))
        except (OSError, RuntimeError, StopIteration) as exc:
            raise self._failure(exc) from None
        self.frames += 1

    def _open_mp4(self):
        import imageio.v3 as iio
        # The temporary name has no .mp4 ending: the extension and the
        # container are named (imageio.v2.get_writer with an extension).
        resource = iio.imopen(os.fspath(self._tmp), "wI", plugin="FFMPEG", extension=".mp4",
                              legacy_mode=True)
        return resource.legacy_get_writer(
            fps=self.fps,
            codec="libx264", pixelformat="yuv420p", quality=None,
            macro_block_size=2, ffmpeg_log_level="error",
            output_params=["-crf", str(MP4_CRF), "-tune", "animation",
                           "-movflags", "+faststart", "-f", "mp4"])

    def _ffmpeg(self, path: str, codec: str, pix_fmt: str, output_params: list):
        import imageio_ffmpeg
        gen = imageio_ffmpeg.write_frames(
            path, self.size, fps=self.fps, codec=codec, pix_fmt_out=pix_fmt, quality=None,
            macro_block_size=1, ffmpeg_log_level="error", output_params=output_params)
        gen.send(None)
        return gen

    def _open_gif(self, first: np.ndarray):
        # imageio's ffmpeg plugin does not write GIFs, so its engine is called
        # directly: a palette from the sample frames first, then the clip.
        self._palette_dir = tempfile.mkdtemp(prefix="zperflab-gif-")
        palette = Path(self._palette_dir) / "palette.png"
        gen = self._ffmpeg(os.fspath(palette), "png", "rgb24",
                           ["-vf", PALETTE_FILTER, "-frames:v", "1", "-update", "1",
                            "-f", "image2"])
        for frame in (self._palette_frames or [first]):
            gen.send(np.ascontiguousarray(frame))
        gen.close()
        self._palette_frames = None
        return self._ffmpeg(os.fspath(self._tmp), "gif", "pal8",
                            ["-vf", f"movie={filter_path(palette)}[p];"
                                    "[in][p]paletteuse=dither=none[out]",
                             "-loop", "0", "-f", "gif"])

    def finish(self) -> ClipInfo:
        """Close the encoder and put the clip in place; returns what was written."""
        if self.frames == 0:
            self.abort()
            raise ClipError("a clip needs at least one frame")
        try:
            if self.fmt == "mp4":
                self._mp4.close()
                self._mp4 = None
            else:
                self._gif.close()
                self._gif = None
                self._drop_palette()
            real = atomic.write(self.path, lambda tmp: os.replace(self._tmp, tmp))
        except atomic.WriteError:
            self.abort()
            raise
        except (OSError, RuntimeError) as exc:
            raise self._failure(exc) from None
        self._closed = True
        return ClipInfo(real, self.fmt, self.frames, self.fps, self.size)

    def abort(self) -> None:
        """Stop and remove the temporary file; the target is left as it was."""
        if self._closed:
            return
        self._closed = True
        for enc in (self._mp4, self._gif):
            if enc is not None:
                try:
                    enc.close()
                except Exception:       # noqa: BLE001  (ffmpeg may already be gone)
                    pass
        self._mp4 = self._gif = None
        self._drop_palette()
        try:
            os.unlink(self._tmp)
        except FileNotFoundError:
            pass

    def _drop_palette(self) -> None:
        if self._palette_dir is not None:
            shutil.rmtree(self._palette_dir, ignore_errors=True)
            self._palette_dir = None

    def _failure(self, exc: BaseException) -> atomic.WriteError:
        """Abort and say why in one line (a full disk is called a full disk)."""
        self.abort()
        folder = self._tmp.parent
        if atomic.disk_full(folder) or getattr(exc, "errno", None) in (errno.ENOSPC,
                                                                       errno.EDQUOT):
            reason = atomic.DISK_FULL
        elif getattr(exc, "errno", None) == errno.EPIPE or "Broken pipe" in str(exc):
            # ffmpeg quit; it printed why on the error output, not to us.
            reason = "the encoder (ffmpeg) stopped; its own message is on the error output"
        else:
            # imageio-ffmpeg appends ffmpeg's command and log: keep the first line.
            text = getattr(exc, "strerror", None) or str(exc).strip() or type(exc).__name__
            reason = shorten(text.splitlines()[0], 160)
        return atomic.WriteError(self._shown, reason)

    def __enter__(self) -> "ClipWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.abort()


def write_clips(targets: dict[str, str | os.PathLike], frames: Iterable[np.ndarray],
                fps: float, size: tuple[int, int], total: int | None = None,
                progress: Callable[[float], None] | None = None,
                cancel=None, palette_frames=None) -> list[ClipInfo]:
    """Encode ``frames`` once into every clip of ``targets`` ({fmt: path}).

    ``progress(fraction)`` is called after each frame when ``total`` is
    known; ``cancel`` (anything with ``is_set()``) stops the export with
    :class:`models.core.run.Cancelled`, and then no file is written. A clip
    replaces its target only once it is complete. ``palette_frames``: see
    :class:`ClipWriter`.
    """
    writers = [ClipWriter(path, fmt, fps, size, palette_frames)
               for fmt, path in targets.items()]
    try:
        for frame in frames:
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            for wr in writers:
                wr.add(frame)
            if progress is not None and total:
                progress(min(1.0, writers[0].frames / total))
        return [wr.finish() for wr in writers]
    except BaseException:
        for wr in writers:
            wr.abort()
        raise
