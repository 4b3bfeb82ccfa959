"""Render zPerfLab's SVG application icon to the PNG sizes desktops look up.

    python render_icons.py ICON.svg OUT_DIR NAME [SIZE ...]

writes OUT_DIR/<S>x<S>/apps/NAME.png for each size (hicolor theme layout),
drawn by Qt's SVG renderer, the same one the app uses.
"""
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402


def main(argv: list[str]) -> int:
    svg, out, name, *sizes = argv
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    renderer = QSvgRenderer(svg)
    if not renderer.isValid():
        print(f"render_icons: {svg} is not a valid SVG", file=sys.stderr)
        return 1
    for size in (int(s) for s in sizes or ("48", "128", "256")):
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = Path(out, f"{size}x{size}", "apps", f"{name}.png")
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            print(f"render_icons: cannot write {target}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
