"""Flatten the SVG that Qt's QSvgGenerator writes so every renderer draws it alike.

QSvgGenerator writes each painted item inside a ``<g transform="matrix(…)">``
in the item's own coordinates: a pyqtgraph bar is a 0.6 × 10,001 rectangle
under ``matrix(723,0,0,-0.031,525,432)``, with ``vector-effect:
non-scaling-stroke`` standing in for Qt's cosmetic pen. librsvg, ImageMagick
and Qt's own QSvgRenderer each get some of that wrong (black bands, bars
drawn below zero). :func:`flatten_svg` moves the geometry into the page's
pixel coordinates instead: path, polyline, polygon and rect coordinates are
multiplied out, the group transform goes, and a stroke keeps the width it
had on screen. Text and images keep their transform (as their own
attribute), which every renderer handles. Pure Python, no Qt.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

#: Resolution the generator is told, so millimetre sizes are CSS pixels.
SVG_DPI = 96
_SVG = "http://www.w3.org/2000/svg"
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_CMD = re.compile(r"([A-Za-z])([^A-Za-z]*)")
#: Path commands whose arguments are all absolute x,y pairs (all Qt writes).
_PAIR_COMMANDS = set("MLCQSTZ")

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class SvgFlattenError(ValueError):
    """The SVG holds something the flattener cannot transform exactly."""


def parse_matrix(text: str | None) -> Matrix | None:
    """``matrix(a,b,c,d,e,f)`` → its six numbers; None for anything else."""
    m = re.fullmatch(r"\s*matrix\(([^)]*)\)\s*", text or "")
    if not m:
        return None
    v = [float(x) for x in _NUM.findall(m.group(1))]
    return (v[0], v[1], v[2], v[3], v[4], v[5]) if len(v) == 6 else None


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _compose(outer: Matrix, inner: Matrix) -> Matrix:
    a, b, c, d, e, f = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def _num(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") or "0"


def _points(m: Matrix, nums: list[float]) -> str:
    pts = (_apply(m, nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2))
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in pts)


def transform_path(m: Matrix, d: str) -> str:
    """Path data ``d`` with every absolute point multiplied by ``m``.

    Raises
    ------
    SvgFlattenError
        ``d`` uses a relative, H/V or arc command (Qt writes none of them).
    """
    out = []
    for cmd, args in _CMD.findall(d):
        if cmd not in _PAIR_COMMANDS:
            raise SvgFlattenError(f"path command '{cmd}' cannot be flattened")
        out.append(cmd + _points(m, [float(x) for x in _NUM.findall(args)]))
    return " ".join(out)


def _rect_path(m: Matrix, el: ET.Element) -> str:
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    w, h = float(el.get("width", 0)), float(el.get("height", 0))
    return "M" + _points(m, [x, y, x + w, y, x + w, y + h, x, y + h]) + " Z"


def _tag(el: ET.Element) -> str:
    return el.tag.rsplit("}", 1)[-1]


def _flatten_child(m: Matrix, el: ET.Element, scale: float, group_width: str | None) -> None:
    tag = _tag(el)
    cosmetic = el.attrib.pop("vector-effect", "") == "non-scaling-stroke"
    if tag in ("path", "polyline", "polygon", "rect"):
        if not cosmetic and scale != 1.0:
            width = el.get("stroke-width", group_width)
            if width is not None:
                el.set("stroke-width", _num(float(width) * scale))
        if tag == "path":
            el.set("d", transform_path(m, el.get("d", "")))
        elif tag == "rect":
            d = _rect_path(m, el)
            for key in ("x", "y", "width", "height", "rx", "ry"):
                el.attrib.pop(key, None)
            el.tag = f"{{{_SVG}}}path"
            el.set("d", d)
        else:
            el.set("points", _points(m, [float(x) for x in _NUM.findall(el.get("points", ""))]))
        return
    own = parse_matrix(el.get("transform")) or IDENTITY
    el.set("transform", "matrix(" + ",".join(_num(v) if abs(v) >= 1e-3 or v == 0 else repr(v)
                                             for v in _compose(m, own)) + ")")


def flatten_svg(data: bytes, size: tuple[float, float] | None = None) -> bytes:
    """Qt's SVG with every group transform multiplied into its shapes.

    Parameters
    ----------
    data : bytes
        What QSvgGenerator wrote.
    size : (width, height) or None
        Page size in pixels; when given, the root's width and height are set
        to it (Qt writes millimetres).

    Returns
    -------
    bytes
        The same drawing with shapes in page coordinates (UTF-8 XML).
    """
    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ET.fromstring(data)
    if size is not None:
        root.set("width", _num(size[0]))
        root.set("height", _num(size[1]))
    for group in root.iter(f"{{{_SVG}}}g"):
        m = parse_matrix(group.get("transform"))
        if m is None:
            continue
        del group.attrib["transform"]
        scale = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        for child in list(group):
            _flatten_child(m, child, scale, group.get("stroke-width"))
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
