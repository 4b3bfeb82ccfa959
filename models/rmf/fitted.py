"""Which measured figures a calibration set a quantity from (issue 41).

"Measured vs model" says which of its figures were calibrated and which the
model answered: a figure is calibrated when an accepted calibrated quantity
of its card was fitted to it (or read from it):
:data:`models.rmf.calibrate.FITTED_TO` names the figure of each quantity,
the entries name the card. Read generically, so a quantity added to
:mod:`models.rmf.calibrate` is marked without a change here. Qt-free.
"""
from __future__ import annotations

from typing import Callable


def fitted(imported: dict | None) -> dict[tuple[str, str], str]:
    """``{(card label, figure key): quantity's title}`` of every accepted
    calibrated quantity (a refused one set nothing: its figure is the model's)."""
    from models.rmf.quantities import FITTED_TO, entries, title

    out: dict[tuple[str, str], str] = {}
    for e in entries(imported):
        key = FITTED_TO.get(str(e.get("quantity", "")))
        if key and not e.get("refused"):
            out[(str(e.get("component")), key)] = title(e)
    return out


def by_title(imported: dict | None, figure_title: Callable[[str, str], str]
             ) -> dict[tuple[str, str], str]:
    """:func:`fitted` keyed as the table's rows read: ``(card label, figure
    title)``; ``figure_title(key, kind)`` is
    :func:`models.rmf.measured.figure_title` (passed in: the table's module
    imports this one)."""
    kinds = (imported or {}).get("kinds", {})
    return {(label, figure_title(key, kinds.get(label, ""))): quantity
            for (label, key), quantity in fitted(imported).items()}


def note(rows: dict[tuple[str, str], str]) -> str:
    """The table note's sentence naming the calibrated figures ``rows`` (as
    :func:`by_title` gives them; "" if none): "Calibrated, a quantity set
    from the figure: CONN ms of SGDB2 and SGTSO (connect overhead per I/O); …"."""
    groups: dict[tuple[str, str], list[str]] = {}
    for (label, figure), quantity in rows.items():
        groups.setdefault((figure, quantity[:1].lower() + quantity[1:]), []).append(label)
    if not groups:
        return ""
    said = "; ".join(f"{figure} of {_and(labels)} ({quantity})"
                     for (figure, quantity), labels in groups.items())
    return (f"Calibrated, a quantity set from the figure: {said}. Every other figure is "
            "the model's answer.")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
