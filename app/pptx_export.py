"""A PowerPoint deck of the current case study (python-pptx).

Slides: a title slide, the canvas snapshot the caller passes, one slide per
chart image, and the published-vs-model table. Only built-in layouts and
plain pictures and tables are used, so LibreOffice Impress and PowerPoint
open the file without repair. The deck is written atomically.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from app.export import ExportError, atomic_write

#: 16:9 at 13.333 × 7.5 inches, the PowerPoint default widescreen size.
SLIDE_W_IN, SLIDE_H_IN = 13.333, 7.5
TABLE_ROWS_PER_SLIDE = 8
#: Share of the table's width the first column (the case, in words) gets.
FIRST_COLUMN_SHARE = 0.36


@dataclass(frozen=True)
class Slide:
    """A picture slide: a title and PNG bytes."""

    title: str
    png: bytes


def _image_size(png: bytes) -> tuple[int, int]:
    # PNG IHDR: width and height are big-endian at bytes 16–24.
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ExportError("a slide image is not a PNG")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def build_deck(path: str | Path, title: str, subtitle: str = "",
               canvas_png: bytes | None = None, charts: Sequence[Slide] = (),
               table: tuple[Sequence[str], Sequence[Sequence]] | None = None,
               table_title: str = "Published vs model",
               canvas_title: str = "The scenario",
               tables: Sequence[tuple[str, Sequence[str], Sequence[Sequence]]] = ()) -> Path:
    """Write the deck to ``path``.

    Parameters
    ----------
    path : str or Path
    title, subtitle : str
        Title slide text (case study and, e.g., the date and seed).
    canvas_png : bytes or None
        The canvas snapshot as PNG bytes (see :func:`app.export.png_bytes`).
    charts : sequence of Slide
        One slide per chart image.
    table : (header, rows) or None
        The published-vs-model table; split over slides of 12 rows.
    canvas_title : str
        The canvas slide's title (a what-if's names its change).
    tables : sequence of (title, header, rows)
        More tables, each on slides of its own after the pictures' (a
        before/after deck's figures, RMF beside both runs).

    Raises
    ------
    ExportError
        python-pptx is missing, an image is not a PNG, or the write failed.
    """
    try:
        from pptx import Presentation
        from pptx.util import Inches
    except ImportError:
        raise ExportError("PowerPoint export needs python-pptx (pip install python-pptx)") from None
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(SLIDE_W_IN), Inches(SLIDE_H_IN)
    _title_slide(prs, title, subtitle)
    pictures = ([Slide(canvas_title, canvas_png)] if canvas_png else []) + list(charts)
    for pic in pictures:
        _picture_slide(prs, pic)
    if table is not None:
        _table_slides(prs, table_title, *table)
    for more_title, header, rows in tables:
        _table_slides(prs, more_title, header, rows)
    data = io.BytesIO()
    prs.save(data)
    return atomic_write(path, data.getvalue())


def _table_slides(prs, title: str, header: Sequence[str], rows: Sequence[Sequence]) -> None:
    """A table over as many slides as it takes, numbered when more than one."""
    for start in range(0, max(1, len(rows)), TABLE_ROWS_PER_SLIDE):
        part = rows[start:start + TABLE_ROWS_PER_SLIDE]
        more = f" ({start // TABLE_ROWS_PER_SLIDE + 1})" if len(rows) > TABLE_ROWS_PER_SLIDE else ""
        _table_slide(prs, title + more, header, part)


def _title_slide(prs, title: str, subtitle: str) -> None:
    """The title slide, its placeholders stretched to the 16:9 width (the
    default template places them for a 10-inch 4:3 slide)."""
    from pptx.util import Inches, Pt
    slide = prs.slides.add_slide(prs.slide_layouts[0])
    margin = Inches(0.9)
    width = prs.slide_width - 2 * margin
    for shape, top, height, size, text in (
            (slide.shapes.title, Inches(1.3), Inches(2.6), _title_points(title), title),
            (slide.placeholders[1], Inches(4.1), Inches(1.6), 24, subtitle)):
        shape.left, shape.top, shape.width, shape.height = margin, top, width, height
        shape.text = text
        for para in shape.text_frame.paragraphs:
            para.font.size = Pt(size)


def _title_points(title: str) -> int:
    """The title slide's font size: 44 pt, smaller for a long title (an
    imported system's) so it keeps to three lines above the subtitle."""
    return 44 if len(title) <= 60 else 36 if len(title) <= 90 else 30


def _title_only(prs, text: str):
    from pptx.util import Inches, Pt
    slide = prs.slides.add_slide(prs.slide_layouts[5])   # "Title Only"
    title = slide.shapes.title
    title.left, title.top = Inches(0.4), Inches(0.25)
    title.width, title.height = prs.slide_width - Inches(0.8), Inches(1.0)
    title.text = text
    slide.shapes.title.text_frame.paragraphs[0].font.size = Pt(32)
    return slide


def _picture_slide(prs, pic: Slide) -> None:
    from pptx.util import Emu, Inches
    slide = _title_only(prs, pic.title)
    w, h = _image_size(pic.png)
    top = Inches(1.35)
    box_w, box_h = prs.slide_width - Inches(0.8), prs.slide_height - top - Inches(0.3)
    k = min(box_w / w, box_h / h)
    pw, ph = int(w * k), int(h * k)
    slide.shapes.add_picture(io.BytesIO(pic.png), Emu((prs.slide_width - pw) // 2), top,
                             Emu(pw), Emu(ph))


def _table_slide(prs, title: str, header: Sequence[str], rows: Sequence[Sequence]) -> None:
    from pptx.util import Inches, Pt
    slide = _title_only(prs, title)
    n_rows = len(rows) + 1
    shape = slide.shapes.add_table(n_rows, len(header), Inches(0.4), Inches(1.35),
                                   prs.slide_width - Inches(0.8), Inches(0.45) * n_rows)
    grid = shape.table
    total = prs.slide_width - Inches(0.8)
    first = int(total * FIRST_COLUMN_SHARE) if len(header) > 1 else total
    for c, col in enumerate(grid.columns):
        col.width = first if c == 0 else int((total - first) / (len(header) - 1))
    for r, row in enumerate([list(header), *[list(x) for x in rows]]):
        for c, value in enumerate(row):
            cell = grid.cell(r, c)
            cell.text = str(value)
            para = cell.text_frame.paragraphs[0]
            para.font.size = Pt(15 if r else 16)
            para.font.bold = r == 0
