"""Room on an imported drawing for the notes under its cards.

A card that takes no part in the run carries a note under it on the canvas
("⚠ takes no part in the run: no workload uses this dataset", up to
ui/canvas/items.py's ISSUE_H of 64 px); imported rows 130 px apart covered
it with the next card. Qt-free; docs/rmf-drawing.md.
"""
from __future__ import annotations

from models.drawing import config
from models.drawing.scenario import Scenario

#: How much further down the next row goes below a row with such a card.
NOTE_ROOM = 70.0


def leave_room_for_notes(sc: Scenario) -> None:
    """Move every row below a row with an idle card down by :data:`NOTE_ROOM`
    (rows stay rows: a card keeps the height of its neighbours)."""
    noted = {sc.nodes[nid].y for nid in config.idle_cards(sc)}
    down, moved = 0.0, {}
    for y in sorted({n.y for n in sc.nodes.values()}):
        moved[y] = y + down
        down += NOTE_ROOM if y in noted else 0.0
    for n in sc.nodes.values():
        n.y = moved[n.y]
