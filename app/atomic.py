"""The one atomic writer for every file zPerfLab writes.

:func:`write` puts the new content in a temporary file beside the target,
checks that every byte went to disk (a short write, a failed flush or
``fsync`` is a failure, never a success), renames it over the target and
flushes the folder, so a crash, a kill or a full disk leaves either the
old file or the new one, never a mix. It keeps what the user set up: a
target that is a symbolic link stays a link (the regular file it leads to
is replaced), and an existing file keeps its permission bits (a new one
gets the usual ``0666 & ~umask``, not ``mkstemp``'s 0600). A target that
is not a regular file (a device such as ``/dev/full``, a FIFO, a folder)
is refused with a message: replacing it by a file would be wrong.

Temporary files are short (``.PID-RANDOM.zpl-tmp``, 25 characters), so a
target name of any legal length can be written; one left behind by a
killed writer (its process is gone, or it is over an hour old) is removed
on the next write to the same folder. A full disk is reported everywhere
in the same words, :data:`DISK_FULL`.
"""
from __future__ import annotations

import errno
import os
import secrets
import stat
import time
from pathlib import Path
from typing import Callable

from models.core.params import shorten

TMP_SUFFIX = ".zpl-tmp"
#: A temporary file older than this is stale even if its process id is in use.
STALE_AFTER_S = 3600.0
#: What every writer says when the file system has no room left.
DISK_FULL = "the disk is full"
#: Bytes handed to the system per write call.
CHUNK = 1 << 20

_UMASK = os.umask(0)
os.umask(_UMASK)


class WriteError(OSError):
    """A write that did not happen; the old file is unchanged.

    ``str()`` is one line, ``cannot write PATH: REASON``; ``reason`` is the
    part after the colon.
    """

    def __init__(self, shown: str, reason: str) -> None:
        super().__init__(f"cannot write {shown}: {reason}")
        self.reason = reason

    def __str__(self) -> str:
        return self.args[0]


def target_of(path: str | os.PathLike) -> Path:
    """The file a write to ``path`` replaces: ``path``, or what its symlinks lead to."""
    return Path(os.path.realpath(path))


def temp_path(folder: Path) -> Path:
    """A fresh temporary name in ``folder``, short whatever the target's name."""
    return folder / f".{os.getpid()}-{secrets.token_hex(4)}{TMP_SUFFIX}"


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISSOCK, "a socket"))


def check_target(path: str | os.PathLike) -> Path:
    """Check, before any work, that ``path`` can be written; returns the file replaced.

    Raises
    ------
    WriteError
        The folder is missing or read-only, or the target (or what its
        symlink leads to) exists and is not a regular file.
    """
    shown = shorten(os.fspath(path), 200)
    real = target_of(path)
    folder = real.parent
    if not folder.is_dir():
        raise WriteError(shown, f"no folder {shorten(str(folder), 160)}")
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise WriteError(shown, _why(exc, folder)) from None
    if mode is not None and not stat.S_ISREG(mode):
        kind = next((k for test, k in _KINDS if test(mode)), "not a regular file")
        what = (f"it leads to {shorten(str(real), 120)}, {kind}" if os.path.islink(path)
                else f"it is {kind}")
        raise WriteError(shown, f"{what}, not a regular file; choose a file name")
    if not os.access(folder, os.W_OK):
        raise WriteError(shown, f"the folder {shorten(str(folder), 160)} is read-only")
    return real


def write(path: str | os.PathLike, data: bytes | Callable[[Path], object]) -> Path:
    """Replace ``path`` with ``data`` (bytes, or ``data(tmp)`` writes the file).

    Prefer bytes: each one is then checked on its way to disk. A callable
    is for content another program writes (the clip encoder); its file is
    flushed and must not be empty.

    Returns
    -------
    Path
        The file written (the symlink's target when ``path`` is a link).

    Raises
    ------
    WriteError
        One line naming ``path`` and why: the folder is missing or not
        writable, the target is not a regular file, the disk is full, the
        writer failed. The old file is unchanged and no temporary file is
        left.
    """
    shown = shorten(os.fspath(path), 200)
    real = check_target(path)
    folder = real.parent
    clean_stale(real)
    tmp = temp_path(folder)
    try:
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
        if isinstance(data, (bytes, bytearray, memoryview)):
            _write_file(tmp, data)
        else:
            data(tmp)
            if not tmp.exists() or tmp.stat().st_size == 0:
                raise WriteError(shown, _why(None, folder, "nothing was written"))
            _fsync_file(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
        _fsync_dir(folder)
    except WriteError:
        _remove(tmp)
        raise
    except (OSError, ValueError) as exc:
        _remove(tmp)
        raise WriteError(shown, _why(exc, folder)) from None
    except BaseException:
        _remove(tmp)
        raise
    return real


def _write_file(tmp: Path, data: bytes | bytearray | memoryview) -> None:
    """Create ``tmp`` and put every byte of ``data`` on disk, or raise OSError."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        view = memoryview(data).cast("B")
        while view:
            done = _write_chunk(fd, view[:CHUNK])
            if done <= 0:
                raise OSError(errno.EIO, "the system accepted no bytes")
            view = view[done:]
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_chunk(fd: int, chunk: memoryview) -> int:
    """One system write; the tests replace it to fill the disk part-way."""
    return os.write(fd, chunk)


def _why(exc: BaseException | None, folder: Path, fallback: str = "") -> str:
    """Why a write failed; a full disk is called a full disk."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DISK_FULL
    if disk_full(folder):
        return DISK_FULL
    if exc is None:
        return fallback
    reason = getattr(exc, "strerror", None) or str(exc)
    return shorten(reason, 160)


def disk_full(folder: Path) -> bool:
    """True when the file system holding ``folder`` has no free block left."""
    try:
        info = os.statvfs(folder)
    except (OSError, AttributeError):
        return False
    return info.f_bavail == 0


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX; Windows cannot open folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def clean_stale(real: Path) -> list[Path]:
    """Remove temporary files of ours beside ``real`` left by killed writers.

    Ours are ``.PID-RANDOM.zpl-tmp`` (and, from older versions,
    ``.NAME.PID-RANDOM.zpl-tmp``); nothing else in the folder is touched.
    """
    removed: list[Path] = []
    try:
        names = [n for n in os.listdir(real.parent) if n.startswith(".")
                 and n.endswith(TMP_SUFFIX)]
    except OSError:
        return removed
    now = time.time()
    for name in names:
        middle = name[:-len(TMP_SUFFIX)].rsplit(".", 1)[-1]
        pid_text, _, token = middle.partition("-")
        if not (pid_text.isascii() and pid_text.isdigit() and len(token) == 8):
            continue
        tmp = real.parent / name
        try:
            old = now - tmp.lstat().st_mtime > STALE_AFTER_S
        except OSError:
            continue
        if old or not _alive(int(pid_text)):
            try:
                tmp.unlink()
                removed.append(tmp)
            except OSError:
                pass
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True
