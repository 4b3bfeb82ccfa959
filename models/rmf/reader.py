"""Import RMF reports: text listings and XML (ddsml) files into one RmfSystem.

:func:`read_reports` reads every file given (each one a text listing, a
Postprocessor XML file or a Monitor III answer of a DDS, told apart by
content), puts what belongs to one
interval together, numbers the intervals in time order and picks one: the
number the user asked for, or the busiest (highest DASD I/O rate, else
cache read rate, else busy), saying which and why.
"""
from __future__ import annotations

from pathlib import Path

from models.rmf import join as joins
from models.rmf.lines import sniff
from models.rmf.records import Assumption, Interval, RmfError, RmfSystem
from models.rmf.text import TextReader


#: Inputs larger than this are read in two passes (bounded memory).
LARGE_BYTES = 8_000_000


def read_reports(paths, interval: int | None = None,
                 large_bytes: int = LARGE_BYTES, progress=None, cancel=None,
                 join: bool = False) -> RmfSystem:
    """Read RMF report files (text or XML) into an :class:`RmfSystem`.

    Inputs of more than ``large_bytes`` are read twice: first keeping only
    each interval's activity (to number and choose), then keeping the
    figures of the chosen interval alone, so memory holds one interval's
    figures whatever the file's size. The other intervals then carry only
    their activity.

    Parameters
    ----------
    paths : iterable of str or Path
    interval : int or None
        The interval to use, numbered 1… in time order; None: the busiest.
    progress : callable or None
        ``progress(fraction)`` as the bytes are read (both passes of a large
        input: 0 to 1 over all of them).
    cancel : callable or None
        ``cancel()`` true stops the reading at once with
        :class:`models.core.run.Cancelled` (checked as the bytes are read).
    join : bool
        Take each report the chosen interval lacks from the interval nearest in
        time that has it (:mod:`models.rmf.join`), stated; else reports of
        other intervals are only named as not meeting it.

    Raises
    ------
    RmfError
        On the first bad input, naming the file and line.
    """
    files = [_regular(Path(p)) for p in paths]
    total = sum(p.stat().st_size for p in files)
    large = total > large_bytes
    watch = _Watch(total * (2 if large else 1), progress, cancel)
    first = _read(files, TextReader("summary" if large else "all"), watch)
    system = assemble(first, [str(p) for p in files], interval, join)
    if large:
        keep = [system.interval, *(joins.donors(system).values() if join else ())]
        second = _read(files, TextReader("chosen", frozenset(iv.key for iv in keep)), watch)
        for iv in keep:
            full = second.intervals[iv.key]
            full.number = iv.number
            system.intervals[iv.number - 1] = full
    if join:
        joins.join(system)
    return system


def _regular(p: Path) -> Path:
    """``p``, or RmfError saying why it is no report file to read."""
    if p.is_dir():
        raise RmfError(str(p), None, "this is a folder, not a regular file: name the report "
                                     "files in it")
    if not p.exists():
        raise RmfError(str(p), None, "no such file")
    if not p.is_file():
        raise RmfError(str(p), None, "not a regular file (a device, a pipe or a socket): name "
                                     "a report file")
    return p


def _read(files: list[Path], reader: TextReader, watch: "_Watch") -> TextReader:
    for p in files:
        try:
            _read_one(p, reader, watch)
        except OSError as e:
            raise RmfError(str(p), None, f"cannot be read: {e.strerror or e}") from None
    return reader


def _read_one(p: Path, reader: TextReader, watch: "_Watch") -> None:
    reader.watch = watch.file() if watch.on else None
    if sniff(p) == "xml":
        from models.rmf import m3, xmlmap
        if m3.is_m3(p):
            m3.read_m3(p, reader)        # Monitor III (/gpm/rmfm3.xml)
        else:
            xmlmap.read_xml(p, reader)
    else:
        reader.read(p)
    watch.done_file(p.stat().st_size)


class _Watch:
    """Progress over all the bytes to read (every pass), and the cancel check."""

    def __init__(self, total: int, progress, cancel) -> None:
        self.total, self.progress, self.cancel = max(1, total), progress, cancel
        self.on = progress is not None or cancel is not None
        self.base = 0

    def file(self):
        def at(done: int) -> None:
            if self.cancel is not None and self.cancel():
                from models.core.run import Cancelled
                raise Cancelled("RMF import cancelled")
            if self.progress is not None:
                self.progress(min(1.0, (self.base + done) / self.total))
        return at

    def done_file(self, size: int) -> None:
        self.base += size
        if self.on:
            self.file()(0)


def assemble(reader, files: list[str], interval: int | None, join: bool = False) -> RmfSystem:
    """Number the intervals read, pick one, and complete the assumptions."""
    ivs = sorted(reader.intervals.values(), key=lambda i: (i.start is None, i.start or ""))
    if not ivs:
        skipped = "; skipped: " + "; ".join(reader.skipped) if reader.skipped else ""
        raise RmfError(files[0] if files else "input", None,
                       "no RMF interval was found" + skipped)
    for k, iv in enumerate(ivs, 1):
        iv.number = k
    system = RmfSystem(intervals=ivs, assumptions=list(reader.assumptions), files=files,
                       skipped=list(reader.skipped))
    system.chosen, system.reason = _choose(ivs, interval, files)
    _missing_reports(system, join)
    return system


def _choose(ivs: list[Interval], wanted: int | None, files: list[str]) -> tuple[int, str]:
    if wanted is not None:
        if not 1 <= wanted <= len(ivs):
            raise RmfError(files[0], None, f"there is no interval {wanted}: the reports hold "
                           f"{len(ivs)} (" + ", ".join(i.label for i in ivs) + ")")
        iv = ivs[wanted - 1]
        if iv.activity() <= 0:
            raise _idle(iv, files)
        return wanted - 1, f"{iv.label}: asked for"
    best = max(range(len(ivs)), key=lambda k: ivs[k].activity())
    iv = ivs[best]
    if iv.activity() <= 0:
        raise _idle(iv, files)
    if len(ivs) == 1:
        return best, f"{iv.label}: the only interval"
    return best, f"{iv.label}: the busiest of {len(ivs)} ({activity_text(iv)})"


def activity_text(iv: Interval) -> str:
    """An interval's activity in words: its DASD I/O rate, or its activity figure."""
    io = sum(v.rate for v in iv.volumes.values()) + iv.tally[0]
    if io:
        return f"{io:,.1f} DASD I/O per second"
    return f"activity {iv.activity():,.1f}"


def no_volumes(iv: Interval, files: list[str]) -> RmfError | None:
    """The error for a device report that gives no volume to draw (None: it gives some,
    or there is no device report)."""
    if "DEVICE" not in iv.reports or iv.volumes or iv.tally[0]:
        return None
    src = iv.sources.get("DEVICE")
    return RmfError(src.file if src else files[0], src.line if src else None,
                    f"the device report of {iv.label} has no volume with a volume serial "
                    f"({len(iv.offline)} offline devices, {len(iv.lcus)} LCU totals): there "
                    "is nothing to draw; import an interval with online volumes")


def _idle(iv: Interval, files: list[str]) -> RmfError:
    refused = no_volumes(iv, files)
    if refused is not None:
        return refused
    src = next(iter(iv.sources.values()), None)
    file, line = (src.file, src.line) if src else (files[0], None)
    return RmfError(file, line, f"{iv.label} shows no activity (no I/O, no cache requests, "
                                "no busy channel or engine): pick an interval with work in it")


def _missing_reports(system: RmfSystem, join: bool = False) -> None:
    """State which reports the chosen interval lacks, and what stands in."""
    iv = system.interval
    file = system.files[0] if system.files else "input"
    missing = {"DEVICE": ("volumes, storage groups, response times", "none: the drawing "
                          "gets no volumes from a device report"),
               "CACHE": ("cache sizes and hit ratios", "the model's default cache"),
               "CHAN": ("channel paths", "the model's default channel paths"),
               "CPU": ("processors", "no processors"),
               "ESS": ("ranks", "one rank per volume")}
    elsewhere = joins.donors(system)
    for kind, (what, stand_in) in missing.items():
        if kind in iv.reports or (join and kind in elsewhere):
            continue                  # read, or joined (models.rmf.join says so)
        system.assumptions.append(Assumption(
            what, stand_in, f"no {kind} report for {iv.label}", file, None))
        if kind in elsewhere:
            system.assumptions.append(joins.not_joined(kind, iv, elsewhere[kind], file))
