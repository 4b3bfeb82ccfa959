"""Measured beside modelled: the figures RMF measured, by canvas label, and the table.

:func:`collect` takes the measured figures of an interval under the labels
of the drawing :mod:`models.rmf.drawing` made, with the figure names of
``RunResult.components`` (``io_rate``, ``resp_ms``, ``iosq_ms``,
``pend_ms``, ``disc_ms``, ``conn_ms``, ``busy_pct``, ``utilization_pct``,
``members``, ``max_…``) plus, for a control unit, RMF's cache figures:
``read_rate`` and ``read_hit_ratio`` (the NORMAL row), ``seq_read_rate``
and ``seq_read_hit_ratio`` (SEQUENTIAL), ``staged_tracks_rate`` and
``seq_staged_tracks_rate`` (CACHE MISSES, TRACKS), ``read_bytes_per_req``
(HOST ADAPTER) and ``disk_read_bytes_per_req`` (DISK ACTIVITY). Volumes
and storage groups have ``read_rate`` and ``read_hit_ratio`` of all their
reads (Cache Device Overview).

:func:`table` puts a run's figures beside them ("Measured vs model"), with
the difference and, where it is larger than :data:`BANDS` allows, the
likely reason. The model's read hit ratios compared are counted per read
request, as RMF counts them (``req_read_hit_ratio``).
"""
from __future__ import annotations

from models.core.run import COMPONENT_FIGURES, Table
from models.io.reports import group_totals
from models.rmf.records import CacheUnit, Interval
from models.rmf.bands import TOLERANCES, within

TABLE_TITLE = "Measured vs model"
_DEVICE = ("io_rate", "resp_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms", "busy_pct")
#: Model figure compared with a measured one, where the names differ.
MODEL_NAME = {"read_hit_ratio": "req_read_hit_ratio"}

#: A control unit's read figures are RMF's NORMAL row (its SEQUENTIAL row beside them).
UNIT_TITLES = {"read_rate": "normal read rate /s", "read_hit_ratio": "normal request hit ratio",
               "seq_read_hit_ratio": "sequential request hit ratio"}

#: Differences inside these bands are agreement: (absolute, relative), issue 41's
#: tolerances (models/rmf/bands.py, the one table).
BANDS = TOLERANCES

#: Figures kept under "measured" as read (configuration, counts, what other
#: systems did, the delays inside PEND) and left out of the table and the
#: comparisons: the model has nothing to set beside them.
READ_ONLY = frozenset((
    "pav", "cylinders", "cache_mb", "nvs_mb", "read_count", "read_hits", "seq_read_count",
    "seq_read_hits", "write_rate", "seq_write_rate", "write_count", "seq_write_count",
    "read_miss_rate", "write_miss_rate", "total_read_rate", "total_read_hit_ratio",
    "pct_read", "cache_io_rate", "cache_read_hit_rate", "write_hit_ratio", "dfw_rate",
    "stage_rate", "write_bytes_per_req", "disk_read_resp_ms", "disk_write_resp_ms",
    "lcu_io_rate", "lcu_resp_ms", "lcu_iosq_ms", "lcu_pend_ms", "lcu_disc_ms", "lcu_conn_ms",
    "lcu_busy_pct", "read_mb_s", "write_mb_s", "ficon_rate", "zhpf_rate", "mvs_busy_pct",
    # the delays inside PEND: the model has none
    "cmr_ms", "db_ms", "reserved_pct"))

#: Likely reasons for a difference beyond the band: (model lower, model higher).
#: Short, to fit a table cell; docs/rmf-drawing.md says more of each.
REASONS = {
    "io_rate": ("Poisson noise of a short run", "Poisson noise of a short run"),
    "resp_ms": ("see its four parts", "see its four parts"),
    "iosq_ms": ("I/O comes in bursts; the model's arrivals are random",
                "fewer aliases drawn than were in use"),
    "pend_ms": ("other systems' I/O on the paths is not drawn",
                "fewer paths reach the unit than drawn"),
    "disc_ms": ("measured DISC includes remote-copy time the model does not draw",
                "drawn ranks slower or busier than the real ones"),
    "conn_ms": ("transfer size is the unit's average, not the group's",
                "longer channel programs than measured"),
    "busy_pct": ("other systems' I/O to the volume is not drawn",
                 "more DISC + CONN than measured"),
    "utilization_pct": ("the CHPID also serves devices not drawn",
                        "every group reaches every unit (assumed)"),
    "total_utilization_pct": ("this LPAR's busy below RMF's, or other systems' work not "
                              "calibrated",
                              "more busy with work not drawn than measured"),
    "read_hit_ratio": ("a short warm-start run, not a long LRU interval",
                       "the fitted working set is small for this one"),
    "seq_read_hit_ratio": ("less prestaging than the real unit",
                           "the model prestages every sequential pass"),
    "staged_tracks_rate": ("record or partial-track stages, not whole tracks",
                           "a whole track staged per random miss"),
    "seq_staged_tracks_rate": ("less sequential I/O reached the unit",
                               "the model prestages further ahead"),
    "read_bytes_per_req": ("transfer size rounded to 4 KB pages",
                           "transfer size rounded to 4 KB pages"),
    "disk_read_bytes_per_req": ("partial-track stages", "whole-track stages"),
}
#: Reasons that depend on what the component is, where they differ from the above.
KIND_REASONS = {
    ("engine", "busy_pct"): ("the dispatcher fills the first engines; the total is as "
                             "measured",) * 2,
    ("volume", "io_rate"): ("one workload spreads evenly over the group's volumes",) * 2,
    # A unit's NORMAL row: the fit matches a group's reads in all, and gives
    # the random reads the hits the model's own sequential detection misses.
    ("control unit", "read_hit_ratio"): (REASONS["read_hit_ratio"][0],
                                         "the fit gives random reads the hits the model's "
                                         "sequential reads miss"),
}
KIND_REASONS["volume", "read_rate"] = KIND_REASONS["volume", "io_rate"]
REASONS["max_busy_pct"] = REASONS["busy_pct"]
REASONS["max_utilization_pct"] = REASONS["utilization_pct"]
REASONS["read_rate"] = REASONS["seq_read_rate"] = REASONS["io_rate"]


# ---- what was measured ----------------------------------------------------------
def collect(iv: Interval, groups: dict[str, list[str]], units: dict[str, CacheUnit | None],
            channels: dict[str, str], lcus: dict[str, set] | None = None) -> dict:
    """``{"measured": {label: figures}, "members": {group: {member: figures}}}``.

    Parameters
    ----------
    iv : Interval
    groups : dict
        Storage group card label → its volsers.
    units : dict
        Control unit card label → its cache unit (None: no cache report row).
    channels : dict
        Channel group card label → its CHPIDs, comma separated.
    lcus : dict or None
        Control unit card label → the LCUs of its volumes (their summary rows
        of the device report go under the unit as ``lcu_…``).
    """
    measured: dict[str, dict] = {}
    members: dict[str, dict] = {}
    caches = {vs: vc for u in iv.cache_units.values() for vs, vc in u.volumes.items()}
    for label, volsers in groups.items():
        vols = {vs: _volume(iv.volumes[vs], caches.get(vs)) for vs in volsers
                if vs in iv.volumes}
        if not vols:
            # No device report (a cache report alone): each volume's cache
            # figures as read, every system's I/O, out of the comparison.
            cached = {vs: _cached(caches[vs]) for vs in volsers if vs in caches}
            if any(cached.values()):
                members[label] = cached
            continue
        members[label] = vols
        measured[label] = {**group_totals(vols), **_reads(vols.values()),
                           **_delays(vols.values())}
    for label, unit in units.items():
        figs = _unit(unit) if unit is not None and unit.activity is not None else {}
        figs.update(_lcu(iv, (lcus or {}).get(label, ())))
        if figs:
            measured[label] = figs
    for label, names in channels.items():
        chps = {c: _channel(iv.channels[c]) for c in names.split(",") if c in iv.channels}
        if chps:
            members[label] = chps
            measured[label] = {**group_totals(chps), **_chan_totals(chps.values())}
    kinds = {**dict.fromkeys(groups, "storage group"), **dict.fromkeys(units, "control unit"),
             **dict.fromkeys(channels, "channel group")}
    for e in iv.engines:
        if e.type in ("CP", "zIIP") and e.busy_pct is not None:
            measured[f"{e.type} {e.number}"] = {"busy_pct": e.busy_pct, **_some(
                mvs_busy_pct=e.mvs_busy_pct)}
            kinds[f"{e.type} {e.number}"] = "engine"
    return {"measured": measured, "members": members,
            "kinds": {k: v for k, v in kinds.items() if k in measured}}


def _some(**figs) -> dict:
    """The figures that were given (None: not in the report)."""
    return {k: v for k, v in figs.items() if v is not None}


def _cached(vc) -> dict:
    """A volume's Cache Device Overview figures (every system's I/O to it)."""
    return _some(cache_io_rate=vc.io_rate, cache_read_hit_rate=vc.read_hit_rate,
                 dfw_rate=vc.dfw_rate, stage_rate=vc.stage_rate,
                 write_hit_ratio=vc.write_hit_ratio, pct_read=vc.pct_read)


def _volume(v, vc) -> dict:
    out = {"io_rate": v.rate, "resp_ms": v.resp_ms, "iosq_ms": v.iosq_ms,
           "pend_ms": v.pend_ms, "disc_ms": v.disc_ms, "conn_ms": v.conn_ms,
           "busy_pct": v.busy_pct,
           **_some(cmr_ms=v.cmr_ms, db_ms=v.db_ms, pav=v.pav, cylinders=v.cylinders,
                    reserved_pct=v.reserved_pct)}
    if vc is not None:
        out.update(_cached(vc))
    if vc is not None and vc.pct_read is not None:
        # This system's reads: its I/O rate at the read share the cache report
        # gives (which counts every system's I/O to the volume).
        out["read_rate"] = v.rate * vc.pct_read / 100
        reads = vc.io_rate * vc.pct_read / 100
        if vc.read_hit_ratio is not None:
            out["read_hit_ratio"] = vc.read_hit_ratio
        elif vc.read_hit_rate is not None and reads:
            out["read_hit_ratio"] = min(1.0, vc.read_hit_rate / reads)
    return out


def _reads(vols) -> dict:
    with_hr = [f for f in vols if "read_hit_ratio" in f and f.get("read_rate")]
    reads = sum(f["read_rate"] for f in with_hr)
    if not reads:
        return {}
    return {"read_rate": reads,
            "read_hit_ratio": sum(f["read_rate"] * f["read_hit_ratio"] for f in with_hr) / reads}


def _delays(vols) -> dict:
    """A group's CMR and device-busy delays, I/O-rate-weighted as PEND is."""
    out = {}
    for k in ("cmr_ms", "db_ms"):
        figs = [f for f in vols if k in f]
        rate = sum(f["io_rate"] for f in figs)
        if figs:
            out[k] = sum(f[k] * f["io_rate"] for f in figs) / rate if rate else 0.0
    return out


def _unit(u: CacheUnit) -> dict:
    a = u.activity
    rows = {"read_rate": a.read_normal.rate, "seq_read_rate": a.read_seq.rate,
            "read_hit_ratio": _ratio(a.read_normal), "seq_read_hit_ratio": _ratio(a.read_seq),
            "staged_tracks_rate": a.miss_normal.tracks_rate,
            "seq_staged_tracks_rate": a.miss_seq.tracks_rate,
            "read_bytes_per_req": a.host_read.bytes_per_req,
            "disk_read_bytes_per_req": a.disk_read.bytes_per_req,
            # read as printed, not compared (READ_ONLY)
            "cache_mb": u.cache_mb, "nvs_mb": u.nvs_mb,
            "read_count": a.read_normal.count, "read_hits": a.read_normal.hits,
            "seq_read_count": a.read_seq.count, "seq_read_hits": a.read_seq.hits,
            "write_rate": a.write_normal.rate, "seq_write_rate": a.write_seq.rate,
            "write_count": a.write_normal.count, "seq_write_count": a.write_seq.count,
            "read_miss_rate": a.miss_normal.read_rate, "write_miss_rate": a.miss_normal.write_rate,
            "total_read_rate": a.read_total.rate, "total_read_hit_ratio": _ratio(a.read_total),
            "pct_read": a.pct_read, "write_bytes_per_req": a.host_write.bytes_per_req,
            "disk_read_resp_ms": a.disk_read.resp_ms, "disk_write_resp_ms": a.disk_write.resp_ms,
            "cache_io_rate": u.overview.io_rate if u.overview else None}
    return {k: v for k, v in rows.items() if v is not None}


def _lcu(iv: Interval, lcus) -> dict:
    """The device report's LCU summary rows of a unit's LCUs, summed (times
    I/O-rate-weighted)."""
    rows = [iv.lcus[k] for k in sorted(lcus) if k in iv.lcus]
    if not rows:
        return {}
    rate = sum(r.rate for r in rows)
    out = {"lcu_io_rate": rate}
    for f in ("resp_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms", "busy_pct"):
        got = [r for r in rows if getattr(r, f) is not None]
        if got and rate:
            out[f"lcu_{f}"] = sum(getattr(r, f) * r.rate for r in got) / rate
        elif got:
            out[f"lcu_{f}"] = sum(getattr(r, f) for r in got) / len(got)
    return out


def _ratio(r) -> float | None:
    if r.hit_ratio is not None:
        return r.hit_ratio
    if r.rate and r.hit_rate is not None:
        return r.hit_rate / r.rate
    return None


def _channel(c) -> dict:
    # This LPAR's utilisation: the drawing holds this system's I/O only. The
    # total (every system's) is kept beside it.
    busy = c.part_busy_pct if c.part_busy_pct is not None else c.busy_pct
    return {"utilization_pct": busy or 0.0, **_some(
        total_utilization_pct=c.busy_pct, read_mb_s=c.read_mb_s, write_mb_s=c.write_mb_s,
        ficon_rate=c.ficon_rate, zhpf_rate=c.zhpf_rate)}


def _chan_totals(chps) -> dict:
    """A channel group's summed rates and mean total utilisation."""
    out = {}
    for k in ("read_mb_s", "write_mb_s", "ficon_rate", "zhpf_rate"):
        got = [f[k] for f in chps if k in f]
        if got:
            out[k] = sum(got)
    total = [f["total_utilization_pct"] for f in chps if "total_utilization_pct" in f]
    if total:
        out["total_utilization_pct"] = sum(total) / len(total)
    return out


# ---- beside the model -------------------------------------------------------------
#: A run's figures that are means over its requests, by the rate whose 0 says
#: the run had none: then the mean is no figure (a run's 0 ms is no time of
#: 0 ms), and the table says why (a group drawn idle, a volume the run missed).
PER_REQUEST = {"resp_ms": "io_rate", "iosq_ms": "io_rate", "pend_ms": "io_rate",
               "disc_ms": "io_rate", "conn_ms": "io_rate",
               "req_read_hit_ratio": "read_rate", "seq_read_hit_ratio": "seq_read_rate"}
#: Bytes per request: 0 only where there was no request.
PER_REQUEST_BYTES = ("read_bytes_per_req", "disk_read_bytes_per_req")
NO_REQUEST = {"io_rate": "no I/O reached it in the run", "read_rate": "no read reached it in "
              "the run", "seq_read_rate": "no sequential read reached it in the run",
              "disk_read_bytes_per_req": "no read went to disk in the run"}


def _means_of_requests(figs: dict) -> dict:
    """``figs`` without the means over requests the run did not make."""
    return {k: v for k, v in figs.items()
            if not (k in PER_REQUEST and figs.get(PER_REQUEST[k]) == 0
                    or k in PER_REQUEST_BYTES and v == 0)}


def _no_request(name: str, model: dict) -> str | None:
    """Why the run has no figure ``name`` (a model figure name), if for want of requests."""
    if name in PER_REQUEST and model.get(PER_REQUEST[name]) == 0:
        return NO_REQUEST[PER_REQUEST[name]]
    if name == "read_bytes_per_req" and model.get("read_rate") == 0 and \
            not model.get("seq_read_rate"):
        return NO_REQUEST["read_rate"]
    if name == "disk_read_bytes_per_req" and "staged_tracks_rate" in model:
        return NO_REQUEST[name]                   # the unit ran; its reads all hit
    return None


def model_figures(result) -> tuple[dict, dict]:
    """The run's figures as the comparison reads them: a storage group's read
    rate and request hit ratio from its members, and no mean over requests
    the run did not make (:data:`PER_REQUEST`)."""
    comps = {k: _means_of_requests(v) for k, v in result.components.items()}
    members = {g: {m: _means_of_requests(f) for m, f in ms.items()}
               for g, ms in result.members.items()}
    for g, ms in members.items():
        if g in comps:
            reads = [f for f in ms.values() if f.get("read_rate")]
            total = sum(f["read_rate"] for f in reads)
            if total:
                comps[g]["read_rate"] = total
                comps[g]["req_read_hit_ratio"] = sum(
                    f["read_rate"] * f.get("req_read_hit_ratio", 0.0) for f in reads) / total
    for figs in [*comps.values(), *(f for ms in members.values() for f in ms.values())]:
        # a channel with nothing but the drawn I/O on it: its total is its own
        if "utilization_pct" in figs and "total_utilization_pct" not in figs:
            figs["total_utilization_pct"] = figs["utilization_pct"]
    return comps, members


def table(imported: dict, result) -> Table:
    """The "Measured vs model" report table of a run of an imported drawing."""
    from models.rmf.quantities import refusals

    comps, members = model_figures(result)
    rows = []
    measured = imported.get("measured", {})
    kinds = imported.get("kinds", {})
    refused = refusals(imported)
    for label, figs in measured.items():          # the cards first, then their members
        rows += _rows(label, figs, comps.get(label, {}), kinds.get(label, ""), refused)
    for label in measured:
        member = "volume" if kinds.get(label) == "storage group" else "channel"
        for name, mfigs in imported.get("members", {}).get(label, {}).items():
            rows += _rows(f"{label} / {name}", mfigs, members.get(label, {}).get(name, {}),
                          member)
    return Table(TABLE_TITLE, ("component", "figure", "measured", "model", "difference",
                               "likely reason"), tuple(rows),
                 note="difference = model − measured; a reason is named where it is larger "
                      "than the band of docs/rmf-drawing.md. Hit ratios count read requests "
                      "that found all their records in cache, as RMF does. Measured: "
                      + _when(imported) + _calibrated(imported))


def _calibrated(imported: dict) -> str:
    from models.rmf.fitted import by_title, note
    said = note(by_title(imported, figure_title))
    return f". {said}" if said else ""


def _when(imported: dict) -> str:
    iv = imported.get("interval", {})
    return f"{iv.get('system') or 'system ?'}, {(iv.get('start') or 'time not given')}"


def _rows(label: str, figs: dict, model: dict, kind: str,
          refused: dict | None = None) -> list[tuple]:
    """The table's rows of one card; a figure a refused calibration was
    fitted to gives that refusal as its reason."""
    out: list[tuple] = []
    for key, m in figs.items():
        if key == "members" or key in READ_ONLY:
            continue
        got = model.get(MODEL_NAME.get(key, key))
        title = figure_title(key, kind)
        if got is None:
            why = _no_request(MODEL_NAME.get(key, key), model)
            out.append((label, title, _round(m), "—", "—", why or "the model gives no figure "
                                                                   "here"))
            continue
        diff = got - m
        digits = PERCENT_DIGITS if key.endswith("_pct") else 4
        why = (refused or {}).get((label, key)) or reason(key, m, got, kind)
        out.append((label, title, _round(m), _round(got, digits), _round(diff, digits), why))
    return out


def figure_title(key: str, kind: str = "") -> str:
    """How the table names figure ``key`` of a component of ``kind``."""
    if kind == "control unit" and key in UNIT_TITLES:
        return UNIT_TITLES[key]
    # Named as the model figure it is compared with (RMF's hit ratio is per request).
    return COMPONENT_FIGURES.get(MODEL_NAME.get(key, key), key)


def beside(a, b) -> list[tuple[str, str, str, float, float, float]]:
    """Measured, run ``a`` and run ``b`` side by side: ``(label, figure key,
    figure title, measured, a's, b's)`` for each figure RMF gave of a card
    (storage group, control unit, channel group, engine) that both runs
    model. Empty unless both runs carry the same measurements (two runs of
    drawings imported from the same interval, e.g. a baseline and a what-if);
    a figure RMF did not give gets no row."""
    if not a.measured or a.measured.get("measured") != b.measured.get("measured"):
        return []
    (ca, _), (cb, _) = model_figures(a), model_figures(b)
    kinds = a.measured.get("kinds", {})
    rows = []
    for label, figs in a.measured["measured"].items():
        for key, m in figs.items():
            name = MODEL_NAME.get(key, key)
            va, vb = ca.get(label, {}).get(name), cb.get(label, {}).get(name)
            if key == "members" or key in READ_ONLY or va is None or vb is None:
                continue
            rows.append((label, key, figure_title(key, kinds.get(label, "")), float(m),
                         float(va), float(vb)))
    return rows


def reason(key: str, measured: float, model: float, kind: str = "") -> str:
    """The likely reason for a difference beyond its band ("" inside it).

    ``kind``: what the component is ("engine", "volume", "storage group" …).
    """
    diff = model - measured
    if within(key, measured, model, kind):
        return ""
    lower, higher = KIND_REASONS.get((kind, key), REASONS.get(key, ("", "")))
    return lower if diff < 0 else higher


#: RMF prints busy and utilisation percentages to two decimals (CPU 45.12):
#: the model's beside them are printed the same.
PERCENT_DIGITS = 2


def _round(x: float, digits: int = 4) -> float:
    return round(float(x), digits) + 0.0       # + 0.0: -0.0 (of -0.0036 to 2 digits) is 0.0
