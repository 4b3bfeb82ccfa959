"""Numbers as RMF prints them: ``1940K``, ``125.4M``, ``.612``, ``N/A``, ``1.9H``.

The Postprocessor shortens a value that does not fit its column with a
suffix: K, M, G, T for 10^3, 10^6, 10^9, 10^12. Decimal, not binary: in the
published Cache report of REDP-4862 fig. 9, 1832K normal reads at a rate of
3629 /s is a 504.8 s interval, and 229902 sequential reads at 455.3 /s is
504.9 s (binary K would give 517 s). Storage sizes (cache and NVS,
``65536M``) are the exception: :func:`storage_mb` reads them in MB.
"""
from __future__ import annotations

import re

SUFFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_NUM = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))([KMGT]?)$")
#: Cells that mean "no value" (RMF prints N/A where a ratio has no requests).
MISSING = {"N/A", "NA", "-", "--", "---"}


class NumberError(ValueError):
    """A cell that is not a number (the caller adds file and line)."""


def number(text: str) -> float | None:
    """The value of one printed cell; None for ``N/A``.

    Raises
    ------
    NumberError
        When the cell is not a number RMF prints (``****`` overflow included).
    """
    try:
        return float(text)           # the common case, fast (the reader's hot path)
    except ValueError:
        pass
    t = text.strip().upper().replace(",", "")
    if t in MISSING:
        return None
    m = _NUM.match(t)
    if m is None:
        if t and set(t) == {"*"}:
            raise NumberError(f"'{text}' is a value too large for its column (RMF prints "
                              "asterisks); re-run the Postprocessor with a shorter interval")
        raise NumberError(f"'{text}' is not a number")
    return float(m.group(1)) * SUFFIX.get(m.group(2), 1.0)


def storage_mb(text: str) -> float | None:
    """A storage size (``65536M``, ``256.0G``, ``1024K``) in MB (2^20 bytes)."""
    t = text.strip().upper()
    if t in MISSING:
        return None
    m = _NUM.match(t)
    if m is None:
        raise NumberError(f"'{text}' is not a storage size")
    scale = {"": 1 / 2**20, "K": 1 / 1024, "M": 1.0, "G": 1024.0, "T": 1024.0**2}[m.group(2)]
    return float(m.group(1)) * scale


def pav(text: str) -> tuple[float | None, bool]:
    """The PAV column: ``8`` (static), ``8*`` (changed in the interval), ``1.9H``
    (HyperPAV, average exposures). Returns (exposures, hyperpav)."""
    t = text.strip().upper().rstrip("*")
    hyper = t.endswith("H")
    if hyper:
        t = t[:-1]
    return number(t), hyper
