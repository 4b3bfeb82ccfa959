"""Numbers as RMF prints them: ``1940K``, ``125.4M``, ``.612``, ``N/A``, ``1.9H``.

The Postprocessor shortens a value that does not fit its column with a
suffix: K, M, G, T for 10^3, 10^6, 10^9, 10^12. Decimal, not binary: in the
published Cache report of REDP-4862 fig. 9, 1832K normal reads at a rate of
3629 /s is a 504.8 s interval, and 229902 sequential reads at 455.3 /s is
504.9 s (binary K would give 517 s). Storage sizes (cache and NVS,
``65536M``) are the exception: :func:`storage_mb` reads them in MB.

Every value is checked here, once for the text and the XML readers: a
number RMF prints is finite and not negative, and has at most
:data:`MAX_DIGITS` digits (``nan``, ``inf``, ``-5.0`` and a 400-digit number
are refused with what the cell says). Whether the value is in the range
its field allows (a busy of at most 100 %, a rate a device can reach) is
checked where the record is made (:func:`models.rmf.records.check`).
"""
from __future__ import annotations

import math
import re

SUFFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_NUM = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))([KMGT]?)$")
#: Longest number RMF prints: its widest columns hold 10 characters.
MAX_DIGITS = 20
_INF = float("inf")
#: Largest cache or NVS a control unit can have, in MB (16 TB; the largest
#: DS8000 has a few TB).
MAX_STORAGE_MB = 2.0**24
#: Cells that mean "no value" (RMF prints N/A where a ratio has no requests).
MISSING = {"N/A", "NA", "-", "--", "---"}


class NumberError(ValueError):
    """A cell that is not a number (the caller adds file and line)."""


def number(text: str) -> float | None:
    """The value of one printed cell; None for ``N/A``.

    Raises
    ------
    NumberError
        When the cell is not a number RMF prints (``****`` overflow included),
        or is not finite (``nan``, ``inf``), negative or longer than
        :data:`MAX_DIGITS` digits.
    """
    try:
        value = float(text)          # the common case, fast (the reader's hot path)
    except ValueError:
        value = _suffixed(text)
        if value is None:
            return None
    else:
        if 0 <= value < _INF and len(text) <= MAX_DIGITS:
            return value             # finite, not negative, not too long (NaN fails 0 <=)
        if not _NUM.match(text.strip()):          # nan, inf, 1e999
            raise NumberError(f"'{_short(text)}' is not a number RMF prints")
    return _checked(text, value)


def _suffixed(text: str) -> float | None:
    t = text.strip().upper().replace(",", "")
    if t in MISSING:
        return None
    m = _NUM.match(t)
    if m is None:
        if t and set(t) == {"*"}:
            raise NumberError(f"'{text}' is a value too large for its column (RMF prints "
                              "asterisks); re-run the Postprocessor with a shorter interval")
        raise NumberError(f"'{_short(text)}' is not a number")
    return float(m.group(1)) * SUFFIX.get(m.group(2), 1.0)


def _checked(text: str, value: float) -> float:
    """``value`` if RMF could have printed it: finite, not negative, not too long."""
    digits = sum(ch.isdigit() for ch in text)
    if digits > MAX_DIGITS or not math.isfinite(value):
        raise NumberError(f"'{_short(text)}' has {digits} digits: no RMF column holds a "
                          "number that long (the file is damaged)")
    if value < 0:
        raise NumberError(f"'{_short(text)}' is negative; RMF prints no negative figure here")
    return value


def _short(text: str, width: int = 24) -> str:
    t = text.strip()
    return t if len(t) <= width else f"{t[:width - 3]}..."


def storage_mb(text: str) -> float | None:
    """A storage size (``65536M``, ``256.0G``, ``1024K``) in MB (2^20 bytes)."""
    t = text.strip().upper()
    if t in MISSING:
        return None
    m = _NUM.match(t)
    if m is None:
        raise NumberError(f"'{_short(text)}' is not a storage size")
    scale = {"": 1 / 2**20, "K": 1 / 1024, "M": 1.0, "G": 1024.0, "T": 1024.0**2}[m.group(2)]
    mb = _checked(text, float(m.group(1))) * scale
    if mb > MAX_STORAGE_MB:
        raise NumberError(f"'{_short(text)}' is {mb / 2**20:,.0f} TB, more than any control "
                          "unit has (the file is damaged)")
    return mb


def pav(text: str) -> tuple[float | None, bool]:
    """The PAV column: ``8`` (static), ``8*`` (changed in the interval), ``1.9H``
    (HyperPAV, average exposures). Returns (exposures, hyperpav)."""
    t = text.strip().upper().rstrip("*")
    hyper = t.endswith("H")
    if hyper:
        t = t[:-1]
    return number(t), hyper
