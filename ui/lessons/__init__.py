"""Guided lessons in the window: the player, its caption band and the menu
entries (View ▸ Lessons, View ▸ Present, Help ▸ Start the tour).

:func:`install` is the one hook ``ui.main_window`` calls; see docs/lessons.md.
"""
from ui.lessons.panel import LessonPanel, LessonPlayer, install

__all__ = ["LessonPanel", "LessonPlayer", "install"]
