"""Export charts and tables: PNG (1×, 2×, chosen pixel size), SVG, CSV, table
images, and copy to the clipboard.

Charts go through ``pyqtgraph.exporters``. Every file goes through the one
atomic writer (:mod:`app.atomic`), so a failed export never leaves half a
file and a full disk is reported as such; any failure raises
:class:`ExportError` with one clear line. QtCore/QtGui only (no widgets are
created here; the chart widget is passed in).
"""
from __future__ import annotations

import csv
import io
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

from PySide6.QtCore import QBuffer, QIODevice, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QGuiApplication, QImage, QPainter

from app import atomic
from app.names import words
from app.svg_flat import SVG_DPI, flatten_svg


class ExportError(RuntimeError):
    """An export failed. ``str()`` is one line naming the file and why."""


def atomic_write(path: str | Path, write: bytes | Callable[[Path], object]) -> Path:
    """Write ``write`` (bytes, or ``write(tmp)`` fills a temp file) beside ``path``,
    then move it into place (:func:`app.atomic.write`, the one atomic writer).

    Raises
    ------
    ExportError
        The directory is missing or not writable, the disk is full, or
        ``write`` failed; the message names ``path``, never the temp file.
    """
    try:
        atomic.write(path, write)
    except atomic.WriteError as exc:
        raise ExportError(str(exc)) from None
    return Path(path)


def _plot_item(chart):
    return chart.getPlotItem() if hasattr(chart, "getPlotItem") else chart


def chart_image(chart, scale: float = 1.0, size: tuple[int, int] | None = None) -> QImage:
    """Render a chart (a PlotWidget) to an image.

    Parameters
    ----------
    chart : pyqtgraph.PlotWidget
    scale : float
        1 for screen size, 2 for a sharp slide image (text scales too).
    size : (width, height) or None
        Lay the chart out at this size first, so labels keep their point
        size instead of being stretched; the image is ``size`` × ``scale``
        pixels (slides lay out at 960×540 and render at 2× so the text is
        large enough to read from the back of a room).
    """
    from pyqtgraph.exporters import ImageExporter
    old = chart.size()
    if size is not None:
        chart.resize(*size)
        QGuiApplication.processEvents()
    # The legend ignores transformations (it keeps its size when the view
    # zooms), so a 2x export drew it at 1x, unreadable on a slide: let it scale.
    legend = getattr(_plot_item(chart), "legend", None)
    flag = legend.GraphicsItemFlag.ItemIgnoresTransformations if legend is not None else None
    if legend is not None:
        legend.setFlag(flag, False)
    try:
        exporter = ImageExporter(_plot_item(chart))
        rect = exporter.getTargetRect()
        w, h = round(rect.width() * scale), round(rect.height() * scale)
        # Set both sides without the exporter's aspect-ratio coupling.
        exporter.params.param("width").setValue(w, blockSignal=exporter.widthChanged)
        exporter.params.param("height").setValue(h, blockSignal=exporter.heightChanged)
        image = exporter.export(toBytes=True)
    finally:
        if legend is not None:
            legend.setFlag(flag, True)
        if size is not None:
            chart.resize(old)
    if image is None or image.isNull():
        raise ExportError("the chart could not be rendered")
    return image


def save_chart_png(chart, path: str | Path, scale: float = 1.0,
                   size: tuple[int, int] | None = None) -> Path:
    """Save a chart as PNG at ``scale`` × its screen size, or at exactly ``size``."""
    image = chart_image(chart, scale, size)
    return atomic_write(path, png_bytes(image))


def save_chart_svg(chart, path: str | Path) -> Path:
    """Save a chart as SVG (vector; scales to any slide).

    Drawn with Qt's own SVG generator (pyqtgraph 0.14's SVGExporter fails
    on the path syntax Qt 6.12 writes), then flattened by
    :func:`flatten_svg`: Qt writes each item under its scaled transform
    (a bar is a 0.6 × 10,001 rectangle under ``matrix(723,0,0,-0.03,…)``)
    with a cosmetic pen, which librsvg, ImageMagick and Qt's own
    QSvgRenderer draw as black bands and bars below zero.
    """
    item = _plot_item(chart)
    source = item.sceneBoundingRect()
    title = getattr(getattr(chart, "data", None), "title", "zPerfLab chart")
    w, h = source.width(), source.height()

    def draw(painter: QPainter) -> None:
        item.scene().render(painter, QRectF(0, 0, w, h), source)
    return atomic_write(path, _svg_bytes((w, h), title, draw))


def _svg_bytes(size: tuple[float, float], title: str, draw: Callable[[QPainter], None]) -> bytes:
    """An SVG page of ``size`` pixels that ``draw`` paints, flattened.

    Drawn in memory: the file gets the flattened bytes through the atomic
    writer, which checks each one (Qt writing a file would fail silently).
    """
    from PySide6.QtSvg import QSvgGenerator
    w, h = size
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QRectF(0, 0, w, h).size().toSize())
    gen.setViewBox(QRectF(0, 0, w, h))
    gen.setResolution(SVG_DPI)
    gen.setTitle(title)
    painter = QPainter(gen)
    try:
        draw(painter)
    finally:
        painter.end()
    svg = bytes(buf.data())  # type: ignore[call-overload]  # QByteArray is a buffer
    return flatten_svg(svg, (w, h))


#: Height of the band that heads each half of an exported comparison, in pixels at 1×.
LABEL_BAND = 34


def _draw_labels(painter: QPainter, widths: list[float], labels: list[str], band: float,
                 scale: float = 1.0) -> None:
    """Each half's label, bold and centred in the band above its ``width``."""
    font = QFont()
    font.setPointSizeF(13 * scale)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("#1d2733"))
    x = 0.0
    for width, label in zip(widths, labels):
        rect = QRectF(x + 8 * scale, 0, width - 16 * scale, band)
        text = painter.fontMetrics().elidedText(label, Qt.TextElideMode.ElideRight,
                                                int(rect.width()))
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)
        x += width


#: A comparison's picture at 1×: 16:9, each half laid out at half its width
#: (a slide's shape; at screen size it was a 1242×318 strip).
COMPARE_SIZE = (1280, 720)


@contextmanager
def _held_at(charts, size: tuple[int, int]):
    """Each of ``charts`` fixed at ``size`` while the block draws them, then
    put back as it was.

    Both laid out first and put back after both are drawn: the left one
    put back at once had the Compare tab's layout put the right one back
    too, which came out at its screen size in a corner. Fixed at that size
    while drawn: a tab just brought forward (the deck brings each chart's
    forward) has its layout still to come, which put a chart merely resized
    back to the tab's size (the cache and queue pairs came out 621×322 in a
    640×686 half, their lower two fifths blank).
    """
    old = [(c.size(), c.minimumSize(), c.maximumSize()) for c in charts]
    for c in charts:
        c.setFixedSize(*size)
    QGuiApplication.processEvents()
    try:
        yield
    finally:
        for c, (was, least, most) in zip(charts, old):
            c.setMinimumSize(least)
            c.setMaximumSize(most)
            c.resize(was)


def compare_image(charts, labels, scale: float = 1.0) -> QImage:
    """Both halves of a comparison side by side, each under its run's label,
    as one 16:9 picture of ``COMPARE_SIZE`` × ``scale`` pixels: each chart is
    laid out at its half of that (labels keep their point size)."""
    charts = list(charts)
    band = round(LABEL_BAND * scale)
    width, height = (round(v * scale) for v in COMPARE_SIZE)
    half = width // len(charts)
    layout = (round(half / scale), round((height - band) / scale))
    with _held_at(charts, layout):
        images = [chart_image(c, scale) for c in charts]
    # Rounding may leave a pixel over or short: the canvas is the exact size.
    out = QImage(width, height, QImage.Format.Format_ARGB32)
    out.fill(QColor("white"))
    painter = QPainter(out)
    try:
        _draw_labels(painter, [half] * len(images), list(labels), band, scale)
        for i, image in enumerate(images):
            painter.drawImage(i * half, band, image)
    finally:
        painter.end()
    return out


def save_compare_png(charts, labels, path: str | Path, scale: float = 1.0) -> Path:
    """Both halves of a comparison as one 16:9 PNG, each headed by its run's label."""
    return atomic_write(path, png_bytes(compare_image(charts, labels, scale)))


def save_compare_svg(charts, labels, path: str | Path) -> Path:
    """Both halves of a comparison as one 16:9 SVG of ``COMPARE_SIZE``, each
    headed by its run's label (as :func:`save_compare_png` lays them out, in
    vectors)."""
    charts = list(charts)
    items = [_plot_item(c) for c in charts]
    if any(getattr(c, "data", None) is None for c in charts):
        raise ExportError(f"cannot write {path}: a chart shows no data")
    width, height = COMPARE_SIZE
    half = width // len(charts)
    labels = list(labels)

    def draw(painter: QPainter) -> None:
        painter.fillRect(QRectF(0, 0, width, height), QColor("white"))
        _draw_labels(painter, [half] * len(items), labels, LABEL_BAND)
        for i, item in enumerate(items):
            source = item.sceneBoundingRect()
            item.scene().render(painter, QRectF(i * half, LABEL_BAND, source.width(),
                                                source.height()), source)
    with _held_at(charts, (half, height - LABEL_BAND)):
        return atomic_write(path, _svg_bytes((width, height), " | ".join(labels), draw))


def save_compare_csv(charts, labels, path: str | Path) -> Path:
    """Both halves' data, one block each, headed by its run's label."""
    rows: list = []
    for chart, label in zip(charts, labels):
        if getattr(chart, "data", None) is None:
            raise ExportError(f"cannot write {path}: a chart shows no data")
        rows += [[label], *chart.data.csv_rows(), []]
    return save_rows_csv(rows[:-1], path)


def save_chart_csv(chart, path: str | Path) -> Path:
    """Save the chart's data (every series and point, with units in the header)."""
    if getattr(chart, "data", None) is None:
        raise ExportError(f"cannot write {path}: the chart shows no data")
    return save_rows_csv(chart.data.csv_rows(), path)


def save_rows_csv(rows: Iterable[Iterable], path: str | Path) -> Path:
    """Write rows (the first is the header) as UTF-8 CSV."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([csv_value(v) for v in row] for row in rows)
    return atomic_write(path, text.getvalue().encode("utf-8"))


def csv_value(v: object) -> object:
    """A float with the binary noise of sums removed (0.11999999999974886 →
    0.12): 10 significant digits, more than any figure the model resolves."""
    if isinstance(v, float) and v == v and abs(v) != float("inf"):
        return float(f"{v:.10g}")
    return v


def save_table_csv(table, path: str | Path) -> Path:
    """Save a report :class:`~models.core.run.Table` as CSV (title row first)."""
    return save_rows_csv([[table.title], list(table.columns), *map(list, table.rows)], path)


def _cell(v: object) -> str:
    if isinstance(v, float):
        return f"{v:,.4g}" if abs(v) < 1e5 else f"{v:,.0f}"
    return str(v)


def table_image(table, point_size: int = 16, scale: float = 1.0) -> QImage:
    """Draw a report table (title, header, zebra rows) to an image."""
    body, bold = QFont(), QFont()
    body.setPointSize(point_size)
    bold.setPointSize(point_size)
    bold.setBold(True)
    cells = [list(table.columns)] + [[_cell(v) for v in row] for row in table.rows]
    fb = QFontMetrics(bold)
    pad = point_size
    widths = [max(fb.horizontalAdvance(str(r[c])) for r in cells) + 2 * pad
              for c in range(len(table.columns))]
    row_h = fb.height() + pad
    title_h = fb.height() + 2 * pad
    w, h = sum(widths) + 2 * pad, title_h + row_h * len(cells) + pad
    image = QImage(round(w * scale), round(h * scale), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(scale, scale)
    p.setFont(bold)
    p.drawText(QRectF(pad, 0, w - 2 * pad, title_h), Qt.AlignmentFlag.AlignVCenter, table.title)
    for r, row in enumerate(cells):
        y = title_h + r * row_h
        p.fillRect(QRectF(pad, y, w - 2 * pad, row_h),
                   QColor("#DCE6F2") if r == 0 else QColor("#F4F4F4" if r % 2 else "white"))
        p.setFont(bold if r == 0 else body)
        x = pad
        for c, text in enumerate(row):
            align = Qt.AlignmentFlag.AlignLeft if c == 0 else Qt.AlignmentFlag.AlignRight
            p.drawText(QRectF(x + pad, y, widths[c] - 2 * pad, row_h),
                       align | Qt.AlignmentFlag.AlignVCenter, str(text))
            x += widths[c]
    p.end()
    return image


def save_table_png(table, path: str | Path, scale: float = 1.0) -> Path:
    """Save a report table as a PNG image."""
    return atomic_write(path, png_bytes(table_image(table, scale=scale)))


def png_bytes(image: QImage, fmt: str = "PNG") -> bytes:
    """Encode an image as PNG (or ``fmt``) bytes, for a file or a slide."""
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, fmt):  # type: ignore[call-overload]  # PySide6 takes str
        raise ExportError(f"cannot encode the image as {fmt}")
    return bytes(buf.data())  # type: ignore[call-overload]  # QByteArray is a buffer


def copy_chart(chart, scale: float = 1.0) -> QImage:
    """Put the chart on the clipboard as an image; returns the image."""
    image = chart_image(chart, scale)
    QGuiApplication.clipboard().setImage(image)
    return image


def result_tables(result, name=None) -> list:
    """A run's tables for export: its metrics (with units) first, then its reports.

    ``name``: the run's :class:`~app.run_names.RunName`; a what-if's tables
    say so in their titles, and its "Measured vs model" table calls its
    column by the what-if's name (RMF's figures are never set against a
    "model" that is a what-if's answer).
    """
    from models import experiments
    from models.core.params import key_words
    from models.core.run import Table
    known = {m.name: m for m in experiments.get(result.experiment).metrics}
    rows = []
    for k, v in result.metrics.items():
        m = known.get(k)
        rows.append((m.title if m else key_words(k), float(v),
                     m.unit if m else ""))
    metrics = Table("Metrics", ("Metric", "Value", "Unit"), tuple(rows))
    # Identifiers in report cells (a request type, a cause) are written in words.
    reports = [Table(t.title, t.columns, tuple(tuple(words(c) for c in row) for row in t.rows),
                     t.note) for t in result.reports]
    tables = [metrics, *reports]
    if name is None or not name.is_whatif:
        return tables
    return [_named(t, name.label) for t in tables]


def _named(table, label: str):
    """``table`` of a what-if: its title names the run; the "Measured vs
    model" table heads its columns as ``zperflab run --set LABEL.prop=…``
    does (RMF measured, the what-if, their difference) and leaves out the
    likely reasons, which explain the model's gap to RMF, not a change."""
    from models.core.run import Table
    from models.rmf.measured import TABLE_TITLE
    if table.title != TABLE_TITLE:
        return Table(f"{table.title} ({label})", table.columns, table.rows, table.note)
    names = {"measured": "RMF measured", "model": label, "difference": "what-if − measured"}
    keep = [i for i, c in enumerate(table.columns) if c != "likely reason"]
    return Table(f"Measured vs {label}",
                 tuple(names.get(table.columns[i], table.columns[i]) for i in keep),
                 tuple(tuple(row[i] for i in keep) for row in table.rows),
                 f"measured: RMF's figures of the system as imported; {label}")


def save_tables_csv(tables, path: str | Path) -> Path:
    """Several report tables in one CSV: each one's title row, header, rows, a blank line."""
    rows: list[list] = []
    for table in tables:
        rows += [[table.title], list(table.columns), *map(list, table.rows), []]
    if not rows:
        raise ExportError(f"cannot write {path}: there are no tables")
    return save_rows_csv(rows[:-1], path)


def save_tables_png(tables, path: str | Path, scale: float = 1.0) -> Path:
    """Several report tables drawn one under the other in one PNG image."""
    images = [table_image(t, scale=scale) for t in tables]
    if not images:
        raise ExportError(f"cannot write {path}: there are no tables")
    w, h = max(i.width() for i in images), sum(i.height() for i in images)
    sheet = QImage(w, h, QImage.Format.Format_ARGB32)
    sheet.fill(QColor("white"))
    p = QPainter(sheet)
    y = 0
    for image in images:
        p.drawImage(0, y, image)
        y += image.height()
    p.end()
    return atomic_write(path, png_bytes(sheet))
