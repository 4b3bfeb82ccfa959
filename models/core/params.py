"""Parameter schemas: declared once, read by the command line, the validator
and the GUI's property inspector.

A :class:`Param` knows its type, unit, range or choices, default, help text
and which canvas component it belongs to (``group``). :meth:`Param.coerce`
turns user input into a checked value or raises :class:`ParamError` with one
line that names the key, the value and what is allowed; nothing is clamped.
Numbers must be finite and in range whatever their type (a 400-digit
integer for a float is refused, not an ``OverflowError``), and the value a
message echoes is shortened and has its control characters escaped.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any


class ParamError(ValueError):
    """A parameter value or key that cannot be used. ``str()`` is one line.

    ``str()`` names the parameter by its key (what ``--set`` takes);
    :attr:`human` names it by its title, for a window or a slide.
    """

    def __init__(self, message: str, key: str = "", title: str = ""):
        super().__init__(message)
        self.key, self.title = key, title

    @property
    def human(self) -> str:
        """The message with the parameter's title in place of its key."""
        text = str(self)
        if self.key and self.title:
            text = text.replace(f"'{self.key}'", self.title)
        return text


#: Longest value text an error line echoes; the rest is elided.
SHOWN_CHARS = 80
#: Most member sizes a ``sizes`` list may hold. Runs cost about 15 ms of CPU
#: per member (a million members took about 4 h), so 20,000 is about 5 minutes.
MAX_SIZES = 20_000
#: Largest percentage in a ``mix``.
MAX_PERCENT = 100.0


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` for one error line: control characters and lone surrogates
    escaped, at most ``limit`` characters (an ellipsis says more was cut)."""
    out = []
    for ch in text[:limit + 1]:
        o = ord(ch)
        if o < 32 or o == 127 or 0x80 <= o < 0xA0 or 0xD800 <= o < 0xE000:
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                       if o < 0xD800 else f"\\u{o:04x}")
        else:
            out.append(ch)
    shown = "".join(out)
    if len(text) > limit or len(shown) > limit:
        shown = shown[:limit] + f"… ({len(text):,} characters)"
    return shown


def show_value(value: Any) -> str:
    """A value as an error line shows it: JSON where it has a JSON form, shortened."""
    if isinstance(value, str):
        return shorten(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** SHOWN_CHARS:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return shorten(text)


def json_value(text: str) -> Any:
    """``json.loads`` whose every failure (deep nesting included) is a ValueError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _finite(value: Any, lo: float = -math.inf, hi: float = math.inf) -> bool:
    """A real number (not bool), finite and within ``lo``–``hi``, whatever its type."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, int):     # exact: a 400-digit integer never becomes a float
        return lo <= value <= hi and abs(value) <= 1e300
    return math.isfinite(value) and lo <= value <= hi


def _fmt(x: Any) -> str:
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return str(x)


@dataclass(frozen=True)
class Param:
    """One experiment parameter.

    Parameters
    ----------
    name : str
        Key used by ``--set`` and in scenario files.
    kind : str
        ``int``, ``float``, ``bool``, ``choice``, ``text``, ``mix`` (a dict of
        percentages over ``choices``) or ``sizes`` (a list of byte counts, or
        one of ``choices`` naming a bundled list).
    default : Any
        Value used when the user sets none (``None`` only if ``optional``).
    unit : str
        Unit shown beside the value ("bytes", "ms", "%").
    min, max : float or None
        Inclusive range for numbers.
    choices : tuple
        Allowed values for ``choice``; keys for ``mix``; names for ``sizes``.
    help : str
        One or two sentences: what it means and why it matters (tooltips).
    group : str
        Which canvas component carries it (``workload``, ``volume``,
        ``channel``, ``control_unit``, ``processor``, ``dataset``, ``tape``).
    optional : bool
        ``None`` is allowed and means "not set" (e.g. an override).
    """

    name: str
    kind: str
    default: Any
    unit: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple = ()
    help: str = ""
    group: str = "workload"
    optional: bool = False
    label: str = ""

    @property
    def title(self) -> str:
        """What a person reads: ``label``, else the key in words (give every
        parameter a ``label``: a key in words reads "Pct read")."""
        return self.label or self.name.replace("_", " ").capitalize()

    def allowed(self) -> str:
        """Human text for what this parameter accepts."""
        if self.kind in ("int", "float"):
            lo = "-inf" if self.min is None else _fmt(self.min)
            hi = "inf" if self.max is None else _fmt(self.max)
            unit = f" {self.unit}" if self.unit else ""
            return f"{'integer' if self.kind == 'int' else 'number'} {lo}–{hi}{unit}"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(map(str, self.choices))
        if self.kind == "mix":
            return "an object of percentages over " + ", ".join(self.choices)
        if self.kind == "sizes":
            return ("one of " + ", ".join(self.choices) + " or " if self.choices else "") + \
                "a list of member sizes in bytes"
        return "text"

    def _bad(self, value: Any, why: str = "") -> ParamError:
        shown = show_value(value)
        extra = f" ({why})" if why else ""
        return ParamError(f"bad value for '{self.name}': {shown}{extra}; allowed: {self.allowed()}",
                          self.name, self.title)

    def coerce(self, value: Any) -> Any:
        """Return ``value`` checked and converted, or raise :class:`ParamError`."""
        if value is None:
            if self.optional:
                return None
            raise self._bad(value)
        k = self.kind
        if k == "int":
            if isinstance(value, bool):
                raise self._bad(value)
            if isinstance(value, str):
                try:
                    value = json_value(value)
                except ValueError:
                    raise self._bad(value) from None
            if isinstance(value, float) and math.isfinite(value) and value.is_integer():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._bad(value)
            return self._in_range(value)
        if k == "float":
            if isinstance(value, bool):
                raise self._bad(value)
            if isinstance(value, str):
                try:
                    number = float(value)
                except (ValueError, OverflowError):
                    raise self._bad(value) from None
                if not math.isfinite(number):
                    raise self._bad(value, "not a finite number")
                value = number
            if not _finite(value):
                raise self._bad(value, "not a finite number" if isinstance(value, (int, float))
                                else "")
            return float(self._in_range(value))
        if k == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
                return value.lower() in ("true", "yes", "1")
            raise self._bad(value)
        if k == "choice":
            for c in self.choices:
                if value == c or (isinstance(value, str) and isinstance(c, str) and value.upper() == c.upper()):
                    return c
                # The command line parses "3390" as an integer and "9" may
                # name the integer choice 9: compare their text.
                if not isinstance(value, bool) and isinstance(value, (int, str)) and str(value) == str(c):
                    return c
            raise self._bad(value)
        if k == "mix":
            return self._coerce_mix(value)
        if k == "sizes":
            return self._coerce_sizes(value)
        if k == "text":
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                raise self._bad(value)
            return str(value)
        raise AssertionError(f"unknown parameter kind {k!r}")

    def _in_range(self, v: float) -> float:
        if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
            raise self._bad(v, "out of range")
        if not _finite(v):      # no declared bound: still a number a model can use
            raise self._bad(v, "out of range")
        return v

    def _coerce_mix(self, value: Any) -> dict:
        if isinstance(value, str):
            try:
                value = json_value(value)
            except ValueError:
                raise self._bad(value) from None
        if not isinstance(value, dict) or not value:
            raise self._bad(value)
        out = {}
        for key, pct in value.items():
            if key not in self.choices:
                raise self._bad(value, f"unknown request type '{shorten(str(key), 40)}'")
            # NaN, Infinity and 1e308 are numbers too: only 0–100 is a percentage.
            if not _finite(pct, 0.0, MAX_PERCENT):
                raise self._bad(value, f"'{key}' must be a percentage 0–100")
            out[key] = float(pct)
        if sum(out.values()) <= 0:
            raise self._bad(value, "percentages add up to 0")
        return out

    def _coerce_sizes(self, value: Any) -> Any:
        if isinstance(value, str):
            if value in self.choices:
                return value
            try:
                value = json_value(value)
            except ValueError:
                raise self._bad(value) from None
        if not isinstance(value, list) or not value:
            raise self._bad(value)
        if len(value) > MAX_SIZES:
            raise self._bad(value, f"{len(value):,} members; at most {MAX_SIZES:,} (about "
                            "5 minutes of simulation)")
        lo = 1 if self.min is None else self.min
        hi = math.inf if self.max is None else self.max
        for x in value:
            if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
                raise self._bad(value, f"size {show_value(x)} is not a whole number of bytes {_fmt(lo)}–{_fmt(hi)}")
        return list(value)


@dataclass(frozen=True)
class Metric:
    """One result an experiment reports.

    ``label`` is its short title (a table row, an axis, a CSV header);
    ``help`` the sentence a tooltip shows.
    """

    name: str
    unit: str = ""
    help: str = ""
    label: str = ""

    @property
    def title(self) -> str:
        """``label``, else a short ``help``, else the key in words."""
        if self.label:
            return self.label
        if self.help and len(self.help) <= 48:
            return self.help
        return key_words(self.name)


#: Abbreviations a metric key spells in lower case and a reader expects as written.
_ABBREVIATIONS = {"cf": "CF", "dasd": "DASD", "cpu": "CPU", "io": "I/O", "ios": "I/Os",
                  "lsr": "LSR", "rls": "RLS", "ziip": "zIIP", "cp": "CP", "pct": "%",
                  "mb": "MB", "kb": "KB", "gb": "GB", "lpo": "LPO", "zhpf": "zHPF",
                  "ficon": "FICON", "ssd": "SSD", "hdd": "HDD", "nvs": "NVS", "db2": "DB2",
                  "srb": "SRB", "tcb": "TCB", "excp": "EXCP", "excps": "EXCPs", "mro": "MRO",
                  "tran": "transaction"}


def key_words(key: str) -> str:
    """A result key in words for a reader: ``cf_requests_per_tran`` reads
    "CF requests per transaction", not "Cf requests per tran"."""
    words = [_ABBREVIATIONS.get(w, w) for w in key.split("_") if w]
    if not words:
        return key
    first = words[0]
    if first == key.split("_")[0]:
        words[0] = first[:1].upper() + first[1:]
    return " ".join(words)


def parse_cli_value(text: str) -> Any:
    """``--set`` values: JSON where they parse, else the plain string."""
    try:
        return json_value(text)
    except ValueError:
        return text


@dataclass(frozen=True)
class Schema:
    """The ordered parameters of one experiment."""

    params: tuple[Param, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate parameter names in {names}")

    def __getitem__(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def names(self) -> list[str]:
        return [p.name for p in self.params]

    def resolve(self, overrides: dict | None, experiment: str = "") -> dict:
        """All parameters with defaults filled and overrides checked.

        Raises :class:`ParamError` for an unknown key or a bad value.
        """
        overrides = overrides or {}
        known = {p.name: p for p in self.params}
        for key in overrides:
            if key not in known:
                where = f" for experiment '{experiment}'" if experiment else ""
                raise ParamError(f"unknown parameter '{key}'{where}; known: {', '.join(known)}")
        out = {}
        for p in self.params:
            out[p.name] = p.coerce(overrides[p.name]) if p.name in overrides else p.default
        return out
