"""The result views beside the canvas (charts, animation), built by their own packages.

Each view is a QWidget with ``set_result(result)``; :func:`install_result_views`
adds those that exist in this build as tabs of the main window. A package that
has not landed yet (``ui.animation`` while it is being written) is left out;
any other import error is a bug and is raised.
"""
from __future__ import annotations

import importlib

#: Tab name → (module, class) of the views the window offers.
VIEWS = (("charts", "ui.charts", "ChartsView"), ("animation", "ui.animation", "ReplayView"))


def install_result_views(window) -> list[str]:
    """Add every available result view to ``window``; returns their names."""
    added = []
    for name, module_name, class_name in VIEWS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        cls = getattr(module, class_name, None)
        if cls is None:
            continue
        window.add_view(name, cls())
        added.append(name)
    return added
