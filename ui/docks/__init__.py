"""Dock widgets around the canvas: palette, inspector, results."""
