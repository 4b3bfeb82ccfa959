"""The one atomic writer for every file zPerfLab writes.

:func:`write` puts the new content in a temporary file beside the target,
flushes it to disk, renames it over the target and flushes the folder, so
a crash, a kill or a full disk leaves either the old file or the new one,
never a mix. It keeps what the user set up: a target that is a symbolic
link stays a link (the file it points to is replaced), and an existing
file keeps its permission bits (a new one gets the usual ``0666 & ~umask``,
not ``mkstemp``'s 0600). Temporary files are named
``.NAME.PID-RANDOM.zpl-tmp``; one left behind by a killed writer (its
process is gone, or it is over an hour old) is removed on the next write
to the same folder and name.
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


def write(path: str | os.PathLike, data: bytes | Callable[[Path], object]) -> Path:
    """Replace ``path`` with ``data`` (bytes, or ``data(tmp)`` writes the file).

    Returns
    -------
    Path
        The file written (the symlink's target when ``path`` is a link).

    Raises
    ------
    WriteError
        One line naming ``path`` and why: the folder is missing or not
        writable, the disk is full, the writer failed. The old file is
        unchanged and no temporary file is left.
    """
    shown = shorten(os.fspath(path), 200)
    real = target_of(path)
    folder = real.parent
    if not folder.is_dir():
        raise WriteError(shown, f"no folder {shorten(str(folder), 160)}")
    clean_stale(real)
    tmp = folder / f".{real.name}.{os.getpid()}-{secrets.token_hex(4)}{TMP_SUFFIX}"
    try:
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
        if isinstance(data, (bytes, bytearray, memoryview)):
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                         0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
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


def _why(exc: BaseException | None, folder: Path, fallback: str = "") -> str:
    """Why a write failed; a full disk is called a full disk."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full ({exc.strerror or exc})"
    if disk_full(folder):
        return "the disk is full"
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
    """Remove temporary files of ours for ``real`` left by killed writers."""
    removed: list[Path] = []
    prefix = f".{real.name}."
    try:
        names = [n for n in os.listdir(real.parent) if n.startswith(prefix)
                 and n.endswith(TMP_SUFFIX)]
    except OSError:
        return removed
    now = time.time()
    for name in names:
        middle = name[len(prefix):-len(TMP_SUFFIX)]
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
