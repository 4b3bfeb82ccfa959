"""Where a link runs: straight where that crosses no card, else around them.

A link is drawn straight from one card's edge toward the other's centre, as
before, unless that line would pass through a third card (the Large shop's
"DB2 data" → DB2B ran across DB2A). Then it takes an orthogonal route
around the cards: the shortest path, with a cost for every bend, over the
grid of lines that run just outside the cards' edges (an orthogonal
visibility graph). Pure geometry on tuples, no Qt: rectangles are
``(left, top, right, bottom)``, points ``(x, y)``.
"""
from __future__ import annotations

import heapq
import math

Rect = tuple[float, float, float, float]
Point = tuple[float, float]

#: How far a route keeps from a card's edge.
CLEARANCE = 12.0
#: A bend costs as much as this many units of length (fewer bends read better).
BEND = 60.0
#: Cards looked at around a link: those within this margin of the two ends' box.
REACH = 200.0
#: A link with more cards than this around it is drawn straight: routing it
#: would cost more than the picture gains (a crowd of volumes on one unit).
NEAR_MAX = 24
#: Grid steps a route may try before it gives up (and the link is straight).
STEPS_MAX = 6000


def crosses(a: Point, b: Point, r: Rect) -> bool:
    """True if the segment a→b passes through the rectangle ``r``
    (Liang–Barsky clipping)."""
    x0, y0 = a
    dx, dy = b[0] - x0, b[1] - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - r[0]), (dx, r[2] - x0), (-dy, y0 - r[1]), (dy, r[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _grow(r: Rect, by: float) -> Rect:
    return (r[0] - by, r[1] - by, r[2] + by, r[3] + by)


def _side_point(r: Rect, toward: Point) -> tuple[Point, Point]:
    """The middle of the side of ``r`` facing ``toward``, and the point just
    outside it where a route starts."""
    cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
    dx, dy = toward[0] - cx, toward[1] - cy
    if abs(dx) / max(r[2] - r[0], 1) >= abs(dy) / max(r[3] - r[1], 1):
        x = r[2] if dx > 0 else r[0]
        out = x + (CLEARANCE if dx > 0 else -CLEARANCE)
        return (x, cy), (out, cy)
    y = r[3] if dy > 0 else r[1]
    out = y + (CLEARANCE if dy > 0 else -CLEARANCE)
    return (cx, y), (cx, out)


def route(start: Point, end: Point, a: Rect, b: Rect, cards: list[Rect]) -> list[Point]:
    """The points a link from card ``a`` to card ``b`` runs through.

    Parameters
    ----------
    start, end : (x, y)
        Where the straight line would leave ``a`` and reach ``b``.
    a, b : rectangles
        The two cards.
    cards : list of rectangles
        Every other card near the link.

    Returns
    -------
    list of (x, y)
        ``[start, end]`` when the straight line crosses no card, else an
        orthogonal route around them from ``a``'s side to ``b``'s (the
        straight line again where no route is found, or where more than
        :data:`NEAR_MAX` cards are near).
    """
    if len(cards) > NEAR_MAX or not any(crosses(start, end, c) for c in cards):
        return [start, end]
    (s, s_out), (t, t_out) = _side_point(a, _centre(b)), _side_point(b, _centre(a))
    blocked = [_grow(c, CLEARANCE - 1) for c in (*cards, a, b)]
    path = _shortest(s_out, t_out, blocked)
    if path is None:
        return [start, end]
    return _simplify([s, *path, t])


def _centre(r: Rect) -> Point:
    return (r[0] + r[2]) / 2, (r[1] + r[3]) / 2


def _inside(p: Point, rects: list[Rect]) -> bool:
    return any(r[0] < p[0] < r[2] and r[1] < p[1] < r[3] for r in rects)


def _shortest(s: Point, t: Point, blocked: list[Rect]) -> list[Point] | None:
    """Dijkstra over the grid of the cards' outside lines (bends cost :data:`BEND`)."""
    xs = sorted({s[0], t[0], *(v for r in blocked for v in (r[0] - 1, r[2] + 1))})
    ys = sorted({s[1], t[1], *(v for r in blocked for v in (r[1] - 1, r[3] + 1))})
    ix, iy = {x: i for i, x in enumerate(xs)}, {y: j for j, y in enumerate(ys)}
    goal = (ix[t[0]], iy[t[1]])
    # State: grid node and the direction arrived in (0 horizontal, 1 vertical, 2 none).
    first = (0.0, ix[s[0]], iy[s[1]], 2)
    best: dict[tuple[int, int, int], float] = {first[1:]: 0.0}
    came: dict[tuple[int, int, int], tuple[int, int, int]] = {}
    heap = [first]
    steps = 0
    while heap and steps < STEPS_MAX:
        steps += 1
        cost, i, j, d = heapq.heappop(heap)
        if (i, j) == goal:
            return _walk(came, (i, j, d), xs, ys)
        if cost > best.get((i, j, d), math.inf):
            continue
        for di, dj, nd in ((1, 0, 0), (-1, 0, 0), (0, 1, 1), (0, -1, 1)):
            ni, nj = i + di, j + dj
            if not (0 <= ni < len(xs) and 0 <= nj < len(ys)):
                continue
            p, q = (xs[i], ys[j]), (xs[ni], ys[nj])
            mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            if _inside(q, blocked) or _inside(mid, blocked):
                continue
            step = abs(q[0] - p[0]) + abs(q[1] - p[1]) + (BEND if d not in (2, nd) else 0.0)
            key = (ni, nj, nd)
            if cost + step < best.get(key, math.inf):
                best[key] = cost + step
                came[key] = (i, j, d)
                heapq.heappush(heap, (cost + step, ni, nj, nd))
    return None


def _walk(came, key, xs, ys) -> list[Point]:
    out = [(xs[key[0]], ys[key[1]])]
    while key in came:
        key = came[key]
        out.append((xs[key[0]], ys[key[1]]))
    return out[::-1]


def _simplify(points: list[Point]) -> list[Point]:
    """Drop the points in the middle of straight runs."""
    out = [points[0]]
    for p, q in zip(points[1:], points[2:]):
        a = out[-1]
        if (a[0] == p[0] == q[0]) or (a[1] == p[1] == q[1]) or p == a:
            continue
        out.append(p)
    if points[-1] != out[-1]:
        out.append(points[-1])
    return out


def nearby(a: Rect, b: Rect, cards: list[Rect]) -> list[Rect]:
    """The cards within :data:`REACH` of the box around ``a`` and ``b``."""
    box = _grow((min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])), REACH)
    return [c for c in cards if c[0] < box[2] and c[2] > box[0] and c[1] < box[3]
            and c[3] > box[1]]
