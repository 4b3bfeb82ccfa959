"""The whole drawing as one picture, for slides and the command-line export.

The Export menu (:mod:`ui.actions_export`) and the before/after deck
(:mod:`ui.whatif_deck`) both put the canvas on a slide; the picture is
drawn here, so neither of them imports the other to get it.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

#: Scale of the canvas snapshot (scene units → pixels).
CANVAS_SCALE = 2.0


def canvas_image(scene, scale: float = CANVAS_SCALE, margin: float = 30.0) -> QImage:
    """The whole scenario drawn from the scene (not the scrolled view), on
    white, with the whole run's busy figures whatever moment the replay is at."""
    rect = scene.itemsBoundingRect().adjusted(-margin, -margin, margin, margin)
    if rect.isEmpty():
        rect = QRectF(0, 0, 640, 360)
    image = QImage(round(rect.width() * scale), round(rect.height() * scale),
                   QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    shown = getattr(scene, "whole_run_shown", None)
    if shown is None:
        scene.render(p, QRectF(0, 0, image.width(), image.height()), rect)
    else:
        with shown():
            scene.render(p, QRectF(0, 0, image.width(), image.height()), rect)
    p.end()
    return image
