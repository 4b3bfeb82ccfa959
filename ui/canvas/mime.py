"""The drag-and-drop payload: one MIME type carrying a component registry key."""
from __future__ import annotations

from PySide6.QtCore import QMimeData

from models.drawing import components

#: The one MIME type the palette offers and the canvas accepts.
MIME_TYPE = "application/x-zperflab-component"


def encode_kind(kind_key: str) -> QMimeData:
    """Mime data for dragging a component of ``kind_key`` from the palette."""
    components.kind(kind_key)
    mime = QMimeData()
    mime.setData(MIME_TYPE, kind_key.encode("utf-8"))
    return mime


def decode_kind(mime: QMimeData | None) -> str | None:
    """The registry key carried by ``mime``, or ``None`` for anything else.

    Anything that is not our MIME type, not UTF-8 or not a registered kind
    decodes to ``None`` so the canvas simply refuses the drop.
    """
    if mime is None or not mime.hasFormat(MIME_TYPE):
        return None
    try:
        key = bytes(mime.data(MIME_TYPE)).decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    return key if key in components.KINDS else None
