"""Reading a report file line by line: kind of file, EBCDIC, ASA carriage control.

A Postprocessor listing (SYSOUT, 133-byte FBA records) arrives after a
text-mode transfer as ASCII lines whose first column is the ASA
carriage-control character (``1`` new page, ``0`` skip a line, ``-`` skip
two, ``+`` overprint the line before, blank: next line). Sometimes the
column was dropped on the way. :func:`open_lines` tells which from the
first lines and yields ``(line number, text without the control column)``,
one line at a time: a 100 MB listing is never held in memory.

A binary-mode transfer leaves the file in EBCDIC (blanks are 0x40, no line
ends): that is refused with what to do, as is a file that is neither text
nor XML.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from models.rmf.records import RmfError

#: ASA carriage-control characters.
ASA = frozenset(" 01-+")
_SNIFF_BYTES = 16384
_SNIFF_LINES = 200


def sniff(path: str | Path) -> str:
    """``"xml"`` or ``"text"`` for a report file; RmfError for EBCDIC or binary."""
    with open(path, "rb") as f:
        head = f.read(_SNIFF_BYTES)
    if not head.strip():
        raise RmfError(str(path), None, "the file is empty")
    if head.startswith(b"\x4c\x6f\xa7\x94") or _looks_ebcdic(head):
        raise RmfError(str(path), 1,
                       "the file is EBCDIC (it was transferred from z/OS in binary mode): "
                       "transfer it again in text (ASCII) mode, or convert it first "
                       "(iconv -f IBM-1047 -t UTF-8)")
    if b"\x00" in head:
        raise RmfError(str(path), 1, "the file is binary, not an RMF report "
                                     "(SMF records must go through the Postprocessor first)")
    lead = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if lead.startswith(b"<"):
        return "xml"
    return "text"


def _looks_ebcdic(head: bytes) -> bool:
    """EBCDIC text: blanks are 0x40 and letters 0xC1-0xE9, ASCII blanks and
    line ends are rare."""
    ebcdic_blank = head.count(0x40)
    ascii_blank = head.count(0x20) + head.count(0x0A)
    high = sum(1 for b in head if b >= 0xC1)
    return ebcdic_blank > 4 * max(1, ascii_blank) and high > len(head) // 10


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def has_asa(lines: list[str]) -> bool:
    """Whether the lines carry the ASA column: every non-empty line starts with
    a control character and at least one with a page, skip or overprint one."""
    seen = [ln for ln in lines if ln.strip()]
    if not seen:
        return False
    if not all(ln[0] in ASA for ln in seen):
        return False
    return any(ln[0] in "01-+" and (len(ln) == 1 or not ln[1].isdigit()) for ln in seen)


#: Lines between two calls of ``open_lines``' watch (progress and cancel).
WATCH_LINES = 1 << 12


def open_lines(path: str | Path, watch=None) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of a text report, the ASA column removed when
    present and overprint lines (``+``) skipped. Line numbers are the file's.

    ``watch(bytes_read)``, if given, is called every :data:`WATCH_LINES`
    lines (it may raise to stop the reading: a cancelled import)."""
    path = Path(path)
    with open(path, "rb") as f:
        first: list[str] = []
        for raw in f:
            first.append(_decode(raw).rstrip("\r\n"))
            if len(first) >= _SNIFF_LINES:
                break
        asa = has_asa(first)
        n = 0
        for text in first:
            n += 1
            out = _strip(text, asa)
            if out is not None:
                yield n, out
        for raw in f:
            n += 1
            if watch is not None and not n % WATCH_LINES:
                watch(f.tell())
            out = _strip(_decode(raw).rstrip("\r\n"), asa)
            if out is not None:
                yield n, out


def _strip(text: str, asa: bool) -> str | None:
    if not asa:
        return text
    if text[:1] == "+":
        return None              # overprint (underlining): nothing new
    return text[1:]
