"""Reading RMF Postprocessor reports (text or XML, from files or a DDS).

Pure Python, no Qt. :func:`read_reports` gives an :class:`RmfSystem` of
what was read per interval and what was assumed; :mod:`models.rmf.dds`
fetches the same reports from an RMF Distributed Data Server;
:mod:`models.rmf.fit` fits one storage group's I/O workload to what was
measured. See docs/rmf-import.md.
"""
from models.rmf.reader import read_reports
from models.rmf.records import Assumption, Interval, RmfError, RmfSystem

__all__ = ["Assumption", "Interval", "RmfError", "RmfSystem", "read_reports"]
