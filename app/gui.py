"""Start the desktop app, or render it offscreen to a PNG and exit."""
from __future__ import annotations

import argparse
import os
import sys


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"zperflab: error: bad --size '{text}'; use WIDTHxHEIGHT, e.g. 1280x800") from None
    if not (320 <= w <= 8000 and 240 <= h <= 8000):
        raise SystemExit(f"zperflab: error: bad --size '{text}'; allowed 320x240 to 8000x8000")
    return w, h


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
    board = app.clipboard()
    data = board.mimeData()
    ours = data is not None and any(f.startswith("application/x-zperflab") for f in data.formats())
    if board.ownsClipboard() or ours:
        board.clear()


def main(args: argparse.Namespace) -> int:
    """Open the main window; with ``--screenshot`` render it and exit."""
    size = _parse_size(args.size)
    if args.screenshot and "QT_QPA_PLATFORM" not in os.environ and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication

    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("zPerfLab")
    app.setOrganizationName("zPerfLab")
    app.aboutToQuit.connect(release_clipboard)
    window = MainWindow()
    window.resize(*size)
    if not getattr(args, "open", None):
        window.show_start_page()
    if getattr(args, "open", None):
        error = window.open_case_or_file(args.open)
        if error:
            print(f"zperflab: error: {error}", file=sys.stderr)
            return 2
    window.show()
    if args.screenshot:
        app.processEvents()
        if args.run:
            window.run_and_wait()
        problem = window.show_view(args.view)
        if problem:
            print(f"zperflab: note: {problem}; showing the canvas", file=sys.stderr)
        for _ in range(5):
            app.processEvents()
        ok = window.grab().save(args.screenshot)
        window.shutdown()
        if not ok:
            print(f"zperflab: error: cannot write screenshot {args.screenshot}", file=sys.stderr)
            return 2
        return 0
    return app.exec()
