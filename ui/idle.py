"""Cards that take no part in the run, said where a user looks.

:func:`models.drawing.config.idle_cards` names them with why; the canvas
draws the note under each such card (and in its tooltip and Properties),
and a finished run says which cards it left out, in the status bar and the
Results' headline. A storage group dropped beside SGDB2 and linked to
nothing used to change the run without a word (issue 40).
"""
from __future__ import annotations

import html

from models.drawing import config
from models.drawing.scenario import Scenario, ScenarioError

#: How a card's note begins.
NOTE = "takes no part in the run"


def notes(scenario: Scenario) -> dict[str, str]:
    """``{node id: "takes no part in the run: why"}`` for the drawing's idle cards."""
    return {nid: f"{NOTE}: {why}" for nid, why in config.idle_cards(scenario).items()}


def idle_labels(document: dict | None) -> list[tuple[str, str]]:
    """``[(label, why)]`` of the cards a run's drawing (a scenario document)
    left out; empty when there is none, or no drawing."""
    if not document:
        return []
    try:
        sc = Scenario.from_dict({k: v for k, v in document.items()
                                 if k not in ("format", "version")})
    except (ScenarioError, ValueError, KeyError, TypeError):
        return []
    return [(sc.nodes[nid].label, why) for nid, why in config.idle_cards(sc).items()]


def run_line(document: dict | None, limit: int = 6) -> str:
    """One sentence for after a run: "Took no part in this run: SG01 (no dataset
    a workload uses is on it), CU02 (…)"; empty when every card took part."""
    idle = idle_labels(document)
    if not idle:
        return ""
    shown = ", ".join(f"{label} ({why})" for label, why in idle[:limit])
    more = f" and {len(idle) - limit} more" if len(idle) > limit else ""
    return f"Took no part in this run: {shown}{more}."


def run_line_html(document: dict | None) -> str:
    """:func:`run_line` for a rich-text label (escaped, in the warning colour)."""
    text = run_line(document)
    return f"<span style='color:#8a1c00'>⚠ {html.escape(text)}</span>" if text else ""
