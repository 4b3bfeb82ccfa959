"""Where a new card goes: never on top of another card.

A card dropped onto another used to land exactly on it, hiding it (issue 40:
"Storage group on SSD" dropped onto SGDB2 stacked an unlinked card over it,
and the run silently left it out). A new card that would overlap a card is
put on the nearest free grid spot beside it.
"""
from __future__ import annotations

from ui.canvas.items import ISSUE_H, NODE_H, NODE_W
from ui.editor import GRID, snap


def overlaps(scenario, x: float, y: float, gap: float = 0.0, note: float = 0.0) -> bool:
    """Whether a card with top left ``(x, y)`` would cover (part of) a card of
    ``scenario``, or come nearer to one than ``gap``; with ``note``, each card
    counts with that much room under it for its note."""
    h = NODE_H + note
    return any(not (x + NODE_W + gap <= n.x or n.x + NODE_W + gap <= x
                    or y + h + gap <= n.y or n.y + h + gap <= y)
               for n in scenario.nodes.values())


def free_spot(scenario, x: float, y: float, gap: float = 20.0) -> tuple[float, float]:
    """The grid spot nearest ``(x, y)`` (a card's top left) where a new card
    and the note under it (a new card often has one: "takes no part in the
    run") overlap no card or note of ``scenario``: rings of spots around it,
    nearest first."""
    x0, y0 = snap(x, y)
    step_x = GRID * round((NODE_W + gap) / GRID)
    step_y = GRID * round((NODE_H + ISSUE_H + gap) / GRID)
    for ring in range(0, 30):
        spots = [(x0 + i * step_x, y0 + j * step_y)
                 for i in range(-ring, ring + 1) for j in range(-ring, ring + 1)
                 if max(abs(i), abs(j)) == ring]
        spots.sort(key=lambda p: (p[0] - x0) ** 2 + (p[1] - y0) ** 2)
        for px, py in spots:
            if not overlaps(scenario, px, py, gap, ISSUE_H):
                return px, py
    return x0, y0


def drop_spot(scenario, x: float, y: float) -> tuple[float, float]:
    """Where a card dropped with top left ``(x, y)`` lands: there (snapped) if
    it covers no card, else on the nearest free spot beside."""
    sx, sy = snap(x, y)
    return (sx, sy) if not overlaps(scenario, sx, sy) else free_spot(scenario, sx, sy)
