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

import codecs
import io
import re
from collections.abc import Iterator
from pathlib import Path

from models.rmf.records import RmfError

#: ASA carriage-control characters.
ASA = frozenset(" 01-+")
_SNIFF_BYTES = 16384
_SNIFF_LINES = 200


def sniff(path: str | Path) -> str:
    """``"xml"`` or ``"text"`` for a report file; RmfError for EBCDIC, binary or
    an XML encoding nobody can read. UTF-16 and UTF-32 (a Windows editor's
    "Unicode") are decoded (:func:`encoding_of`)."""
    with open(path, "rb") as f:
        head = f.read(_SNIFF_BYTES)
    if not head.strip():
        raise RmfError(str(path), None, "the file is empty")
    enc = encoding_of(head)
    if enc is not None:
        text = head.decode(enc, errors="replace").lstrip("\ufeff \t\r\n")
        if not text.startswith("<"):
            return "text"
        m = _XML_ENCODING.match(text.encode("ascii", errors="replace"))
        declared = m.group(1).decode("ascii").lower() if m else "utf-8"
        if enc.startswith("utf-16") and declared.startswith("utf-16"):
            return "xml"
        tool = enc.upper().replace("-LE", "LE").replace("-BE", "BE")
        raise RmfError(str(path), 1, f"the file is {enc.upper()} (a Windows editor's "
                       f"\"Unicode\") but its XML declaration says {declared}: save it as "
                       f"UTF-8 (iconv -f {tool} -t UTF-8)")
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
        _check_xml_encoding(path, lead)
        return "xml"
    return "text"


def encoding_of(head: bytes) -> str | None:
    """``"utf-16"``, ``"utf-32"`` (with a byte-order mark), ``"utf-16-le"`` or
    ``"utf-16-be"`` (without one: every other byte zero), else None (UTF-8 or
    Latin-1, read as :func:`_utf8_lines` does)."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    even, odd = head[0:400:2], head[1:400:2]
    if len(odd) >= 8:
        if odd.count(0) >= 0.9 * len(odd) and even.count(0) == 0:
            return "utf-16-le"
        if even.count(0) >= 0.9 * len(even) and odd.count(0) == 0:
            return "utf-16-be"
    return None


_XML_ENCODING = re.compile(rb"^<\?xml[^>]*\sencoding\s*=\s*[\"']([^\"']*)[\"']")
#: Encodings the XML parser reads itself (others it refuses or cannot decode).
_XML_OK = {"utf8", "utf-8", "us-ascii", "ascii", "iso-8859-1", "latin-1", "latin1",
           "iso8859-1", "utf-16", "utf16"}


def _check_xml_encoding(path, lead: bytes) -> None:
    m = _XML_ENCODING.match(lead)
    if m is None:
        return
    name = m.group(1).decode("ascii", errors="replace")
    try:
        known = codecs.lookup(name).name
    except LookupError:
        known = None
    if name.lower() in _XML_OK or known in ("utf-8", "ascii", "latin-1", "iso8859-1"):
        return
    what = "an encoding no one knows" if known is None else "an encoding the XML reader " \
        "cannot read"
    raise RmfError(str(path), 1, f"the XML declares encoding=\"{name[:40]}\", {what}: RMF "
                                 "writes its XML in UTF-8; convert the file (iconv -t UTF-8) "
                                 "and correct the declaration")


def _looks_ebcdic(head: bytes) -> bool:
    """EBCDIC text: blanks are 0x40 and letters 0xC1-0xE9, ASCII blanks and
    line ends are rare."""
    ebcdic_blank = head.count(0x40)
    ascii_blank = head.count(0x20) + head.count(0x0A)
    high = sum(1 for b in head if b >= 0xC1)
    return ebcdic_blank > 4 * max(1, ascii_blank) and high > len(head) // 10


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
        enc = encoding_of(f.read(_SNIFF_BYTES))
        f.seek(0)
        raw = _lines(f, enc, str(path)) if enc else _utf8_lines(f)
        first: list[str] = []
        for line in raw:
            first.append(line)
            if len(first) >= _SNIFF_LINES:
                break
        asa = has_asa(first)
        n = 0
        for text in first:
            n += 1
            out = _strip(text, asa)
            if out is not None:
                yield n, out
        for text in raw:
            n += 1
            if watch is not None and not n % WATCH_LINES:
                watch(f.tell())
            out = _strip(text, asa)
            if out is not None:
                yield n, out


def _utf8_lines(f) -> Iterator[str]:
    """The lines of a UTF-8 (or Latin-1) file, without their line ends."""
    for raw in f:
        try:
            yield raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            yield raw.decode("latin-1").rstrip("\r\n")


def _lines(f, enc: str, name: str) -> Iterator[str]:
    """The lines of a UTF-16 or UTF-32 file, without their line ends."""
    n = 0
    try:
        for line in io.TextIOWrapper(f, encoding=enc, newline=None):
            n += 1
            yield line.rstrip("\r\n").lstrip("\ufeff") if n == 1 else line.rstrip("\r\n")
    except UnicodeDecodeError:
        raise RmfError(name, n + 1, f"the file is {enc.upper()} (a Windows editor's "
                                    "\"Unicode\") but this line does not decode: it is "
                                    "damaged; save it again as UTF-8") from None


def _strip(text: str, asa: bool) -> str | None:
    if not asa:
        return text
    if text[:1] == "+":
        return None              # overprint (underlining): nothing new
    return text[1:]
