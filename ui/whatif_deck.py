"""A before/after deck: the baseline and a what-if, named, side by side.

``zperflab export F deck.pptx --whatif SGDB2.drive=SSD`` and Export ▸ Slides
with the Compare tab in front both write it. The two runs are on the Compare
tab (:class:`ui.compare.CompareView`), which draws each chart of both runs
with one value scale and the groups in one order; each chart becomes one
16:9 slide picture of the pair, each half headed by its run's name
(:func:`app.export.compare_image`). On a drawing imported from RMF, RMF's
measured bars stand beside the baseline's and the what-if's in one chart
each (:func:`app.replay.series.measured_beside`), and a table sets RMF's
figures beside both runs. The word "model" alone never names a what-if.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from PySide6.QtGui import QGuiApplication

from app import drawing_diff, export, pptx_export, run_names
from app.document import run_shape
from app.names import format_number
from app.replay.series import measured_beside
from models import experiments
from models.core.params import ParamError, key_words, shorten
from models.core.run import Table
from models.drawing import variants
from models.rmf import measured
from ui.canvas_picture import canvas_image
from ui.charts import ChartWidget
from ui.compare import delta_rows

#: Scale of a pair's picture on a slide: 16:9 at 1920×1080, each half laid
#: out at 640 px, its text half as large again as on screen.
PAIR_SCALE = 1.5
#: Pixel size a chart beside RMF is laid out at (drawn at 2×: 1920×1080).
SLIDE_CHART_SIZE = (960, 540)


@dataclass(frozen=True)
class Pair:
    """What a before/after deck is of.

    Attributes
    ----------
    a, b : RunResult
        The baseline's run and the what-if's.
    label_a, label_b : str
        Their names ("baseline as imported", "what-if: SGDB2 on SSD").
    title : str
        The scenario's title (the title slide's).
    note : str
        One more line for the title slide ("" for none): what both runs share.
    about : str
        The title slide's first line ("" : "A and B").
    """

    a: object
    b: object
    label_a: str
    label_b: str
    title: str
    note: str = ""
    about: str = ""


def pair_slides(view, pair: Pair) -> list[pptx_export.Slide]:
    """Every chart both runs have, as one picture of the pair each, then RMF
    beside both runs; drawn from ``view`` (the Compare tab, in front and
    showing ``pair``'s runs)."""
    left, right = view.left, view.right
    slides = []
    beside = {d.key: d for d in measured_beside(pair.a, pair.b, pair.label_a, pair.label_b)}
    was = left.tabs.currentIndex()
    try:
        for key, chart in left.charts().items():
            other = right.charts().get(key)
            if other is None or key in beside:
                continue
            left.tabs.setCurrentWidget(chart)        # the right side follows
            QGuiApplication.processEvents()
            image = _pair_image((chart, other), (pair.label_a, pair.label_b))
            slides.append(pptx_export.Slide(f"{chart.data.title}: before and after",
                                            export.png_bytes(image)))
        for data in beside.values():
            slides.append(pptx_export.Slide(data.title, _beside_png(left, data)))
    finally:
        left.tabs.setCurrentIndex(was)
    return slides


def _pair_image(charts, labels):
    for c in charts:
        c.set_title_shown(False)            # the slide's title says it
    try:
        return export.compare_image(charts, labels, PAIR_SCALE)
    finally:
        for c in charts:
            c.set_title_shown(True)


def _beside_png(charts_view, data) -> bytes:
    """``data`` drawn on a chart of its own for a moment on ``charts_view``'s
    tabs (a chart is laid out only when shown), as PNG bytes."""
    chart = ChartWidget(charts_view, charts_view.chart_minimum)
    tabs = charts_view.tabs
    index = tabs.addTab(chart, data.title)
    try:
        tabs.setCurrentIndex(index)
        chart.show_data(data)
        QGuiApplication.processEvents()
        chart.set_title_shown(False)
        return export.png_bytes(export.chart_image(chart, 2.0, size=SLIDE_CHART_SIZE))
    finally:
        tabs.removeTab(index)
        chart.deleteLater()


def tables(pair: Pair) -> list[tuple[str, list[str], list[list[str]]]]:
    """The deck's tables: each figure of both runs with the ratio, then RMF's
    figures beside both (a drawing imported from RMF)."""
    a, b, la, lb = pair.a, pair.b, pair.label_a, pair.label_b
    known = ({m.name: m for m in experiments.get(a.experiment).metrics}
             if a.experiment in experiments.registry() else {})
    rows = []
    for name, va, vb, ratio, _ in delta_rows(a, b):
        if not (va or vb):
            continue
        m = known.get(name)
        title = (m.title + (f" ({m.unit})" if m.unit else "")) if m else key_words(name)
        rows.append([title, format_number(va), format_number(vb),
                     "—" if ratio is None else format_number(float(f"{ratio:.3g}"))])
    ha, hb = (x.split(":", 1)[0] for x in (la, lb))    # "what-if: SGDB2 on SSD" → "what-if"
    out = [("Before and after", ["", la, lb, f"{hb} / {ha}"], rows)]
    rmf = [[f"{label}: {title}", format_number(m), format_number(va), format_number(vb)]
           for label, _key, title, m, va, vb in measured.beside(a, b)]
    if rmf:
        out.append(("Measured by RMF beside both runs", ["", "measured (RMF)", la, lb], rmf))
    return out


def build(path: str, view, pair: Pair, canvas_png: bytes | None = None):
    """Draw the pictures now (GUI thread) and return the job that writes the
    deck: ``job(progress, cancel) -> Path``."""
    charts = pair_slides(view, pair)
    subtitle = ((pair.about or f"{pair.label_a} and {pair.label_b}") + "\n"
                + (f"{pair.note}\n" if pair.note else "")
                + f"zPerfLab, {time.strftime('%Y-%m-%d')}, seed {pair.a.seed}")
    more = tables(pair)

    def job(progress, cancel):
        progress(0.5)
        return pptx_export.build_deck(path, pair.title, subtitle, canvas_png=canvas_png,
                                      canvas_title=f"The scenario, {pair.label_b}",
                                      charts=charts, tables=more)
    return job


# ---- ``zperflab export F OUT --whatif LABEL.prop=VALUE`` ---------------------
def _changes(scenario, settings) -> list[str]:
    """Apply each ``LABEL.property=VALUE`` to ``scenario``; their descriptions.

    Raises
    ------
    ParamError
        One line naming the setting and what is allowed.
    """
    out = []
    for text in settings:
        if not variants.is_setting(text):
            raise ParamError(f"--whatif needs LABEL.property=VALUE (e.g. SGDB2.drive=SSD), "
                             f"got '{shorten(text, 60)}'")
        before = run_shape(scenario)
        try:
            out.append(variants.apply_setting(scenario, text))
        except ParamError as exc:
            raise ParamError(f"--whatif {shorten(text, 60)}: {exc}") from None
        if run_shape(scenario) == before:      # named as a change, it would mislead
            raise ParamError(f"--whatif {shorten(text, 60)}: changes nothing "
                             f"({out[-1]} already)")
    return out


def export_whatif(window, args, fail) -> int:
    """Run the opened drawing (the baseline) and the what-if ``args.whatif``
    makes of it, then write ``args.out``: the before/after deck, or the
    before/after table as CSV. Returns the exit status (``fail(text,
    status)`` prints one line and returns it)."""
    doc = window.document
    try:
        _changes(doc.scenario.copy(), args.whatif)     # every setting checked before a run
    except ParamError as exc:
        return fail(str(exc))
    imported = run_names.is_imported(doc.opened_document)
    shared = run_names.changes(doc.opened_document, doc.snapshot())
    # What --set changed belongs to both runs: the what-if is counted from it.
    note = f"Both runs: {drawing_diff.describe(shared)}" if shared else ""
    a = _run(window, args.timeout)
    if a is None:
        return fail(f"the baseline did not finish: {window.status.text()}", 1)
    with doc.batch():
        change = "; ".join(_changes(doc.scenario, args.whatif))
    b = _run(window, args.timeout)
    if b is None:
        return fail(f"the what-if did not finish: {window.status.text()}", 1)
    tuned = bool(run_names.calibrated(doc.snapshot()))
    whatif = run_names.RunName(change, imported, tuned)
    pair = Pair(a, b, run_names.RunName("", imported, tuned).label, whatif.label, doc.title(), note,
                whatif.against)
    try:
        path = _write(window, args.out, pair)
    except (export.ExportError, OSError) as exc:
        return fail(str(exc), 1)
    print(f"zperflab: wrote {path} ({pair.label_a}; {pair.label_b})", file=sys.stderr)
    return 0


def _run(window, timeout: float):
    """Run the drawing as it is now; its result, or None if it did not finish."""
    window.document.clear_result()
    window.run_and_wait(timeout_s=timeout)
    QGuiApplication.processEvents()
    return window.document.result


def _write(window, path: str, pair: Pair) -> str:
    if path.lower().endswith(".csv"):
        return str(export.save_tables_csv([Table(t, tuple(h), tuple(map(tuple, rows)))
                                           for t, h, rows in tables(pair)], path))
    view = window.study.compare_view
    window.show_view("compare")
    view.set_results(pair.a, pair.b, pair.label_a, pair.label_b)
    QGuiApplication.processEvents()
    canvas = export.png_bytes(canvas_image(window.scene))
    return str(build(path, view, pair, canvas)(lambda _f: None, None))
