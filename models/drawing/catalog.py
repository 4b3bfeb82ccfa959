"""Which experiments a drawing can run: handed in from above, never looked up.

A drawing names the experiment it runs, and needs a few facts about it: that
it exists, its parameter schema (which properties the inspector offers on a
component, which counts are drawn), its title and whether it moves data over
channels. Those facts belong to the experiments. The drawing does not import
them: :mod:`models.experiments` installs its look-up here when it is
imported, so the dependency runs one way, from the experiments down to the
drawing. A drawing set to no experiment works without any.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from models.core.params import ParamError, Schema


class ExperimentFacts(Protocol):
    """What the drawing reads of an experiment."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def schema(self) -> Schema: ...
    @property
    def does_io(self) -> bool: ...
    @property
    def draws_groups(self) -> bool: ...


_lookup: Callable[[str], Any] | None = None


def install(lookup: Callable[[str], ExperimentFacts]) -> None:
    """Make ``lookup(name)`` the drawing's source of experiment facts.

    ``lookup`` raises :class:`~models.core.params.ParamError` for an unknown
    name. Called once, by :mod:`models.experiments` as it is imported.
    """
    global _lookup
    _lookup = lookup


def experiment(name: str) -> ExperimentFacts:
    """The facts of experiment ``name``.

    Raises
    ------
    ParamError
        ``name`` is unknown, or no experiments were installed (the caller
        imported the drawing alone and then asked for an experiment).
    """
    if _lookup is None:
        raise ParamError(f"experiment '{name}' cannot be looked up: no experiments are "
                         "installed (import models.experiments first)")
    return _lookup(name)
