"""The charts a lesson step names, found as the window titles them (no Qt).

A chart's title can depend on the run it draws: a what-if's measured charts
are titled "Measured vs what-if (SGDB2 on SSD): I/O response time"
(:func:`app.replay.series.derive_charts`, the run named by
:mod:`app.run_names`). A lesson names such a chart without the change, as
"Measured vs what-if: I/O response time": it says that the step shows a
what-if, and it does not copy words :mod:`app.run_names` chooses for the
change (they differ with each change, and go stale when that module words
them better). :func:`names` matches the two; a baseline's chart is named as
it is titled ("Measured vs model: request hit ratio").

The player finds a step's part with :func:`names`, and ``zperflab lessons
--check`` (:func:`app.lessons.check_runs`) checks every chart a lesson
names against :func:`titles`, the charts the window draws of that run.
"""
from __future__ import annotations

import re

from app import run_names
from app.replay.series import derive_charts

#: A what-if's chart title: its head up to "what-if", the change in
#: brackets, then the figure (which holds no colon; the change may).
_WHATIF_TITLE = re.compile(rf"^(.*\b{re.escape(run_names.WHATIF)}) \(.+\): ([^:]+)$")


def without_change(title: str) -> str:
    """``title`` without the change a what-if's name puts in it: "Measured
    vs what-if (SGDB2 on SSD): I/O rate" → "Measured vs what-if: I/O rate";
    any other title as it is."""
    found = _WHATIF_TITLE.match(title)
    return f"{found[1]}: {found[2]}" if found else title


def names(part: str, title: str) -> bool:
    """Whether a lesson's ``part`` names the chart (or tab) titled ``title``."""
    return part == title or part == without_change(title)


def bars_name(lesson, index: int) -> str:
    """What the window calls the bars of step ``index``'s run beside RMF's:
    "model" for the drawing as the lesson opens it, the what-if's name
    ("what-if: SGDB2 on SSD") once a step has changed it."""
    name = run_names.run_name(lesson.opened_document(), lesson.document_at(index))
    return name.beside_rmf()


def titles(lesson, index: int, result) -> list[str]:
    """The titles of the charts the window draws of step ``index``'s run ``result``."""
    return [chart.title for chart in derive_charts(result, bars_name(lesson, index))]
