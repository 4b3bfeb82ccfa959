"""Calibrating an imported drawing to what RMF measured (issue 41, part 2).

A drawing made from RMF reports holds this system's I/O only. Some of what
RMF measured comes from work the drawing lacks; calibration puts that work
in as named, physical quantities, each fitted on the model's own run of the
drawing and saved with the measured figure that set it, under
``scenario.imported["calibrated"]``:

``{"component", "quantity", "value", "unit", "from"}`` (and ``"refused"``,
the reason, when the value would be unphysical: it is then not used, and
the figure it was fitted to stays flagged in "Measured vs model").

The quantities (docs/rmf-drawing.md, "Calibration"):

* ``background_pct`` of a channel group: the share of time each CHPID is
  busy with other systems' work on the shared channel: RMF's total
  utilisation less this LPAR's, read, not fitted (this LPAR's own busy is
  the model's to earn; a gap there stays visible). It runs as a background stream of work
  on the channel's timeline (:meth:`models.io.paths.ChannelPath.set_background`),
  so the drawn I/O waits for it as on a real shared channel.
* ``conn_overhead_ms`` of a storage group: the control unit's connected
  time per I/O beyond the channel program and data transfer the model
  draws. Fitted as RMF's CONN (device report, rate-weighted over the
  group) less the model's CONN in a run without it. Each I/O of the
  group's volumes stays connected that much longer (``VolumeIO.conn_extra``),
  which also keeps the volume busy.

The card's property is what the model runs; the list says where its value
came from. Qt-free.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

#: Calibrated quantities: name -> (unit, card property, smallest, largest).
QUANTITIES = {"background_pct": ("%", "background_pct", 0.0, 99.0),
              "conn_overhead_ms": ("ms", "conn_overhead_ms", 0.0, 10.0)}
#: The measured figure each quantity is fitted to (the table flags it when refused).
FITTED_TO = {"background_pct": "total_utilization_pct", "conn_overhead_ms": "conn_ms"}
#: How the quantities are named on screen (their card property's label).
TITLES = {"background_pct": "busy with work not drawn",
          "conn_overhead_ms": "connect overhead per I/O"}
#: Seed of the calibration run (the model's own run of the drawing).
SEED = 1


class CalibrationError(ValueError):
    """The drawing cannot be calibrated (nothing measured to calibrate to)."""


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


def calibrate(sc, run: Callable[..., Any], seed: int = SEED) -> list[dict]:
    """Fit every quantity on the model's own run of ``sc`` and apply it.

    Parameters
    ----------
    sc : Scenario
        A drawing imported from RMF; edited in place: the accepted values
        set on the cards, ``sc.imported["calibrated"]`` replaced.
    run : callable
        What runs a drawing: :func:`models.experiments.run_experiment`,
        passed in because the RMF package sits below the experiments (they
        set RMF's figures beside every run of an imported drawing).
    seed : int
        Seed of the calibration run.

    Returns
    -------
    list of dict
        The entries, refused ones included.

    Raises
    ------
    CalibrationError
        The drawing carries no measured figure a quantity is fitted to.
    """
    if not sc.imported or not sc.imported.get("measured"):
        raise CalibrationError("the drawing carries no RMF measurements to calibrate to "
                               "(import it with import-rmf first)")
    measured = sc.imported["measured"]
    targets = {n.label: n for n in sc.nodes.values()
               if (n.category == "channel" and "total_utilization_pct" in measured.get(n.label, {}))
               or (n.category == "volume" and "conn_ms" in measured.get(n.label, {}))}
    if not targets:
        raise CalibrationError("nothing in the drawing has a figure to calibrate to: RMF's "
                               "total utilisation of a channel group (Channel Path Activity) "
                               "or the CONN of a storage group (Direct Access Device Activity)")
    own = _own_run(sc, seed, run)
    out = []
    for label, n in targets.items():
        fit = _background if n.category == "channel" else _connect
        out.append(fit(label, measured[label], own.get(label, {}), seed))
    for e in out:
        if not e.get("refused"):
            targets[e["component"]].properties[QUANTITIES[e["quantity"]][1]] = e["value"]
    sc.imported["calibrated"] = out
    return out


def _own_run(sc, seed: int, run: Callable[..., Any]) -> dict[str, dict]:
    """The components' figures of a run of ``sc`` without any calibrated quantity."""
    bare = copy.deepcopy(sc)
    for n in bare.nodes.values():
        for _, prop, _, _ in QUANTITIES.values():
            n.properties.pop(prop, None)
    try:
        res = run(bare.experiment, {}, seed=seed, scenario=bare)
    except ValueError as exc:       # ParamError: a drawing that cannot run
        raise CalibrationError(f"no run of the drawing to fit on: {exc}") from None
    return {k: dict(v) for k, v in res.components.items()}


def _background(label: str, figs: dict, model: dict, seed: int) -> dict[str, Any]:
    """The channel group's busy with other systems' work: read, not fitted.

    RMF gives it directly: the channel's total utilisation (every system)
    less this LPAR's. The model's own utilisation is left to the model: a
    gap between it and RMF's LPAR figure stays visible in "Measured vs
    model" (a fit on the total would hide it in this quantity).
    """
    total = float(figs["total_utilization_pct"])
    part = figs.get("utilization_pct")
    e: dict[str, Any] = {"component": label, "quantity": "background_pct", "unit": "%"}
    if part is None:
        return {**e, "value": 0.0,
                "from": f"RMF's total utilisation of {label}, {total:.2f} % (Channel Path "
                        f"Activity)",
                "refused": "RMF gives no utilisation of this LPAR beside the total, so "
                           "other systems' share is not known"}
    e.update(value=round(total - float(part), 3),
             **{"from": f"RMF's total utilisation of {label}, {total:.2f} % (Channel Path "
                        f"Activity, every system), less this LPAR's {float(part):.2f} %: "
                        f"other systems' work on the shared channel"})
    why = unphysical(e)
    if why:
        e["refused"] = why
    return e


def title(e: dict) -> str:
    """The quantity's name on screen (capitalised)."""
    q = str(e.get("quantity", ""))
    name = TITLES.get(q, q)
    return name[:1].upper() + name[1:]


def _connect(label: str, figs: dict, model: dict, seed: int) -> dict[str, Any]:
    """The storage group's connect time per I/O beyond what the model draws."""
    conn = float(figs["conn_ms"])
    e: dict[str, Any] = {"component": label, "quantity": "conn_overhead_ms", "unit": "ms"}
    if not model.get("io_rate"):
        return {**e, "value": 0.0, "from": f"RMF's CONN of {label}, {conn:.3f} ms",
                "refused": "the model made no I/O to it in the run, so nothing to fit on"}
    mine = float(model.get("conn_ms", 0.0))
    e.update(value=round(conn - mine, 4),
             **{"from": f"RMF's CONN of {label}, {conn:.3f} ms (Direct Access Device "
                        f"Activity, rate-weighted over its volumes), less the model's own "
                        f"{mine:.3f} ms per I/O (a run of the drawing, seed {seed})"})
    why = unphysical(e)
    if why:
        e["refused"] = why
    return e


def describe(e: dict) -> str:
    """One line for the assumptions list."""
    head = f"{title(e)} of {e['component']}: {e['value']:g} {e['unit']}"
    if e.get("refused"):
        return f"{head}, NOT USED ({e['refused']}); from {e['from']}"
    return f"{head}, from {e['from']}"
