"""How a run is named beside others: the baseline, or a what-if and its change (no Qt).

A run is a **what-if** when the drawing it ran differs from the drawing as
opened (:func:`app.drawing_diff.differences`: a kind changed in the GUI, a
property set, ``--whatif LABEL.prop=VALUE``); otherwise it is the
**baseline**, "as imported" when the drawing came from RMF reports, the
"calibrated baseline" once it carries accepted calibrated quantities
(:mod:`models.rmf.calibrate`): calibration is no what-if, so its values are
counted as the baseline's (:func:`changes`), and a what-if made after it is
named by its own change only. Decks,
charts, CSV, History and Compare all name runs through :func:`run_name`, so
a what-if is never called "model" where RMF's measured figures stand beside
it (an audience reads "model 0.204 ms against RMF 0.649 ms" as the model
being 3× off, when 0.204 ms is the what-if's answer).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from app import drawing_diff

BASELINE = "baseline"
BASELINE_IMPORTED = "baseline as imported"
BASELINE_CALIBRATED = "calibrated baseline"
WHATIF = "what-if"
#: What the chart legends call a run's bars when nothing else is known.
MODEL = "model"


@dataclass(frozen=True)
class RunName:
    """A run's name in words.

    Attributes
    ----------
    change : str
        What the what-if changed ("SGDB2 on SSD"); "" for a baseline.
    imported : bool
        The drawing was imported from RMF reports (RMF's figures stand beside it).
    calibrated : bool
        The drawing carries accepted calibrated quantities ("Calibrate to RMF").
    """

    change: str = ""
    imported: bool = False
    calibrated: bool = False

    @property
    def is_whatif(self) -> bool:
        return bool(self.change)

    @property
    def short(self) -> str:
        """"what-if", "baseline as imported", "calibrated baseline" or
        "baseline" (a column head, a tick)."""
        if self.change:
            return WHATIF
        return self._base

    @property
    def _base(self) -> str:
        if self.calibrated:
            return BASELINE_CALIBRATED
        return BASELINE_IMPORTED if self.imported else BASELINE

    @property
    def label(self) -> str:
        """"what-if: SGDB2 on SSD", "baseline as imported" or "baseline"."""
        return f"{WHATIF}: {self.change}" if self.change else self.short

    @property
    def against(self) -> str:
        """The run and what it is measured against: "what-if: SGDB2 on SSD,
        against the baseline as imported" (a subtitle)."""
        return f"{self.label}, against the {self._base}" if self.change else self.label

    def beside_rmf(self) -> str:
        """A run's bars beside RMF's: "model" for the plain baseline (what the
        imported drawing answers), the what-if's name otherwise."""
        return self.label if self.change else MODEL


def is_imported(document: dict | None) -> bool:
    """Whether a scenario document was imported from RMF reports."""
    return isinstance(document, dict) and bool(document.get("imported"))


def calibrated(document: dict | None) -> list[dict]:
    """The accepted calibrated quantities of a scenario document (none refused)."""
    from models.rmf.calibrate import entries

    if not is_imported(document) or not isinstance(document["imported"], dict):
        return []
    return [e for e in entries(document["imported"]) if not e.get("refused")]


def as_calibrated(opened: dict | None, ran: dict | None) -> dict | None:
    """``opened`` with the calibrated quantities ``ran`` carries set on its
    cards of the same label: the baseline a run of ``ran`` is counted from
    (calibrating is not a change; editing a calibrated value afterwards is)."""
    done = calibrated(ran)
    if not done or not isinstance(opened, dict):
        return opened
    from models.rmf.calibrate import QUANTITIES

    out = copy.deepcopy(opened)
    cards = {n.get("label"): n for n in out.get("nodes", ()) if isinstance(n, dict)}
    for e in done:
        card, quantity = cards.get(e.get("component")), QUANTITIES.get(e.get("quantity"))
        if card is not None and quantity is not None:
            card.setdefault("properties", {})[quantity[1]] = e["value"]
    if isinstance(out.get("imported"), dict):
        out["imported"]["calibrated"] = copy.deepcopy(ran["imported"]["calibrated"])
    return out


def changes(opened: dict | None, ran: dict | None) -> list[dict]:
    """What ``ran`` changed from the drawing as ``opened``, calibration not
    counted (:func:`as_calibrated`): what History records and names a run by."""
    return drawing_diff.differences(as_calibrated(opened, ran), ran)


def change_text(change: dict) -> str:
    """One change, short: a device change as the new device ("SGDB2 on SSD",
    "zHPF CHPIDs on FICON"), any other as :func:`app.drawing_diff.change_text`."""
    if change.get("property") != "device":
        return drawing_diff.change_text(change)
    old, new = str(change["old"]), str(change["new"])
    if " on " in old and " on " in new and old.split(" on ")[0] == new.split(" on ")[0]:
        return f"{change['component']} on {new.split(' on ', 1)[1]}"
    old_words, new_words = old.split(), new.split()
    if old_words[1:] == new_words[1:] and new_words:      # "FICON channel group" → "zHPF …"
        return f"{change['component']} on {new_words[0]}"
    return f"{change['component']} as {new}"


def describe(changes: list[dict], limit: int | None = drawing_diff.SHOWN) -> str:
    """The changes in one line, each as :func:`change_text`."""
    texts = [change_text(c) for c in drawing_diff.grouped(list(changes))]
    if limit is not None and len(texts) > limit:
        return "; ".join(texts[:limit]) + f"; and {len(texts) - limit} more"
    return "; ".join(texts)


def run_name(opened: dict | None, ran: dict | None, change: str = "") -> RunName:
    """The name of a run of drawing ``ran`` opened as ``opened``.

    Parameters
    ----------
    opened, ran : dict or None
        Scenario documents: the drawing as opened (the baseline) and the one
        the run ran from. Either missing: the baseline.
    change : str
        What the change is called when the caller knows it better than the
        drawings' difference does (``--whatif``'s own description).
    """
    imported = is_imported(opened) or is_imported(ran)
    tuned = bool(calibrated(ran if ran is not None else opened))
    if change:
        return RunName(change, imported, tuned)
    if opened is None or ran is None:
        return RunName("", imported, tuned)
    return RunName(describe(changes(opened, ran)), imported, tuned)


def from_changes(changes, imported: bool, calibrated: bool = False) -> RunName:
    """The name of a stored run from its recorded changes (History)."""
    return RunName(describe(list(changes)) if changes else "", imported, calibrated)
