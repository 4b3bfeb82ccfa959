"""Test set-up: Qt runs headless (offscreen platform) everywhere."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
