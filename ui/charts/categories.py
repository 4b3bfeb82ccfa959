"""Category names under a bar chart that never run into each other.

Crowded names shrink first (down to the smallest label size), then a name
too wide goes over two lines at a space; 32567ba stopped there, and the
real z/OS 2.5 answers' 14 storage groups still collided at 1280x800 ("SSID
5002STGWORKFTPSMF/5000"). Then the names are staggered over two or three
rows, each name having the width of that many categories; past that only
every n-th name is written, the full list in the axis' tooltip (and in the
chart's CSV). docs/charts.md.
"""
from __future__ import annotations

from PySide6.QtGui import QFontMetricsF

from ui.charts import style

#: Rows a crowded axis staggers its names over before it leaves some out.
MAX_ROWS = 3


def widest(texts: list[str], points: float) -> float:
    """Pixels of the widest line of ``texts`` at ``points`` (regular weight)."""
    metrics = QFontMetricsF(style.font(points, False))
    return max((metrics.horizontalAdvance(line) for t in texts for line in t.split("\n")),
               default=0.0)


def two_lines(name: str) -> str:
    """``name`` with its longest line broken at the space nearest that line's
    middle ("FICON\\nCHPIDs"; "SSID 5000 volumes\\nRMF" of Measured vs model
    gives "SSID 5000\\nvolumes\\nRMF"); unchanged when that line has no space."""
    lines = name.split("\n")
    k = max(range(len(lines)), key=lambda i: len(lines[i]))
    line = lines[k]
    spaces = [i for i, ch in enumerate(line) if ch == " "]
    if not spaces:
        return name
    cut = min(spaces, key=lambda i: abs(2 * i - len(line)))
    lines[k:k + 1] = [line[:cut], line[cut + 1:]]
    return "\n".join(lines)


def lines(texts: list[str]) -> int:
    """Lines the tallest of ``texts`` takes (a staggered name's blank lines too)."""
    return max((t.count("\n") + 1 for t in texts), default=1)


def shrunk(points: float, lowest: float, texts: list[str], room: float) -> float:
    """The largest size from ``points`` down to ``lowest`` at which the widest
    of ``texts`` takes at most ``room`` pixels."""
    size = points
    while size > lowest and widest(texts, size) > room:
        size -= 1
    return size


def _wrapped(names: list[str], points: float, lowest: float, room: float):
    """Names and size for ``room`` pixels each: smaller, then two lines where
    one does not hold a name; ``None`` when they still do not fit."""
    size = shrunk(points, lowest, names, room)
    if widest(names, size) > room:
        names = [two_lines(n) if widest([n], size) > room else n for n in names]
        size = shrunk(points, lowest, names, room)
    return (names, size) if widest(names, size) <= room else None


def fit(names: list[str], room: float, gap: float, points: float,
        lowest: float) -> tuple[list[str], float, bool]:
    """Tick texts for ``names`` at ``room`` pixels per category (``gap`` kept
    between neighbours), their size, and whether some names were left out.

    A name on row k (of a stagger over r rows) starts with the blank lines
    of the rows above it: neighbours on one row are r categories apart.
    """
    for rows in range(1, MAX_ROWS + 1):
        got = _wrapped(names, points, lowest, rows * (room + gap) - gap)
        if got is not None:
            texts, size = got
            depth = lines(texts)
            return ["\n" * (depth * (i % rows)) + t for i, t in enumerate(texts)], size, False
    step = MAX_ROWS + 1
    while step < len(names):
        got = _wrapped(names[::step], points, lowest, step * (room + gap) - gap)
        if got is not None:
            break
        step += 1
    kept, size = got if got is not None else ([names[0]] if names else [], lowest)
    texts = [""] * len(names)
    texts[::step] = kept
    return texts, size, True
