"""The processor model: general CPs, zIIPs, SRB/TCB switches, CPU accounting.

Public API (stable; see docs/model-cpu.md):

* :class:`ProcessorComplex` (``gcps``, ``ziips``, ``ziip_help``,
  ``background_util``, ``trace``) on an :class:`~models.engine.Engine`;
  ``unit_of_work(name, mode, ziip_eligible)``; ``account``; ``close()``.
* :class:`UnitOfWork`: ``work(us, component)``, ``yield from service(svc)``,
  ``yield from run()``.
* :class:`Accounting`: ``charge(component, engine_type, us)``,
  ``us(engine_type, component)``, ``srb_to_tcb``, ``by_cause``, ``table()``.
* :mod:`models.cpu.services`: ``getmain``, ``freemain``, ``timer_request``,
  ``io_wait``, ``put``, ``get``, ``open_file``, ``close_file``,
  ``adabas_call``, ``sort_exit``, ``sort_invoke``, ``call_3gl``.
* :class:`CpuCosts` / :data:`DEFAULT_COSTS`: the global cost table.
"""
from models.cpu.costs import DEFAULT_COSTS, CpuCosts
from models.cpu.complex import SRB, TCB, Accounting, EnginePool, ProcessorComplex, UnitOfWork
from models.cpu.services import CAUSES, Service
from models.cpu import services

__all__ = ["DEFAULT_COSTS", "CpuCosts", "SRB", "TCB", "Accounting", "EnginePool",
           "ProcessorComplex", "UnitOfWork", "CAUSES", "Service", "services"]
