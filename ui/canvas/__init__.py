"""The scenario canvas: scene, items, view and drag-and-drop payloads."""
