"""The discrete-event engine every zPerfLab model runs on.

Public surface: :class:`Engine` (``now``, ``schedule``, ``step``, ``run``,
``process``), :class:`Event`, :class:`Resource`, :class:`PriorityResource`,
:class:`Trace` and :class:`Counters`.
"""
from models.engine.core import Engine, Event, Process, Interrupt
from models.engine.resources import Resource, PriorityResource, Request, Store
from models.engine.trace import Trace
from models.engine.counters import Counters

__all__ = ["Engine", "Event", "Process", "Interrupt", "Resource",
           "PriorityResource", "Request", "Store", "Trace", "Counters"]
