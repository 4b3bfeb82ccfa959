"""Start the desktop app, or render it offscreen to a PNG and exit.

Whatever happens — a bad ``--size``, a case or file that cannot be opened,
a screenshot that cannot be written — the window's worker threads are shut
down before ``main`` returns (a QThread destroyed while running aborts the
process with SIGABRT), and bad input exits with status 2.
"""
from __future__ import annotations

import argparse
import math
import os
import sys

from models.core.params import shorten


#: The window's size for screenshots without --size (the docs' pictures).
FIRST_SIZE = (1280, 800)


class UsageError(ValueError):
    """A bad ``gui`` option; ``str()`` is one line."""


def _parse_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    shown = shorten(text, 40)
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit()
                                  and len(p.strip()) < 6 for p in parts):
        raise UsageError(f"bad --size '{shown}'; use WIDTHxHEIGHT, e.g. 1280x800")
    w, h = (int(p) for p in parts)
    if not (320 <= w <= 8000 and 240 <= h <= 8000):
        raise UsageError(f"bad --size '{shown}'; allowed 320x240 to 8000x8000")
    return w, h


def _screenshot(window, path: str) -> int:
    """Write the window's picture through the one atomic writer; 0, or 2 with one line."""
    from PySide6.QtCore import QBuffer, QIODevice

    from app import atomic

    pixmap = window.grab()
    fmt = (os.path.splitext(path)[1].lstrip(".") or "png").upper()
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    try:
        if not pixmap.save(buf, fmt):  # type: ignore[call-overload]  # PySide6 takes str
            raise atomic.WriteError(shorten(path, 200),
                                    f"Qt cannot write a {shorten(fmt, 10)} image")
        atomic.write(path, bytes(buf.data()))  # type: ignore[call-overload]
    except atomic.WriteError as exc:
        print(f"zperflab: error: screenshot: {exc}", file=sys.stderr)
        return 2
    return 0


def release_clipboard() -> None:
    """Clear the clipboard if this process put data on it.

    Qt destroys the clipboard's QMimeData in a C++ exit handler, after
    Python has shut down; for data created from Python (Copy on the canvas)
    shiboken then touches a dead interpreter and the process segfaults on
    the way out. Clearing it while Python is alive avoids that. The copied
    components are ours only: nothing else the user copied is touched.
    """
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        return
    board = QGuiApplication.clipboard()
    data = board.mimeData()
    ours = data is not None and any(f.startswith("application/x-zperflab") for f in data.formats())
    if board.ownsClipboard() or ours:
        board.clear()


#: What Qt's offscreen platform (``--screenshot``, ``zperflab export``) says of
#: every window it shows: no fault of the user's, and their one line of
#: output is all they should read.
OFFSCREEN_NOISE = ("This plugin does not support propagateSizeHints()",)


def quiet_offscreen_noise() -> None:
    """Drop Qt's offscreen-platform warnings in ``OFFSCREEN_NOISE``; every other
    Qt message still reaches stderr as Qt writes it."""
    from PySide6.QtCore import qInstallMessageHandler

    previous = None

    def handler(mode, context, message):
        if message in OFFSCREEN_NOISE:
            return
        if previous is not None:
            previous(mode, context, message)
        else:
            print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)


def check_options(args: argparse.Namespace) -> None:
    """Refuse ``gui`` options that would be ignored, before Qt starts.

    Raises
    ------
    UsageError
        One line: a blank ``--lesson``, ``--step`` or ``--no-present``
        without a lesson, ``--run`` without ``--open``, or ``--open``,
        ``--run`` or ``--view`` beside ``--lesson`` (a lesson opens its own
        drawing, run and tab).
    """
    lesson = getattr(args, "lesson", None)
    if lesson is not None and not lesson.strip():
        raise UsageError("--lesson needs a lesson's name ('zperflab lessons' lists them)")
    if lesson is None:
        if getattr(args, "step", None) is not None:
            raise UsageError("--step picks a step of a lesson: give --lesson NAME too")
        if not getattr(args, "present", True):
            raise UsageError("--no-present applies to a lesson: give --lesson NAME too")
        if args.run and not getattr(args, "open", None):
            raise UsageError("--run runs what --open opens: give --open CASE_OR_FILE too")
        return
    extra = [opt for opt, given in (("--open", getattr(args, "open", None)),
                                    ("--run", args.run), ("--view", args.view)) if given]
    if extra:
        raise UsageError(f"--lesson opens its own drawing, run and tab: drop {', '.join(extra)}")


def main(args: argparse.Namespace) -> int:
    """Open the main window; with ``--screenshot`` render it and exit.

    Returns the exit status: 0, or 2 for bad input (one line on stderr).
    """
    try:
        check_options(args)
        size = _parse_size(args.size)
    except UsageError as exc:
        print(f"zperflab: error: {exc}", file=sys.stderr)
        return 2
    if args.screenshot and "QT_QPA_PLATFORM" not in os.environ and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication

    from ui.main_window import MainWindow

    quiet_offscreen_noise()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("zPerfLab")
    app.setOrganizationName("zPerfLab")
    from app import APP_ID, __version__
    app.setApplicationVersion(__version__)
    QApplication.setDesktopFileName(APP_ID)
    app.aboutToQuit.connect(release_clipboard)
    window = MainWindow()
    try:
        return _show(app, window, args, size)
    finally:
        # Always: a worker thread destroyed while running aborts (exit 134).
        window.shutdown()
        tear_down(window)


def tear_down(window) -> None:
    """Destroy the (shut down) window and its Qt objects now, while Python runs.

    Left to the interpreter's exit, a window holding a large drawing and its
    tables was freed object by object through PySide6's weak-reference
    callbacks, which grow with every connection still alive: a 20,000-volume
    export wrote its file and then spun at exit for as long as anyone waited.
    Deleting the window in Qt first takes its items, tables and connections
    with it in one pass.
    """
    import gc

    import shiboken6

    window.scene.clear()                # the drawing's items, without per-item signals
    shiboken6.delete(window)            # its threads are stopped (shutdown): safe now
    gc.collect()


def _show(app, window, args: argparse.Namespace, size: tuple[int, int] | None) -> int:
    if size is not None or args.screenshot:
        window.resize(*(size or FIRST_SIZE))
    if not getattr(args, "open", None):
        window.show_start_page()
    if getattr(args, "open", None):
        error = window.open_case_or_file(args.open)
        if error:
            print(f"zperflab: error: {shorten(error, 300)}", file=sys.stderr)
            return 2
    if args.screenshot:
        window.show()
    else:
        window.show_first(size)     # on the screen whole, title and status bars included
    if getattr(args, "lesson", None):
        return _lesson(app, window, args, size or FIRST_SIZE)
    if args.screenshot:
        app.processEvents()
        if args.run:
            window.run_and_wait()
        _show_view(window, args.view)
        for _ in range(5):
            app.processEvents()
        return _screenshot(window, args.screenshot)
    _show_view(window, args.view)
    if args.run:
        window.run()          # in the background, as Run (F5): the window stays live
    window.offer_recovery()
    return app.exec()


def _show_view(window, name: str | None) -> None:
    problem = window.show_view(name) if name else None
    if problem:
        print(f"zperflab: note: {problem}; showing the canvas", file=sys.stderr)


def export(args: argparse.Namespace) -> int:
    """``zperflab export``: open, run and write OUT with the Export menu's code.

    The window is built offscreen and never shown; the run goes through the
    same path as Run (F5), and the file through :meth:`ExportActions.write_to
    <ui.actions_export.ExportActions.write_to>`. Returns 0, 2 for bad input,
    or 1 when the run or the export fails (one line on stderr each).
    """
    problem = _export_problem(args)
    if problem:
        print(f"zperflab: error: {shorten(problem, 300)}", file=sys.stderr)
        return 2
    if "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication

    from ui.main_window import MainWindow

    quiet_offscreen_noise()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("zPerfLab")
    app.setOrganizationName("zPerfLab")
    window = MainWindow()
    window.resize(1280, 800)
    window.show()         # offscreen: charts are laid out only in a shown window
    try:
        return _export(app, window, args)
    finally:
        window.shutdown()
        tear_down(window)


def _export_problem(args: argparse.Namespace) -> str | None:
    """Why ``export``'s options cannot be carried out as given, before any work."""
    from app import atomic

    if not (args.timeout > 0 and math.isfinite(args.timeout)):
        return f"--timeout must be a number of seconds above 0, not {args.timeout:g}"
    if args.list_charts:
        if args.out:
            return f"--list-charts only names the charts: drop OUT ({args.out}) or --list-charts"
        if args.chart is not None:
            return "--list-charts names every chart: drop --chart"
        if getattr(args, "whatif", None):
            return "--list-charts names the baseline's charts: drop --whatif"
        return None
    ext = str(args.out or "").lower().rsplit(".", 1)[-1]
    if ext not in ("pptx", "csv", "png", "svg"):
        return f"cannot tell the format of {args.out}: end it in .pptx, .csv, .png or .svg"
    if getattr(args, "whatif", None) and ext not in ("pptx", "csv"):
        return (f"--whatif writes a before/after deck (.pptx) or table (.csv), not a "
                f".{ext}: end OUT in .pptx or .csv")
    if args.chart is not None and ext not in ("png", "svg"):
        held = "every chart" if ext == "pptx" else "the results tables"
        return (f"--chart picks the chart of a .png or .svg; a .{ext} holds {held}: "
                "drop --chart or end OUT in .png or .svg")
    try:        # a device, a folder or a missing folder is refused before the run
        atomic.check_target(args.out)
    except atomic.WriteError as exc:
        return str(exc)
    return None


def _export(app, window, args: argparse.Namespace) -> int:
    from app.export import ExportError

    def fail(text: str, status: int = 2) -> int:
        print(f"zperflab: error: {shorten(text, 300)}", file=sys.stderr)
        return status

    error = window.open_case_or_file(args.case)
    if error:
        return fail(error)
    for key, value in args.sets.items():
        why = _set(window, key, value)
        if why:
            return fail(f"--set {key}: {why}")
    window.editor.undo_stack.setClean()           # a scripted edit, nothing to save
    if window.runnable_experiment() is None:
        return fail(window.results.headline.text())
    if getattr(args, "whatif", None):
        return window.exports.write_whatif(args, fail)
    window.run_and_wait(timeout_s=args.timeout)
    if window.document.result is None:
        return fail(f"the run did not finish: {window.status.text()}", 1)
    app.processEvents()
    if args.list_charts:
        for name, title in window.exports.chart_names():
            print(f"{name}\t{title}")
        return 0
    try:
        path = window.exports.write_to(args.out, args.chart)
    except (ExportError, OSError) as exc:
        return fail(str(exc), 1)
    print(f"zperflab: wrote {path}", file=sys.stderr)
    return 0


def _set(window, key: str, value) -> str | None:
    """``--set KEY=VALUE`` on the drawing, or ``--set LABEL.property=VALUE`` on
    one component (the run is then a what-if, named so in what is written);
    why not, or None."""
    from models.core.params import ParamError
    from models.drawing import variants

    if not variants.is_setting(f"{key}=x"):
        return window.editor.set_parameter(key, value)
    try:
        variants.apply_setting(window.document.scenario, f"{key}={value}")
    except ParamError as exc:
        return str(exc)
    return None


def _lesson(app, window, args: argparse.Namespace, size: tuple[int, int]) -> int:
    """``--lesson NAME --step K``: that step in presentation mode (a screenshot
    at ``--size``, or the live window full screen)."""
    parts = window.lessons
    error = parts.start(args.lesson, (args.step or 1) - 1)
    if error:
        print(f"zperflab: error: {shorten(error, 300)}", file=sys.stderr)
        return 2
    if getattr(args, "present", True):
        parts.presentation.set_on(True, full_screen=not args.screenshot)
    if not args.screenshot:
        return app.exec()
    window.resize(*size)
    controller = parts.player.driver.controller()
    if controller is not None:
        controller.pause()  # the picture shows the step's moment, not later
    for _ in range(5):
        app.processEvents()
    return _screenshot(window, args.screenshot)
