"""The Postprocessor's XML reports (ddsml): one generic reader, then one mapper per report.

The Postprocessor (XPRPTS) and the RMF Distributed Data Server
(``/gpm/rmfpp.xml?reports=…``) write every report in one structure::

    <ddsml><server>…</server>
      <postprocessor>                  one report of one interval
        <metric id="CACHE">…</metric>  <resource><resname>SYSA</resname>…
        <time-data><display-start>11/25/2026-09.00.00</display-start>…
        <segment><name>…</name>
          <part><name>…</name>
            <var-list><var><name>SSID</name><value>0006</value></var>…
            <table><column-headers><col type="T">…</col>…</column-headers>
                   <row refno="1"><col>…</col>…</row>…
      </postprocessor>
      <postprocessor><message id="GPM0739E"><description>…  (a DDS error)

:func:`parse` reads it with a SAX parser from defusedxml, so a DTD, entity
declarations (the "billion laughs" expansion) and external entities are
refused before anything is expanded, and hands each ``postprocessor`` to a
callback as an :class:`XReport` (the file is never held whole in memory).
:func:`models.rmf.xmlmap.read_xml` maps the reports zPerfLab knows onto the same records the
text reader fills (:mod:`models.rmf.xmlmap`).
"""
from __future__ import annotations

import xml.sax
from dataclasses import dataclass, field

from defusedxml import DefusedXmlException
from defusedxml import sax as dsax

from models.rmf.records import RmfError


@dataclass
class XTable:
    """A table: column headers and rows of ``(line, cells)``."""

    headers: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    line: int = 0


@dataclass
class XPart:
    name: str = ""
    vars: dict[str, tuple[str, int]] = field(default_factory=dict)   # name: (value, line)
    tables: list[XTable] = field(default_factory=list)
    line: int = 0


@dataclass
class XSegment:
    name: str = ""
    parts: list[XPart] = field(default_factory=list)
    line: int = 0


@dataclass
class XReport:
    """One ``postprocessor`` element: a report (or a message) for one interval."""

    metric: str = ""
    description: str = ""
    system: str | None = None
    start: str | None = None
    end: str | None = None
    interval: str | None = None
    segments: list[XSegment] = field(default_factory=list)
    messages: list[tuple[str, str, int]] = field(default_factory=list)  # (id, text, line)
    line: int = 0

    def parts(self):
        for s in self.segments:
            yield from s.parts


class _Handler(xml.sax.ContentHandler):
    """Builds the generic structure; ``on_report`` gets each postprocessor."""

    def __init__(self, on_report):
        super().__init__()
        self.on_report = on_report
        self.stack: list[str] = []
        self.text: list[str] = []
        self.rep: XReport | None = None
        self.seg: XSegment | None = None
        self.part: XPart | None = None
        self.table: XTable | None = None
        self.row: list[str] | None = None
        self.var: list = []
        self.msg: list = []
        self.locator = None
        self.reports = 0

    def setDocumentLocator(self, locator):  # noqa: N802 (SAX's name)
        self.locator = locator

    @property
    def line(self) -> int:
        return self.locator.getLineNumber() if self.locator is not None else 0

    def startElement(self, name, attrs):  # noqa: N802
        self.stack.append(name)
        self.text = []
        if name == "postprocessor":
            self.rep = XReport(line=self.line)
        elif self.rep is None:
            return
        elif name == "metric":
            self.rep.metric = attrs.get("id", "")
        elif name == "message":
            self.msg = [attrs.get("id", ""), "", self.line]
        elif name == "segment":
            self.seg = XSegment(line=self.line)
            self.rep.segments.append(self.seg)
        elif name == "part" and self.seg is not None:
            self.part = XPart(line=self.line)
            self.seg.parts.append(self.part)
        elif name == "table" and self.part is not None:
            self.table = XTable(headers=[], line=self.line)
            self.part.tables.append(self.table)
        elif name == "row" and self.table is not None:
            self.row = []
            self.table.rows.append((self.line, self.row))
        elif name == "var":
            self.var = ["", "", self.line]

    def characters(self, content):
        self.text.append(content)

    def endElement(self, name):  # noqa: N802
        self.stack.pop()
        parent = self.stack[-1] if self.stack else ""
        text = "".join(self.text).strip()
        self.text = []
        rep = self.rep
        if rep is None:
            return
        if name == "postprocessor":
            self.reports += 1
            self.on_report(rep)
            self.rep = self.seg = self.part = self.table = None
        elif name == "col" and parent == "column-headers" and self.table is not None:
            self.table.headers.append(text)
        elif name == "col" and parent == "row" and self.row is not None:
            self.row.append(text)
        elif name == "name":
            if parent == "var":
                self.var[0] = text
            elif parent == "part" and self.part is not None:
                self.part.name = text
            elif parent == "segment" and self.seg is not None:
                self.seg.name = text
        elif name == "value" and parent == "var":
            self.var[1] = text
        elif name == "var" and self.part is not None:
            self.part.vars[self.var[0]] = (self.var[1], self.var[2])
        elif name == "description":
            if parent == "metric":
                rep.description = text
            elif parent == "message":
                self.msg[1] = text
        elif name == "message":
            rep.messages.append(tuple(self.msg))
        elif name == "resname" and rep.system is None:
            rep.system = text
        elif name == "display-start":
            rep.start = text
        elif name == "display-end":
            rep.end = text
        elif name == "report-interval":
            rep.interval = text


def parse(source, on_report, name: str) -> int:
    """Parse ddsml from ``source`` (a path or a binary file object), calling
    ``on_report(XReport)`` for each report; returns how many were found.

    Raises
    ------
    RmfError
        For a DTD, an entity declaration or an external entity (refused, not
        expanded), XML that does not parse or ends early, or a document that
        is not ddsml. ``name`` is the file or URL the message names.
    """
    handler = _Handler(on_report)
    parser = dsax.make_parser()
    parser.setFeature(xml.sax.handler.feature_namespaces, False)
    parser.forbid_dtd = True          # ddsml has none; a DTD is where entities hide
    parser.forbid_entities = True
    parser.forbid_external = True
    parser.setContentHandler(handler)
    try:
        parser.parse(source)
    except DefusedXmlException as e:
        raise RmfError(name, handler.line or None,
                       f"the XML declares a DTD or entities ({type(e).__name__}): refused, "
                       "nothing was expanded or fetched; RMF's XML never has one") from None
    except LookupError as e:                # an encoding="…" Python does not know
        raise RmfError(name, 1, f"the XML declares an encoding no one knows ({e}): RMF "
                                "writes its XML in UTF-8") from None
    except xml.sax.SAXParseException as e:
        msg = e.getMessage()
        if "no element found" in msg or "unclosed token" in msg:
            raise RmfError(name, e.getLineNumber(),
                           "the XML ends early: the file or the DDS response was cut off "
                           "(truncated); fetch or copy it again") from None
        raise RmfError(name, e.getLineNumber(), f"the XML does not parse: {msg}") from None
    except ValueError as e:
        if isinstance(e, RmfError) or "encoding" not in str(e):
            raise
        raise RmfError(name, 1, f"the XML's encoding cannot be read ({e}): RMF writes its "
                                "XML in UTF-8") from None
    if handler.reports == 0 and not handler.stack:
        raise RmfError(name, 1, "this XML is not an RMF Postprocessor report (no "
                                "<postprocessor> element in a <ddsml> document)")
    return handler.reports
