"""The elements of a drawing: components, links, issues and their canvas order.

Plain dataclasses that :class:`models.drawing.scenario.Scenario` holds and
that the hardware shorthand (:mod:`models.drawing.hardware`) and the
configuration (:mod:`models.drawing.config`) read, without the scenario's
editing and checking machinery.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from models.drawing import components


@dataclass
class Node:
    """One component on the canvas.

    ``properties`` holds the parameter values set on this component (values
    the user has not set come from the kind, the other components of the
    same category or the experiment's default).
    """

    id: str
    kind: str
    label: str
    x: float = 0.0
    y: float = 0.0
    properties: dict = field(default_factory=dict)

    @property
    def category(self) -> str:
        return components.kind(self.kind).category

    def copy(self) -> "Node":
        return Node(self.id, self.kind, self.label, self.x, self.y, dict(self.properties))


@dataclass(frozen=True)
class Link:
    """A link between two components (``source`` was dragged to ``target``)."""

    id: str
    source: str
    target: str


@dataclass(frozen=True)
class Issue:
    """Something that stops a run; ``node`` is ``None`` for the whole scenario."""

    node: str | None
    message: str


def id_number(ident: str) -> int | None:
    """The number in an id like ``n7`` or ``l12``; ``None`` for any other id
    (``n²`` and 5,000-digit ids included: only 1–18 ASCII digits count)."""
    digits = ident.lstrip("nl")
    if 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit():
        return int(digits)
    return None


def id_order(item) -> tuple:
    """Sort key of a component or link: numbered ids (``n7``) in number order,
    then any other id by its text."""
    number = id_number(item.id)
    return (0, number, item.id) if number is not None else (1, 0, item.id)
