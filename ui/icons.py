"""Component icons: the SVG files drawn for zPerfLab in ``resources/icons``.

SVG keeps them sharp on a projector and on high-DPI screens.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PySide6.QtGui import QIcon

from models.core.resources import ICONS as ICON_DIR


def icon_path(kind_key: str) -> Path:
    """The SVG file for a component kind (it exists for every registered kind)."""
    return ICON_DIR / f"{kind_key}.svg"


@lru_cache(maxsize=None)
def icon_for(kind_key: str) -> QIcon:
    """A scalable icon for a component kind."""
    path = icon_path(kind_key)
    if not path.exists():
        raise FileNotFoundError(f"no icon for component kind '{kind_key}' at {path}")
    return QIcon(str(path))
