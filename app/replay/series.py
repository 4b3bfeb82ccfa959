"""Chart data derived from a :class:`~models.core.run.RunResult` (numpy only, no Qt).

Each ``*_chart`` function looks at what a run carries — its trace rows (see
docs/trace.md), its metrics and its RMF-style report tables — and returns a
:class:`ChartData` when the run supports that chart, else ``None``. The
widgets in :mod:`ui.charts.view` only draw what these return, so every chart
can be checked without a window. Nothing here re-runs or changes a model:
it regroups numbers the run already recorded (sums, counts, time bins).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from app.names import cause_title
from models.engine import trace_vocab as V

#: DB2 and z/VM spool pages are 4 KB (DOMAIN.md §1); ``io_start``'s ``b`` counts them.
PAGE_BYTES = 4096
#: At most this many time bins for rates over time: fine enough to show a
#: tape change at full scale.
TIME_BINS = 200
#: Events per bin we aim for, so a short run's rate is not all noise.
EVENTS_PER_BIN = 25
PHASES = V.PHASES


@dataclass(frozen=True)
class Series:
    """One drawn series.

    ``kind`` is ``line`` or ``step`` (x, y), ``bar`` (y per category; x is
    the category index), ``stack`` (like bar, stacked on the previous
    stack series) or ``span`` (intervals: x start, y end, ``rows`` the lane).
    """

    name: str
    x: np.ndarray
    y: np.ndarray
    kind: str = "line"
    rows: np.ndarray | None = None


@dataclass(frozen=True)
class ChartData:
    """A chart: title, labelled axes with units, series, optional categories."""

    key: str
    title: str
    x_label: str
    x_unit: str
    y_label: str
    y_unit: str
    series: tuple[Series, ...]
    categories: tuple[str, ...] = ()
    note: str = ""
    extra: dict = field(default_factory=dict)
    #: The part of the run a chart shows when it is not the whole run
    #: (drawn under the title, e.g. "first 2 of 1,000 LOADs simulated event
    #: by event"); "" for the whole run.
    scope: str = ""
    #: Where the numbers come from: ``trace`` (rows the run recorded, which
    #: may be a slice of it), ``component figures``, ``report`` or ``metrics``
    #: (the whole run, as the Results panel shows it).
    source: str = "trace"
    #: Where the value axis ends when the quantity cannot pass it (1 for a
    #: ratio); ``None``: room above the highest value.
    y_max: float | None = None

    def csv_rows(self) -> list[list]:
        """Header plus one row per point: series, x (or category), y[, row]."""
        ci = self.extra.get("ci95")
        rows: list[list] = [["series", _axis(self.x_label, self.x_unit),
                             _axis(self.y_label, self.y_unit), "lane"]
                            + ([_axis("95 % CI half-width", self.y_unit)] if ci is not None else [])]
        for s in self.series:
            for i, (x, y) in enumerate(zip(s.x.tolist(), s.y.tolist())):
                xv = self.categories[int(x)] if self.categories and s.kind in ("bar", "stack") else x
                # A two-line tick label ("SGDB2\nDISC") is one line in a cell.
                xv = xv.replace("\n", " ") if isinstance(xv, str) else xv
                lane = self.categories[int(s.rows[i])] if s.rows is not None and self.categories else ""
                rows.append([s.name, xv, _round(y), lane]
                            + ([_round(float(ci[i]))] if ci is not None else []))
        return rows


def _round(v: float) -> float:
    """Six significant digits: the model's own precision, without the binary
    noise of sums and bin widths (0.11999999999974886 → 0.12)."""
    return float(f"{v:.6g}") if isinstance(v, float) and np.isfinite(v) else v


def _axis(label: str, unit: str) -> str:
    return f"{label} ({unit})" if unit else label


def _kind_rows(trace, *names: str) -> np.ndarray | None:
    """Trace rows of the given kinds, or None when the trace has none."""
    if trace is None or not any(n in trace.kinds for n in names):
        return None
    rows = trace.of_kind(names)
    return rows if len(rows) else None


def _kid(trace, name: str) -> int:
    return trace.kinds.index(name) if name in trace.kinds else -1


# -- response time split ---------------------------------------------------
def phase_times(trace) -> tuple[list[str], np.ndarray] | None:
    """Mean IOSQ/PEND/DISC/CONN per volume from ``io_phase``/``io_end`` rows.

    Returns
    -------
    (volumes, ms) or None
        ``ms`` has shape (len(volumes), 4): mean milliseconds per I/O.
    """
    rows = _kind_rows(trace, V.IO_PHASE, V.IO_END)
    if rows is None or _kid(trace, V.IO_PHASE) < 0:
        return None
    end_kind = _kid(trace, V.IO_END)
    # Order each I/O's rows by time: a phase lasts until the next row of the same I/O.
    order = np.lexsort((rows["t"], rows["a"], rows["comp"]))
    r = rows[order]
    same = (r["comp"][1:] == r["comp"][:-1]) & (r["a"][1:] == r["a"][:-1])
    is_phase = r["kind"][:-1] != end_kind
    take = same & is_phase
    dur = (r["t"][1:] - r["t"][:-1])[take]
    comp = r["comp"][:-1][take]
    phase = np.clip(r["b"][:-1][take], 0, 3)
    first = np.ones(len(r), bool)
    first[1:] = ~same
    comps, n_io = np.unique(r["comp"][first], return_counts=True)
    out = np.zeros((len(comps), 4))
    for i, c in enumerate(comps):
        sel = comp == c
        out[i] = np.bincount(phase[sel], weights=dur[sel], minlength=4)[:4] / n_io[i] * 1e3
    return [trace.components[int(c)] for c in comps], out


def _phases_from_metrics(metrics) -> np.ndarray | None:
    keys = ("iosq_ms", "pend_ms", "disc_ms", "conn_ms")
    if not any(k in metrics for k in keys[1:]):
        return None
    return np.array([[float(metrics.get(k, 0.0)) for k in keys]])


def _phases_from_reports(reports) -> tuple[list[str], np.ndarray] | None:
    for table in reports:
        cols = [c.upper() for c in table.columns]
        idx = [next((i for i, c in enumerate(cols) if c.startswith(p)), -1) for p in PHASES]
        if sum(i >= 0 for i in idx[1:]) < 3 or not table.rows:
            continue
        names = [str(row[0]) for row in table.rows]
        vals = np.array([[float(row[i]) if i >= 0 else 0.0 for i in idx] for row in table.rows])
        return names, vals
    return None


def _phases_from_components(components) -> tuple[list[str], np.ndarray] | None:
    keys = ("iosq_ms", "pend_ms", "disc_ms", "conn_ms")
    names = [n for n, figs in (components or {}).items()
             if sum(k in figs for k in keys[1:]) >= 3]
    if not names:
        return None
    return names, np.array([[float(components[n].get(k, 0.0)) for k in keys] for n in names])


def response_chart(result) -> ChartData | None:
    """Stacked bars of mean I/O response time split into its four parts.

    The whole run's per-component figures come first (the Results panel's
    "Components as drawn"), so chart and table show one number; the trace
    (which may hold only part of the run, and then says so) only when the
    run reports no component figures.
    """
    found = _phases_from_components(getattr(result, "components", None))
    source = "component figures"
    if found is None:
        found = phase_times(result.trace)
        source = "trace"
    if found is None:
        found = _phases_from_reports(result.reports)
        source = "report"
    if found is None:
        ms = _phases_from_metrics(result.metrics)
        found = None if ms is None else (["mean I/O"], ms)
        source = "metrics"
    if found is None:
        return None
    names, ms = found
    idx = np.arange(len(names), dtype=float)
    series = tuple(Series(p, idx, ms[:, k].copy(), "stack") for k, p in enumerate(PHASES))
    # A storage group is one bar (its volumes' figures together): say so.
    groups = set(getattr(result, "members", None) or {}) & set(names)
    x = "Volume" if not groups else "Storage group" if len(groups) == len(names) else \
        "Volume or storage group"
    return ChartData("response", "I/O response time by component", x, "",
                     "Response time", "ms", series, tuple(names), note=f"from the run's {source}",
                     source=source)


# -- rates over time -------------------------------------------------------
def _bins(t0: float, t1: float, events: int) -> np.ndarray:
    span = t1 - t0 if t1 > t0 else 1.0
    n = int(np.clip(events // EVENTS_PER_BIN, 10, TIME_BINS))
    return np.linspace(t0, t0 + span, n + 1)


def throughput_chart(result) -> ChartData | None:
    """MB/s over time: DASD I/O (pages per completed I/O), tape blocks, spool reads."""
    trace = result.trace
    rows = _kind_rows(trace, V.IO_START, V.IO_END, V.TAPE_WRITE, V.TAPE_READ, V.VOLUME_READ,
                      V.VOLUME_WRITE)
    if rows is None:
        return None
    times = trace.columns()["t"]
    edges = _bins(float(times.min()), float(times.max()), len(rows))
    width = edges[1] - edges[0]
    series = []
    pages = _io_pages(trace, rows)
    if pages is not None:
        series.append(("DASD I/O", pages[0], pages[1] * PAGE_BYTES))
    for kind, label in ((V.TAPE_WRITE, "tape write"), (V.TAPE_READ, "tape read")):
        r = rows[rows["kind"] == _kid(trace, kind)]
        if len(r):
            series.append((label, r["t"], r["a"].astype(float)))
    for kind, label in ((V.VOLUME_READ, "spool volume reads"),
                        (V.VOLUME_WRITE, "spool volume writes")):
        r = rows[rows["kind"] == _kid(trace, kind)]
        if len(r):
            series.append((label, r["t"], r["a"] * float(PAGE_BYTES)))
    if not series:
        return None
    mids = (edges[:-1] + edges[1:]) / 2
    out = tuple(Series(name, mids, np.histogram(t, edges, weights=w)[0] / width / 1e6, "step")
                for name, t, w in series)
    return ChartData("throughput", "Throughput over time", "Time", "s", "Throughput", "MB/s", out)


def _io_pages(trace, rows) -> tuple[np.ndarray, np.ndarray] | None:
    """End times of I/Os and the pages each moved (from its io_start row)."""
    start = rows[rows["kind"] == _kid(trace, V.IO_START)]
    end = rows[rows["kind"] == _kid(trace, V.IO_END)]
    if not len(start) or not len(end):
        return None
    key_s = start["comp"].astype(np.int64) << 40 | start["a"]
    key_e = end["comp"].astype(np.int64) << 40 | end["a"]
    order = np.argsort(key_s, kind="stable")
    pos = np.clip(np.searchsorted(key_s[order], key_e), 0, len(order) - 1)
    found = key_s[order][pos] == key_e
    return end["t"][found], start["b"][order][pos][found].astype(float)


def cache_chart(result) -> ChartData | None:
    """Read hit ratio: per time bin and cumulative, or the run's overall ratio."""
    rows = _kind_rows(result.trace, V.CACHE_HIT, V.CACHE_MISS, V.CACHE_WAIT)
    if rows is None:
        if "cache_hit_ratio" not in result.metrics:
            return None
        y = np.array([float(result.metrics["cache_hit_ratio"])])
        return ChartData("cache", "Cache read hit ratio", "", "", "Hit ratio", "",
                         (Series("hit ratio", np.zeros(1), y, "bar"),), ("whole run",),
                         source="metrics", y_max=1.0)
    # One miss per disconnect, as the run's statistics count (docs/trace.md).
    hit = (rows["kind"] != _kid(result.trace, V.CACHE_MISS)).astype(float)
    edges = _bins(float(rows["t"].min()), float(rows["t"].max()), len(rows))
    hits = np.histogram(rows["t"], edges, weights=hit)[0]
    total = np.histogram(rows["t"], edges)[0]
    mids = (edges[:-1] + edges[1:]) / 2
    keep = total > 0
    per_bin = Series("per interval", mids[keep], hits[keep] / total[keep], "step")
    cum = Series("cumulative", rows["t"], np.cumsum(hit) / np.arange(1, len(hit) + 1), "line")
    if result.experiment == "custom":
        # A drawn system's cache counts 4 KB records, as its "Record hit
        # ratio" metric does; RMF's (per request) is the request hit ratio.
        return ChartData("cache", "Cache record hit ratio", "Time", "s", "Record hit ratio", "",
                         (per_bin, cum), y_max=1.0)
    return ChartData("cache", "Cache read hit ratio", "Time", "s", "Hit ratio", "", (per_bin, cum),
                     y_max=1.0)


# -- queues and utilisation ------------------------------------------------
def _step_counts(t: np.ndarray, delta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(t, kind="stable")
    return t[order], np.cumsum(delta[order])


#: A queue with more changes than this is drawn as its mean per time bin:
#: thousands of up-and-down steps fill the plot as a solid block.
MAX_STEPS = 4 * TIME_BINS


def level_means(x: np.ndarray, y: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Time-weighted mean of a step function (``y[i]`` from ``x[i]`` to
    ``x[i+1]``, 0 before ``x[0]``) over each bin between ``edges``."""
    area = np.concatenate([[0.0], np.cumsum(y[:-1] * np.diff(x))])
    i = np.searchsorted(x, edges, side="right") - 1
    before = i < 0
    i = np.clip(i, 0, len(x) - 1)
    at = np.where(before, 0.0, area[i] + y[i] * (edges - x[i]))
    return np.diff(at) / np.diff(edges)


def _queue_series(name: str, x: np.ndarray, y: np.ndarray, edges: np.ndarray) -> Series:
    if len(x) <= MAX_STEPS:
        return Series(name, x, y, "step")
    mids = (edges[:-1] + edges[1:]) / 2
    return Series(f"{name} (mean per interval)", mids, level_means(x, y, edges), "step")


def queue_chart(result) -> ChartData | None:
    """I/Os outstanding per volume (queued or active) and the storage buffer."""
    trace = result.trace
    rows = _kind_rows(trace, V.IO_START, V.IO_END, V.BUFFER_LEVEL)
    if rows is None:
        return None
    series = []
    edges = np.linspace(float(rows["t"].min()), float(rows["t"].max()) or 1.0, TIME_BINS + 1)
    ends = rows[rows["kind"] == _kid(trace, V.IO_END)]
    starts = rows[rows["kind"] == _kid(trace, V.IO_START)]
    for c in np.unique(starts["comp"])[:8]:   # a legend of more than 8 lanes is unreadable
        s, e = starts[starts["comp"] == c], ends[ends["comp"] == c]
        t = np.concatenate([s["t"], e["t"]])
        d = np.concatenate([np.ones(len(s)), -np.ones(len(e))])
        x, y = _step_counts(t, d)
        series.append(_queue_series(trace.components[int(c)], x, y, edges))
    buf = rows[rows["kind"] == _kid(trace, V.BUFFER_LEVEL)]
    extra = {}
    if len(buf):
        series.append(_queue_series("buffer (pages)", buf["t"], buf["a"].astype(float), edges))
        extra["capacity"] = float(buf["b"].max())
    if not series:
        return None
    ios, pages = len(series) - (1 if len(buf) else 0), bool(len(buf))
    label, unit = ("Outstanding", "I/Os or pages") if ios and pages else \
        (("Outstanding I/Os", "") if ios else ("Buffer filled", "pages"))
    if len(series) == 1 and "mean per interval" in series[0].name:
        label += ", mean per interval"     # the one-line legend is hidden
    return ChartData("queues", "Queue lengths", "Time", "s", label, unit, tuple(series), extra=extra)


def _busy_from_components(components) -> dict[str, float]:
    busy = {}
    for name, figs in (components or {}).items():
        for key in ("busy_pct", "utilization_pct"):
            if key in figs:
                v = figs[key]
                busy[name] = float(getattr(v, "mean", v))   # an Estimate over replications
                break
    return busy


def _busy_ci(components) -> dict[str, float]:
    """Half-widths of the 95 % intervals of the busy figures (replications)."""
    out = {}
    for name, figs in (components or {}).items():
        for key in ("busy_pct", "utilization_pct"):
            if key in figs and hasattr(figs[key], "half"):
                out[name] = float(figs[key].half)
                break
    return out


def utilisation_chart(result) -> ChartData | None:
    """Busy share of each component: the run's component figures (as the
    Results panel shows them), else engines' CPU slices and volumes' PEND-to-end
    time from the trace."""
    busy = _busy_from_components(getattr(result, "components", None))
    if busy:
        names = tuple(sorted(busy))
        y = np.array([busy[n] for n in names])
        ci = _busy_ci(result.components)
        if ci:
            # Replications: the mean of each component, with its 95 % interval.
            halves = np.array([ci.get(n, np.nan) for n in names])
            return ChartData("utilisation", "Utilisation per component", "Component", "",
                             "Busy", "%", (Series("busy", np.arange(len(y), dtype=float), y,
                                                  "bar"),), names,
                             extra={"ci95": halves}, source="component figures",
                             scope=f"mean of {len(result.seeds)} runs, bars: 95 % interval")
        return ChartData("utilisation", "Utilisation per component", "Component", "", "Busy", "%",
                         (Series("busy", np.arange(len(y), dtype=float), y, "bar"),), names,
                         source="component figures")
    trace = result.trace
    rows = _kind_rows(trace, V.CPU_BUSY, V.IO_PHASE, V.IO_END)
    if rows is None:
        return None
    cols = trace.columns()
    span = float(cols["t"].max() - cols["t"].min()) if len(cols) else 0.0
    if span <= 0:
        return None
    busy_s: dict[int, float] = {}
    cpu = rows[rows["kind"] == _kid(trace, V.CPU_BUSY)]
    for c, us in zip(*_sum_by(cpu["comp"], cpu["b"] * 1e-6)):
        busy_s[c] = busy_s.get(c, 0.0) + us
    found = _device_busy(trace, rows)
    for c, s in zip(*found) if found else ():
        busy_s[c] = busy_s.get(c, 0.0) + s
    if not busy_s:
        return None
    comps = sorted(busy_s, key=lambda c: trace.components[c])
    names = tuple(trace.components[c] for c in comps)
    y = np.array([busy_s[c] / span * 100.0 for c in comps])
    return ChartData("utilisation", "Utilisation per component", "Component", "",
                     "Busy", "%", (Series("busy", np.arange(len(y), dtype=float), y, "bar"),), names)


def _sum_by(keys: np.ndarray, values: np.ndarray) -> tuple[list[int], np.ndarray]:
    uniq, inv = np.unique(keys, return_inverse=True)
    return [int(u) for u in uniq], np.bincount(inv, weights=values, minlength=len(uniq))


def _device_busy(trace, rows) -> tuple[list[int], np.ndarray] | None:
    """Seconds each volume had at least one I/O between PEND start and I/O end.

    With PAV aliases several I/Os overlap on one volume; counting the time
    covered (not the sum of durations) keeps device busy at most 100 %, as
    RMF reports it.
    """
    ph = rows[(rows["kind"] == _kid(trace, V.IO_PHASE)) & (rows["b"] == 1)]
    end = rows[rows["kind"] == _kid(trace, V.IO_END)]
    if not len(ph) or not len(end):
        return None
    key_p = ph["comp"].astype(np.int64) << 40 | ph["a"]
    key_e = end["comp"].astype(np.int64) << 40 | end["a"]
    order = np.argsort(key_e, kind="stable")
    pos = np.clip(np.searchsorted(key_e[order], key_p), 0, len(order) - 1)
    ok = key_e[order][pos] == key_p
    starts, ends, comps = ph["t"][ok], end["t"][order][pos][ok], ph["comp"][ok]
    ids = sorted(set(comps.tolist()))
    return ids, np.array([_covered(starts[comps == c], ends[comps == c]) for c in ids])


def _covered(starts: np.ndarray, ends: np.ndarray) -> float:
    """Length of the union of intervals [starts[i], ends[i]]."""
    times = np.concatenate([starts, ends])
    steps = np.concatenate([np.ones(len(starts)), -np.ones(len(ends))])
    order = np.argsort(times, kind="stable")
    times, level = times[order], np.cumsum(steps[order])
    return float(np.sum(np.diff(times)[level[:-1] > 0]))


# -- CPU modes -------------------------------------------------------------
def switch_chart(result) -> ChartData | None:
    """SRB→TCB switches by cause (trace) or the run's switch count (metrics)."""
    trace = result.trace
    rows = _kind_rows(trace, V.SRB_TO_TCB)
    if rows is None:
        if "srb_switches" not in result.metrics:
            return None
        y = np.array([float(result.metrics["srb_switches"])])
        return ChartData("switches", "SRB→TCB switches", "", "", "Switches", "count",
                         (Series("switches", np.zeros(1), y, "bar"),), ("whole run",),
                         source="metrics")
    causes = list(trace.meta.get("causes", ()))
    ids, counts = np.unique(rows["b"], return_counts=True)
    names = tuple(cause_title(causes[i]) if 0 <= i < len(causes) else f"cause {i}"
                  for i in ids.tolist())
    return ChartData("switches", "SRB→TCB switches by cause", "Cause", "", "Switches", "count",
                     (Series("switches", np.arange(len(ids), dtype=float), counts.astype(float), "bar"),),
                     names)


def engine_type(name: str) -> str:
    """``zIIP`` for zIIP engines, ``general CP`` for ``CP…`` engines."""
    return "zIIP" if name.upper().startswith("ZIIP") else "general CP"


def _cpu_from_reports(reports) -> dict[str, float] | None:
    """zIIP and general-CP milliseconds summed over a report's components."""
    for table in reports or ():
        cols = [str(c) for c in table.columns]
        if "zIIP ms" in cols and "CP ms" in cols and table.rows:
            z, c = cols.index("zIIP ms"), cols.index("CP ms")
            return {"zIIP": float(sum(float(r[z]) for r in table.rows)),
                    "general CP": float(sum(float(r[c]) for r in table.rows))}
    return None


def cpu_chart(result) -> ChartData | None:
    """CPU time by engine type: the whole run's figures (metrics, or the CPU
    report the Results panel shows), else the trace's ``cpu_busy`` slices."""
    rows = _kind_rows(result.trace, V.CPU_BUSY)
    source = "metrics"
    if "ziip_cpu_ms" in result.metrics or "gcp_cpu_ms" in result.metrics:
        by_type = {"zIIP": float(result.metrics.get("ziip_cpu_ms", 0.0)),
                   "general CP": float(result.metrics.get("gcp_cpu_ms", 0.0))}
    elif _cpu_from_reports(result.reports) is not None:
        by_type, source = _cpu_from_reports(result.reports), "report"
        by_type = {k: v for k, v in by_type.items() if v > 0} or by_type
    elif rows is not None:
        source = "trace"
        comps, total_ms = _sum_by(rows["comp"], rows["b"] * 1e-3)
        by_type = {}
        for c, ms in zip(comps, total_ms):
            t = engine_type(result.trace.components[c])
            by_type[t] = by_type.get(t, 0.0) + float(ms)
    else:
        return None
    names = tuple(sorted(by_type))
    y = np.array([by_type[n] for n in names])
    return ChartData("cpu", "CPU time by engine type", "Engine type", "", "CPU time", "ms",
                     (Series("CPU", np.arange(len(y), dtype=float), y, "bar"),), names,
                     source=source)


# -- tape ------------------------------------------------------------------
def tape_chart(result) -> ChartData | None:
    """Per drive: when it wrote or read and when its cartridge was changed."""
    trace = result.trace
    rows = _kind_rows(trace, V.TAPE_WRITE, V.TAPE_READ, V.TAPE_CHANGE_START, V.TAPE_CHANGE_END)
    if rows is None:
        return None
    drives = sorted({int(c) for c in rows["comp"]}, key=lambda c: trace.components[c])
    lane = {c: i for i, c in enumerate(drives)}
    busy: list = []
    changes: list = []
    for c in drives:
        mine = rows[rows["comp"] == c]
        changes.extend((s, e, lane[c]) for s, e in _change_spans(trace, mine))
        busy.extend((s, e, lane[c]) for s, e in _transfer_spans(trace, mine))
    series = []
    for name, spans in (("transferring", busy), ("cartridge change", changes)):
        if spans:
            a = np.array(spans)
            series.append(Series(name, a[:, 0], a[:, 1], "span", a[:, 2].astype(int)))
    if not series:
        return None
    names = tuple(trace.components[c] for c in drives)
    return ChartData("tape", "Tape drive activity", "Time", "s", "Drive", "", tuple(series), names)


def _change_spans(trace, rows) -> list[tuple[float, float]]:
    start = rows["t"][rows["kind"] == _kid(trace, V.TAPE_CHANGE_START)]
    end = rows["t"][rows["kind"] == _kid(trace, V.TAPE_CHANGE_END)]
    spans = []
    for s in start:
        later = end[end >= s]
        spans.append((float(s), float(later[0]) if len(later) else float(s)))
    return spans


def _transfer_spans(trace, rows) -> list[tuple[float, float]]:
    """Merge block transfers separated by less than a gap into busy spans."""
    t = rows["t"][np.isin(rows["kind"], [_kid(trace, V.TAPE_WRITE), _kid(trace, V.TAPE_READ)])]
    if not len(t):
        return []
    gaps = np.diff(t)
    # Blocks stream at a steady interval; a pause of 3x that is idle time worth showing.
    limit = 3 * float(np.median(gaps)) if len(gaps) else 0.0
    cut = np.nonzero(gaps > limit)[0]
    starts = np.concatenate([[t[0]], t[cut + 1]])
    ends = np.concatenate([t[cut], [t[-1]]])
    return list(zip(starts.tolist(), ends.tolist()))


#: Every chart the view knows, in the order it shows them.
def _report(result, title: str):
    return next((t for t in getattr(result, "reports", ()) if t.title == title), None)


def library_chart(result) -> ChartData | None:
    """Library space: tracks the same members use at each block size."""
    table = _report(result, "Tracks used by block size")
    if table is None or not table.rows:
        return None
    names = tuple(f"{int(bs):,}" for bs, _ in table.rows)
    y = np.array([float(n) for _, n in table.rows])
    return ChartData("library_space", "Tracks used by block size", "Block size", "bytes",
                     "Tracks used", "tracks",
                     (Series("tracks used", np.arange(len(y), dtype=float), y, "bar"),), names,
                     note=table.note, source="report")


def sides_chart(result) -> ChartData | None:
    """CICS VSAM: a transaction's response time under LSR and under RLS."""
    table = _report(result, "LSR and RLS side by side")
    if table is None or len(table.columns) < 3:
        return None
    parts = [r for r in table.rows if r[0] in SIDE_PARTS]
    if not parts:
        return None
    series = tuple(Series(r[0], np.arange(2, dtype=float), np.array([float(r[1]), float(r[2])]),
                          "stack") for r in parts)
    return ChartData("sides", "LSR and RLS side by side", "Access mode", "",
                     "Transaction response", "ms", series, tuple(table.columns[1:3]),
                     note=table.note, source="report")


#: Rows of the side-by-side table stacked into a transaction's response time.
SIDE_PARTS = ("file requests", "log writes", "everything else")


# -- measured (RMF) beside the model -------------------------------------------
#: Legend of the measured-vs-model charts: what RMF measured, what the model gave.
MEASURED, MODELLED = "measured (RMF)", "model"
#: The response time and its four parts (figure name, as the chart names it).
RESPONSE_PARTS = (("resp_ms", "resp"), ("iosq_ms", "IOSQ"), ("pend_ms", "PEND"),
                  ("disc_ms", "DISC"), ("conn_ms", "CONN"))


def _measured(result) -> tuple[dict, dict, dict] | None:
    """(measured figures, model figures, kinds) by canvas label, for a run of a
    drawing imported from RMF; None for any other run."""
    imported = getattr(result, "measured", None) or {}
    measured = imported.get("measured") or {}
    if not measured or not getattr(result, "components", None):
        return None
    from models.rmf.measured import model_figures

    return measured, model_figures(result)[0], dict(imported.get("kinds") or {})


def _pairs(key: str, title: str, y_label: str, y_unit: str,
           rows: list[tuple[str, float, float]], note: str,
           y_max: float | None = None, model: str = MODELLED) -> ChartData | None:
    """Grouped bars: per category, the measured figure beside the run's
    (named ``model``: "model", or a what-if's name)."""
    if not rows:
        return None
    idx = np.arange(len(rows), dtype=float)
    series = (Series(MEASURED, idx, np.array([r[1] for r in rows], dtype=float), "bar"),
              Series(model, idx, np.array([r[2] for r in rows], dtype=float), "bar"))
    return ChartData(key, _vs(title, model), "", "", y_label, y_unit, series,
                     tuple(r[0] for r in rows), note=note, source="component figures",
                     y_max=y_max)


def _vs(title: str, model: str) -> str:
    """"Measured vs model: I/O rate" of a what-if: "Measured vs what-if (SGDB2
    on SSD): I/O rate", so a slide never sets RMF against a "model" that is
    a what-if's answer."""
    if model == MODELLED:
        return title
    head, _, figure = title.partition(": ")
    kind, _, change = model.partition(": ")
    shown = f"{kind} ({change})" if change else kind
    return f"{head.replace(MODELLED, shown)}: {figure}"


def _tick(model: str) -> str:
    """A run's word under its bar: "model", "what-if" or "baseline"."""
    return model.partition(": ")[0].split(" as ")[0]


def _groups(measured: dict, kinds: dict, kind: str) -> list[str]:
    return [label for label in measured if kinds.get(label) == kind]


def measured_rate_chart(result, model: str = MODELLED) -> ChartData | None:
    """I/O rate per storage group: RMF's beside the model's."""
    found = _measured(result)
    if found is None:
        return None
    measured, run, kinds = found
    rows = [(g, float(measured[g]["io_rate"]), float(run[g]["io_rate"]))
            for g in _groups(measured, kinds, "storage group")
            if "io_rate" in measured[g] and "io_rate" in run.get(g, {})]
    return _pairs("measured_rate", "Measured vs model: I/O rate", "I/O rate", "/s", rows,
                  "per storage group; the model's from the run's component figures",
                  model=model)


def measured_response_chart(result, model: str = MODELLED) -> ChartData | None:
    """Response time per storage group, RMF's bar beside the model's, each
    stacked into its four parts (IOSQ, PEND, DISC, CONN): which part differs
    shows at a glance, and the pair's labels fit a projector's width."""
    found = _measured(result)
    if found is None:
        return None
    measured, run, kinds = found
    tick = _tick(model)
    keys = [key for key, _ in RESPONSE_PARTS[1:]]
    groups = [g for g in _groups(measured, kinds, "storage group")
              if all(k in measured[g] and k in run.get(g, {}) for k in keys)]
    if not groups:
        return None
    cats, values = [], []
    for g in groups:
        for side, figs in (("RMF", measured[g]), (tick, run[g])):
            cats.append(f"{g}\n{side}")
            values.append([float(figs[k]) for k in keys])
    ms = np.array(values)
    idx = np.arange(len(cats), dtype=float)
    series = tuple(Series(p, idx, ms[:, k].copy(), "stack") for k, p in enumerate(PHASES))
    return ChartData("measured_response", _vs("Measured vs model: I/O response time", model),
                     "", "", "Response time", "ms", series, tuple(cats),
                     note=f"per storage group: what RMF measured beside the {model}, each "
                          "split into its four parts", source="component figures")


def measured_hit_chart(result, model: str = MODELLED) -> ChartData | None:
    """Read hit ratio per storage group and control unit (a unit's NORMAL reads),
    counted per read request as RMF counts them."""
    found = _measured(result)
    if found is None:
        return None
    measured, run, kinds = found
    rows = []
    for label in (_groups(measured, kinds, "storage group")
                  + _groups(measured, kinds, "control unit")):
        m, got = measured[label].get("read_hit_ratio"), run.get(label, {}).get(
            "req_read_hit_ratio")
        if m is not None and got is not None:
            rows.append((label, float(m), float(got)))
    return _pairs("measured_hit", "Measured vs model: request hit ratio", "Request hit ratio", "",
                  rows, "per storage group and control unit (normal reads), per read request",
                  y_max=1.0, model=model)


def measured_beside(a, b, model_a: str, model_b: str) -> list[ChartData]:
    """RMF's measured bars beside two runs of drawings imported from the same
    reports (a baseline and a what-if), each run's bars named: one chart per
    measured chart both runs have, RMF first, the groups in ``a``'s order."""
    out = []
    for fn in MEASURED_CHARTS:
        ca, cb = fn(a, model_a), fn(b, model_b)
        if ca is None or cb is None:
            continue
        out.append(_stack_beside(ca, cb, model_a, model_b) if _is_stack(ca)
                   else _bars_beside(ca, cb))
    return out


def _is_stack(data: ChartData) -> bool:
    return any(s.kind == "stack" for s in data.series)


def _bars_beside(ca: ChartData, cb: ChartData) -> ChartData:
    """Grouped bars: RMF's and ``a``'s series from ``ca``, ``b``'s beside them."""
    at = {c: i for i, c in enumerate(cb.categories)}
    idx = np.arange(len(ca.categories), dtype=float)
    yb = np.array([cb.series[1].y[at[c]] if c in at else np.nan for c in ca.categories])
    series = (*ca.series, Series(cb.series[1].name, idx, yb, "bar"))
    title = (f"Measured vs {_tick(ca.series[1].name)} and {_tick(cb.series[1].name)}: "
             f"{ca.title.partition(': ')[2]}")
    return replace(ca, title=title, series=series,
                   note=ca.note.replace("the model's", "each run's"))


def _stack_beside(ca: ChartData, cb: ChartData, model_a: str, model_b: str) -> ChartData:
    """Stacked bars per group: RMF's, ``a``'s and ``b``'s, side by side."""
    ta, tb = _tick(model_a), _tick(model_b)
    row_a = {c: i for i, c in enumerate(ca.categories)}
    row_b = {c: i for i, c in enumerate(cb.categories)}
    cats, rows = [], []
    for c in ca.categories:
        group, _, side = c.partition("\n")
        if side != "RMF" or f"{group}\n{tb}" not in row_b:
            continue
        for data, at, tick in ((ca, row_a, "RMF"), (ca, row_a, ta), (cb, row_b, tb)):
            cats.append(f"{group}\n{tick}")
            rows.append([s.y[at[f"{group}\n{tick}"]] for s in data.series])
    ms = np.array(rows, dtype=float).reshape(len(cats), len(ca.series))
    idx = np.arange(len(cats), dtype=float)
    series = tuple(Series(s.name, idx, ms[:, k].copy(), "stack") for k, s in enumerate(ca.series))
    return replace(ca, title=f"Measured vs {ta} and {tb}: I/O response time", series=series,
                   categories=tuple(cats),
                   note=f"per storage group: RMF's, the {model_a}'s and the {model_b}'s, each "
                        "split into its four parts")


def align(data: ChartData, order: tuple[str, ...]) -> ChartData:
    """Bar chart ``data`` with its categories in ``order`` (another run's), the
    ones ``order`` lacks after them: the same group in the same place on both
    sides of a comparison. Categories of two lines go by their first (the
    group), keeping their own order within it."""
    if not data.categories or not all(s.kind in ("bar", "stack") for s in data.series):
        return data
    # A two-line category ("SGDB2\nRMF") goes by its group, its first line:
    # the other side's "SGDB2\nwhat-if" stands where "SGDB2\nbaseline" does.
    place: dict[str, int] = {}
    for i, c in enumerate(order):
        place.setdefault(c.split("\n")[0], i)
    new = sorted(range(len(data.categories)),
                 key=lambda i: (place.get(data.categories[i].split("\n")[0], len(order)), i))
    if new == list(range(len(new))):
        return data
    idx = np.arange(len(new), dtype=float)
    series = tuple(Series(s.name, idx, np.asarray(s.y)[new], s.kind) for s in data.series)
    extra = dict(data.extra)
    if extra.get("ci95") is not None:
        extra["ci95"] = np.asarray(extra["ci95"])[new]
    return replace(data, series=series, categories=tuple(data.categories[i] for i in new),
                   extra=extra)


CHARTS = (response_chart, throughput_chart, cache_chart, queue_chart, utilisation_chart,
          switch_chart, cpu_chart, tape_chart, library_chart, sides_chart,
          measured_rate_chart, measured_response_chart, measured_hit_chart)


def trace_scope(result) -> str:
    """The part of the run its trace holds, in words; "" for the whole run.

    Program fetch simulates a few LOADs event by event and repeats them for
    the rest (``meta["loads_traced"]``); a ring trace keeps only its newest
    rows. A chart drawn from such a trace is a slice, and says so.
    """
    trace = getattr(result, "trace", None)
    if trace is None:
        return ""
    traced = trace.meta.get("loads_traced")
    total = (result.params or {}).get("iterations")
    if isinstance(traced, int) and isinstance(total, int) and 0 <= traced < total:
        return (f"first {traced:,} of {total:,} LOADs, simulated event by event "
                "(the rest repeat them)")
    since = getattr(trace, "since", None)
    if since is not None:
        return f"newest {len(trace):,} events only (recorded from {since:.6g} s on)"
    dropped = int(getattr(trace, "dropped", 0) or 0)
    if dropped:
        return f"newest {len(trace):,} events only ({dropped:,} older ones were not kept)"
    return ""


#: The charts that set RMF's measured figures beside the run's.
MEASURED_CHARTS = (measured_rate_chart, measured_response_chart, measured_hit_chart)


def derive_charts(result, model: str = MODELLED) -> list[ChartData]:
    """Every chart the run's data supports, in display order; a chart drawn
    from a trace that holds only part of the run carries its ``scope``.
    ``model``: what the measured charts call the run's bars ("model", or a
    what-if's name, :meth:`app.run_names.RunName.beside_rmf`)."""
    if hasattr(result, "seeds"):
        # Replications keep no trace: the per-component means with intervals.
        chart = utilisation_chart(result)
        return [chart] if chart is not None else []
    scope = trace_scope(result)
    if getattr(result, "trace", None) is not None:
        result = _ReadOnce(result)
    charts = [c for c in (fn(result, model) if fn in MEASURED_CHARTS else fn(result)
                          for fn in CHARTS) if c is not None]
    return [replace(c, scope=scope) if scope and c.source == "trace" else c for c in charts]


class _RowsOnce:
    """A trace whose rows are read out once for all the charts.

    Each chart asked the trace for its rows, and each ask copied every row
    out of the trace: a full ring of 2 million rows is 60 MB and tens of
    milliseconds a copy, several times a run. The copy is read-only, so no
    chart can change what the next one reads.
    """

    def __init__(self, trace) -> None:
        self._trace = trace
        self._columns: np.ndarray | None = None

    def __getattr__(self, name: str):
        return getattr(self._trace, name)

    def __len__(self) -> int:
        return len(self._trace)

    def columns(self) -> np.ndarray:
        """Every kept row, oldest first (as ``Trace.columns``), read once."""
        if self._columns is None:
            self._columns = self._trace.columns()
            self._columns.flags.writeable = False
        return self._columns

    def of_kind(self, names) -> np.ndarray:
        """Rows whose kind is one of ``names``, oldest first (as ``Trace.of_kind``)."""
        cols = self.columns()
        ids = [self._trace.kinds.index(n) for n in names if n in self._trace.kinds]
        return cols[np.isin(cols["kind"], ids)]


class _ReadOnce:
    """A run whose trace is a :class:`_RowsOnce` (every other field its own)."""

    def __init__(self, result) -> None:
        self._result = result
        self.trace = _RowsOnce(result.trace)

    def __getattr__(self, name: str):
        return getattr(self._result, name)
