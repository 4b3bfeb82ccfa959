"""Where the bundled data lives (``resources/`` beside the packages)."""
from __future__ import annotations

from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
TARGETS = RESOURCES / "calibration" / "targets.json"
SCENARIOS = RESOURCES / "scenarios"
