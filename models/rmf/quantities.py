"""The quantities calibration sets on an imported drawing: their units, card
properties, physical bounds and on-screen names, and the checks of a saved
list (``imported["calibrated"]``). :mod:`models.rmf.calibrate` fits them;
"Measured vs model" (:mod:`models.rmf.measured`) flags a refused one's
figure. Qt-free.
"""
from __future__ import annotations

#: Calibrated quantities: name -> (unit, card property, smallest, largest).
QUANTITIES = {"background_pct": ("%", "background_pct", 0.0, 99.0),
              "conn_overhead_ms": ("ms", "conn_overhead_ms", 0.0, 10.0),
              "start_ms": ("ms", "start_ms", 0.01, 5.0),
              "write_disc_ms": ("ms", "write_disc_ms", 0.0, 20.0),
              "aliases_in_use": ("", "aliases_in_use", 0.0, 255.0),
              "reserved_pct": ("%", "reserved_pct", 0.0, 100.0)}
#: The measured figure each quantity is fitted to or read for (the table
#: flags it when refused).
FITTED_TO = {"background_pct": "total_utilization_pct", "conn_overhead_ms": "conn_ms",
             "start_ms": "pend_ms", "write_disc_ms": "disc_ms", "aliases_in_use": "busy_pct",
             "reserved_pct": "busy_pct"}
#: How the quantities are named on screen (their card property's label).
TITLES = {"background_pct": "busy with work not drawn",
          "conn_overhead_ms": "connect overhead per I/O",
          "start_ms": "start of an I/O (PEND)",
          "write_disc_ms": "remote copy per write",
          "aliases_in_use": "aliases in use (average)",
          "reserved_pct": "reserved by this system"}
def entries(imported: dict | None) -> list[dict]:
    """The calibrated quantities of an imported drawing, each checked: an
    unphysical or unknown one carries ``"refused"`` (the reason)."""
    out = []
    for e in (imported or {}).get("calibrated", []):
        e = dict(e)
        why = unphysical(e)
        if why and not e.get("refused"):
            e["refused"] = why
        out.append(e)
    return out


def unphysical(entry: dict) -> str:
    """Why ``entry``'s value cannot be used ("" when it can)."""
    q = QUANTITIES.get(entry.get("quantity", ""))
    if q is None:
        return f"no quantity {entry.get('quantity')!r} is calibrated ({', '.join(QUANTITIES)})"
    unit, _, low, high = q
    v = entry.get("value")
    if not isinstance(v, (int, float)) or v != v:
        return "its value is not a number"
    if v < low:
        return f"it would be {v:g} {unit}, below {low:g} {unit}"
    if v > high:
        return f"it would be {v:g} {unit}, above {high:g} {unit}"
    return ""


def refusals(imported: dict | None) -> dict[tuple[str, str], str]:
    """``{(card label, measured figure): reason}`` of every refused quantity."""
    return {(e["component"], FITTED_TO.get(e.get("quantity", ""), "")):
            f"calibration refused: {e['refused']}"
            for e in entries(imported) if e.get("refused")}


def title(e: dict) -> str:
    """The quantity's name on screen (capitalised)."""
    q = str(e.get("quantity", ""))
    name = TITLES.get(q, q)
    return name[:1].upper() + name[1:]
