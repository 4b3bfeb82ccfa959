"""Calibrating an imported drawing to what RMF measured (issue 41, part 2).

A drawing made from RMF reports holds this system's I/O only. Some of what
RMF measured comes from work the drawing lacks; calibration puts that work
in as named, physical quantities, each fitted on the model's own run of the
drawing and saved with the measured figure that set it, under
``scenario.imported["calibrated"]``:

``{"component", "quantity", "value", "unit", "from"}`` (and ``"refused"``,
the reason, when the value would be unphysical: it is then not used, and
the figure it was fitted to stays flagged in "Measured vs model").

The quantities (docs/rmf-drawing.md, "Calibration"). Read ones are taken
from RMF's figures as they are; fitted ones are set on the model's own runs
(:data:`ROUNDS` of them, each correcting the last by the difference left):

* ``background_pct`` of a channel group (read): the share of time each
  CHPID is busy with other systems' work on the shared channel: RMF's total
  utilisation less this LPAR's (this LPAR's own busy is the model's to
  earn; a gap there stays visible). It runs as a background stream of work
  on the channel's timeline (:meth:`models.io.paths.ChannelPath.set_background`),
  so the drawn I/O waits for it as on a real shared channel.
* ``conn_overhead_ms`` of a storage group (fitted to CONN): the control
  unit's connected time per I/O beyond the channel program and data
  transfer the model draws (``VolumeIO.conn_extra``).
* ``start_ms`` of a storage group (fitted to PEND): the pending time of an
  I/O that finds a free path (channel start, switch, host adapter, the
  unit's command response, CMR). It replaces the model's 0.12 ms; waits for
  a busy path, which the model earns, add to it.
* ``write_disc_ms`` of a storage group (fitted to DISC): the time a write
  stays disconnected while the unit copies it to a remote secondary
  (synchronous remote copy). Only where RMF's DISC is above the model's:
  a model already slower than measured has no remote copy to add, and the
  figure stays flagged with that reason.
* ``aliases_in_use`` of a storage group (read, for busy): RMF's % DEV UTIL
  is per exposure, base plus the aliases in use on average (the PAV
  column); the model's busy is divided the same way. The average is
  weighted by each volume's DISC + CONN time, as the group's busy is.
* ``reserved_pct`` of a storage group (read, for busy): RMF's % DEV RESV,
  the time this system holds a RESERVE, which z/OS counts as busy.

The card's property is what the model runs; the list says where its value
came from. Qt-free.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

from models.io.channel import START_S
from models.rmf.quantities import (FITTED_TO, QUANTITIES, TITLES, entries,  # noqa: F401
                                   refusals, title, unphysical)

#: Seed of the calibration runs (the model's own runs of the drawing).
SEED = 1
#: Runs of the drawing the fitted quantities are set on: the first without
#: any, each next one correcting them by what the last left (a busier path
#: from a longer connect changes PEND, and so on).
ROUNDS = 3
#: I/Os a group's run must make for its remote copy per write to be fitted:
#: DISC comes from a few misses and NVS waits, and a mean over fewer is noise
#: (over 200, its standard error is some 7 % of its spread).
MIN_REQUESTS = 200
#: The model's pending time of an I/O on a free path, uncalibrated.
DEFAULT_START_MS = START_S * 1000.0


class CalibrationError(ValueError):
    """The drawing cannot be calibrated (nothing measured to calibrate to)."""


def calibrate(sc, run: Callable[..., Any], seed: int = SEED) -> list[dict]:
    """Read and fit every quantity on the model's own runs of ``sc`` and apply them.

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
        Seed of the calibration runs.

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
    members = sc.imported.get("members", {})
    targets = {n.label: n for n in sc.nodes.values()
               if (n.category == "channel" and "total_utilization_pct" in measured.get(n.label, {}))
               or (n.category == "volume" and "conn_ms" in measured.get(n.label, {}))}
    if not targets:
        raise CalibrationError("nothing in the drawing has a figure to calibrate to: RMF's "
                               "total utilisation of a channel group (Channel Path Activity) "
                               "or the CONN of a storage group (Direct Access Device Activity)")
    work = copy.deepcopy(sc)
    for n in work.nodes.values():
        for _, prop, _, _ in QUANTITIES.values():
            n.properties.pop(prop, None)
    found: dict[tuple[str, str], dict] = {}
    for label, n in targets.items():
        if n.category == "channel":
            found[label, "background_pct"] = _background(label, measured[label])
        else:
            for e in _read_volumes(label, members.get(label, {})):
                found[label, e["quantity"]] = e
    _apply(work, targets, found)
    seconds = max((float(n.properties.get("duration_s", 2.0)) for n in sc.nodes.values()
                   if n.kind == "wl_io"), default=0.0)
    for k in range(ROUNDS):
        own = _run(work, seed, run)
        # DISC hangs on the few misses and NVS waits of a short run: fitted
        # only where the run made enough I/Os (PEND and CONN are mostly the
        # same every I/O, so a quiet group's few say them)
        few = _few(own, seconds)
        for label, n in targets.items():
            if n.category != "volume":
                continue
            for q, fit in (("conn_overhead_ms", _connect), ("start_ms", _start),
                           ("write_disc_ms", _write_disc)):
                figs = (few if q == "write_disc_ms" else own).get(label, {})
                e = fit(label, measured[label], figs, found.get((label, q)), seed, k + 1)
                if e is not None:
                    found[label, e["quantity"]] = e
        _apply(work, targets, found)
    out = list(found.values())
    for e in out:
        prop = QUANTITIES[e["quantity"]][1]
        node = next(n for n in sc.nodes.values() if n.label == e["component"])
        if e.get("refused"):
            node.properties.pop(prop, None)
        else:
            node.properties[prop] = e["value"]
    sc.imported["calibrated"] = out
    return out


def _apply(work, targets: dict, found: dict) -> None:
    """Set the accepted quantities on the working copy's cards (refused ones removed)."""
    by_label = {n.label: n for n in work.nodes.values() if n.label in targets}
    for (label, q), e in found.items():
        prop = QUANTITIES[q][1]
        if e.get("refused"):
            by_label[label].properties.pop(prop, None)
        else:
            by_label[label].properties[prop] = e["value"]


def _run(sc, seed: int, run: Callable[..., Any]) -> dict[str, dict]:
    """The components' figures of a run of ``sc`` (a storage group's read rate
    from its members, as "Measured vs model" reads it)."""
    from models.rmf.measured import model_figures

    try:
        res = run(sc.experiment, {}, seed=seed, scenario=sc)
    except ValueError as exc:       # ParamError: a drawing that cannot run
        if not any(n.category == "workload" for n in sc.nodes.values()):
            # Its reports have no device activity (a CHAN report alone).
            raise CalibrationError(
                "no run of the drawing to fit on: the import drew no workload, as its "
                "reports have no Direct Access Device Activity; import a DEVICE report with "
                "it (both files, with --join when they are of different intervals)") from None
        raise CalibrationError(f"no run of the drawing to fit on: {exc}") from None
    comps, _ = model_figures(res)
    return {k: dict(v) for k, v in comps.items()}


def _few(figs: dict[str, dict], seconds: float) -> dict[str, dict]:
    """The run's figures, a group's I/O rate set to 0 where it made fewer than
    :data:`MIN_REQUESTS` (its quantities are then not fitted, said why)."""
    out = {}
    for label, f in figs.items():
        made = float(f.get("io_rate") or 0.0) * seconds
        if 0 < made < MIN_REQUESTS:
            f = {**f, "io_rate": 0.0, "_made": made}
        out[label] = f
    return out


def _checked(e: dict[str, Any]) -> dict[str, Any]:
    why = unphysical(e)
    if why:
        e["refused"] = why
    return e


def _background(label: str, figs: dict) -> dict[str, Any]:
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
    return _checked(e)


def _read_volumes(label: str, vols: dict[str, dict]) -> list[dict[str, Any]]:
    """The group's aliases in use and reserve, read from its volumes' rows."""
    out: list[dict[str, Any]] = []
    weights = {vs: f.get("io_rate", 0.0) * (f.get("disc_ms", 0.0) + f.get("conn_ms", 0.0))
               for vs, f in vols.items() if f.get("pav")}
    if weights:
        total = sum(weights.values())
        if total > 0:
            per = sum(w / float(vols[vs]["pav"]) for vs, w in weights.items())
            exposures = total / per
        else:
            exposures = sum(float(vols[vs]["pav"]) for vs in weights) / len(weights)
        if exposures - 1.0 < 0.0005:
            weights = {}                # no alias in use: busy per device, nothing to set
    if weights:
        out.append(_checked({
            "component": label, "quantity": "aliases_in_use", "unit": "",
            "value": round(exposures - 1.0, 3),
            "from": f"the PAV column of the {len(weights)} volume(s) of {label} (Direct "
                    f"Access Device Activity): {exposures:.2f} exposures in use on average, "
                    "weighted by each volume's DISC + CONN time, less the base; RMF's "
                    "% DEV UTIL is per exposure"}))
    resv = [float(f["reserved_pct"]) for f in vols.values() if "reserved_pct" in f]
    if resv and any(resv):
        out.append(_checked({
            "component": label, "quantity": "reserved_pct", "unit": "%",
            "value": round(sum(resv) / len(resv), 3),
            "from": f"% DEV RESV of the {len(resv)} volume(s) of {label} (Direct Access "
                    "Device Activity), their mean: time this system held a RESERVE, which z/OS "
                    "counts in % DEV UTIL"}))
    return out


def _no_io(e: dict[str, Any], figure: str, model: dict | None = None) -> dict[str, Any]:
    made = (model or {}).get("_made")
    why = (f"the run made only {made:.0f} I/Os to it, too few to fit on (at least "
           f"{MIN_REQUESTS}: lengthen Run length on the workload cards)" if made else
           "the model made no I/O to it in the run, so nothing to fit on")
    return {**e, "value": 0.0, "from": figure, "refused": why}


def _connect(label: str, figs: dict, model: dict, last: dict | None, seed: int,
             rnd: int) -> dict[str, Any] | None:
    """The storage group's connect time per I/O beyond what the model draws."""
    conn = float(figs["conn_ms"])
    e: dict[str, Any] = {"component": label, "quantity": "conn_overhead_ms", "unit": "ms"}
    if not model.get("io_rate"):
        return _no_io(e, f"RMF's CONN of {label}, {conn:.3f} ms", model)
    mine = float(model.get("conn_ms", 0.0))
    before = 0.0 if last is None or last.get("refused") else float(last["value"])
    own = mine - before
    e.update(value=round(conn - own, 4),
             **{"from": f"RMF's CONN of {label}, {conn:.3f} ms (Direct Access Device "
                        f"Activity, rate-weighted over its volumes), less the model's own "
                        f"{own:.3f} ms per I/O (runs of the drawing, seed {seed})"})
    return _checked(e)


def _start(label: str, figs: dict, model: dict, last: dict | None, seed: int,
           rnd: int) -> dict[str, Any] | None:
    """The pending time of an I/O on a free path, fitted to RMF's PEND."""
    if "pend_ms" not in figs:
        return None
    pend = float(figs["pend_ms"])
    e: dict[str, Any] = {"component": label, "quantity": "start_ms", "unit": "ms"}
    if not model.get("io_rate"):
        return _no_io(e, f"RMF's PEND of {label}, {pend:.3f} ms", model)
    before = DEFAULT_START_MS if last is None or last.get("refused") else float(last["value"])
    waits = round(float(model.get("pend_ms", 0.0)) - before, 6) + 0.0   # waits for a busy path
    e.update(value=round(pend - waits, 4),
             **{"from": f"RMF's PEND of {label}, {pend:.3f} ms (Direct Access Device "
                        f"Activity, CMR and device-busy delays included), less the model's "
                        f"own waits for a busy path, {waits:.3f} ms per I/O (runs of the "
                        f"drawing, seed {seed})"})
    return _checked(e)


def _write_disc(label: str, figs: dict, model: dict, last: dict | None, seed: int,
                rnd: int) -> dict[str, Any] | None:
    """Remote-copy time per write: RMF's DISC beyond the model's, over its writes."""
    if "disc_ms" not in figs:
        return None
    disc = float(figs["disc_ms"])
    e: dict[str, Any] = {"component": label, "quantity": "write_disc_ms", "unit": "ms"}
    io = float(model.get("io_rate") or 0.0)
    if not io:
        return _no_io(e, f"RMF's DISC of {label}, {disc:.3f} ms", model)
    writes = max(0.0, 1.0 - float(model.get("read_rate", 0.0)) / io)
    before = 0.0 if last is None or last.get("refused") else float(last["value"])
    own = float(model.get("disc_ms", 0.0)) - before * writes
    src = (f"RMF's DISC of {label}, {disc:.3f} ms (Direct Access Device Activity), less "
           f"the model's own {own:.3f} ms (stages, NVS waits; runs of the drawing, seed "
           f"{seed}), over its writes, {100 * writes:.0f} % of the I/O")
    if writes <= 0.0:
        return {**e, "value": 0.0, "from": src, "refused": "the group made no writes in the "
                                                           "run, so no remote copy to fit"}
    e.update(value=round((disc - own) / writes, 4), **{"from": src})
    if e["value"] < 0:
        e["refused"] = (f"the model's DISC without it, {own:.3f} ms, is above RMF's "
                        f"{disc:.3f} ms (stages slower than the real ranks'): no remote "
                        "copy to add")
        return e
    return _checked(e)


def describe(e: dict) -> str:
    """One line for the assumptions list."""
    head = f"{title(e)} of {e['component']}: {e['value']:g} {e['unit']}".rstrip()
    if e.get("refused"):
        return f"{head}, NOT USED ({e['refused']}); from {e['from']}"
    return f"{head}, from {e['from']}"
