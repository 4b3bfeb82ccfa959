"""Where the bundled data lives: the files of the ``resources`` package.

Found with :mod:`importlib.resources`, not by walking up from this source
file, so the same lookup works in a checkout, an editable or a wheel install
and in the PyInstaller bundle (``packaging/build.sh``), wherever each puts
the package. zPerfLab always installs its data as plain files (never in a
zip): Qt, the file-size checks and the folder listings need real paths, so
finding the data anywhere else is an installation error, said once, here.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _on_disk(package: str) -> Path:
    """The folder of ``package``'s data files, as a real path."""
    where = files(package)
    if not isinstance(where, Path):
        raise RuntimeError(f"zPerfLab's data package '{package}' is not installed as plain "
                           f"files ({where!r}); reinstall zPerfLab")
    return where


RESOURCES = _on_disk("resources")
TARGETS = RESOURCES / "calibration" / "targets.json"
SCENARIOS = RESOURCES / "scenarios"
SCHEMAS = RESOURCES / "schema"
ICONS = RESOURCES / "icons"
