"""Operating-system services that zIIP-eligible code cannot run in SRB mode.

Each service is a small immutable :class:`Service`: the cause shown in the
trace (``meta["causes"]``), the component its CPU is charged to, the CPU it
costs in TCB mode on a general CP, and an optional wait off the CPU (an I/O
or a reply from another address space). :meth:`UnitOfWork.service
<models.cpu.complex.UnitOfWork.service>` performs one: an enclave SRB
switches to TCB mode for it and back (one SRB→TCB switch counted), a TCB
just runs it.

The factories take a :class:`~models.cpu.costs.CpuCosts`, so the cost of a
service always follows from the one table of global costs. Build a service
once per step and reuse it: services are values.
"""
from __future__ import annotations

from dataclasses import dataclass

from models.cpu.costs import DEFAULT_COSTS, CpuCosts

#: Causes in a stable order: their index is what trace rows carry in ``b``.
CAUSES = ("getmain", "freemain", "timer", "io_wait", "put", "get", "open",
          "close", "adabas_call", "sort_exit", "sort_invoke", "call_3gl", "svc")

#: Each cause as the z/OS books and a systems programmer write it: the one
#: title of a cause in the results table, the CSV, the chart and the
#: animation (``app.names.cause_title`` reads it from here).
CAUSE_TITLES = {
    "getmain": "GETMAIN",
    "freemain": "FREEMAIN",
    "timer": "STIMER (timer)",
    "io_wait": "I/O wait",
    "put": "QSAM PUT",
    "get": "QSAM GET",
    "open": "OPEN",
    "close": "CLOSE",
    "adabas_call": "Adabas call",
    "sort_exit": "Sort exit",
    "sort_invoke": "Sort invocation",
    "call_3gl": "3GL call",
    "svc": "SVC",
}

#: Who a service's CPU is charged to, as the results table names it: none
#: of them is a card on the canvas (the session's own work is charged to
#: its workload card's label; the switches to
#: :data:`models.cpu.complex.SWITCHING`).
ZOS = "z/OS services"
QSAM = "QSAM"
ADABAS = "Adabas"
SORT = "Sort program"
PROGRAMS_3GL = "3GL programs"


@dataclass(frozen=True)
class Service:
    """One request for an operating-system service.

    Attributes
    ----------
    cause : str
        One of :data:`CAUSES`.
    component : str
        Who the CPU is charged to, by name (:data:`ZOS`, :data:`QSAM`,
        :data:`ADABAS`, :data:`SORT`, :data:`PROGRAMS_3GL`).
    cpu_us : float
        CPU the service itself uses in TCB mode, microseconds.
    wait_s : float
        Time the unit of work waits off the CPU during the service, seconds.
    """

    cause: str
    component: str
    cpu_us: float
    wait_s: float = 0.0

    def __post_init__(self) -> None:
        if self.cause not in CAUSES:
            raise ValueError(f"unknown service cause {self.cause!r}; known: {', '.join(CAUSES)}")
        if self.cpu_us < 0 or self.wait_s < 0:
            raise ValueError("a service cannot cost negative CPU or time")

    @property
    def cause_index(self) -> int:
        return CAUSES.index(self.cause)


def getmain(costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """GETMAIN (SVC 10/120): obtain virtual storage."""
    return Service("getmain", ZOS, costs.svc_us)


def freemain(costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """FREEMAIN: release virtual storage."""
    return Service("freemain", ZOS, costs.svc_us)


def timer_request(costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """STIMER/STIMERM: set a CPU-time limit (Natural's MT at program start)."""
    return Service("timer", ZOS, costs.svc_us)


def io_wait(wait_s: float, costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """WAIT for an I/O: the SVC, the wait off the CPU, the interrupt's POST.

    Parameters
    ----------
    wait_s : float
        How long the I/O takes (the unit holds no engine meanwhile).
    """
    return Service("io_wait", ZOS, 2 * costs.svc_us, wait_s)


def put(nbytes: float, costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """An access-method PUT/WRITE of ``nbytes`` (a line, a record or a buffer)."""
    return Service("put", QSAM, costs.access_call_us + costs.move_us(nbytes))


def get(nbytes: float, costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """An access-method GET/READ of ``nbytes`` (a record or a buffer)."""
    return Service("get", QSAM, costs.access_call_us + costs.move_us(nbytes))


def open_file(costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """OPEN a data set."""
    return Service("open", ZOS, costs.open_close_us)


def close_file(nbytes: float = 0.0, costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """CLOSE a data set, writing the ``nbytes`` still buffered in the same visit."""
    extra = costs.access_call_us + costs.move_us(nbytes) if nbytes > 0 else 0.0
    return Service("close", ZOS, costs.open_close_us + extra)


def adabas_call(records: int, record_bytes: float, costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """One Adabas call returning ``records`` records of ``record_bytes``.

    The caller-side processing is fixed per call; the record buffer it
    copies across memory grows with the records returned (multi-fetch).
    """
    return Service("adabas_call", ADABAS,
                   costs.adabas_call_us + costs.move_us(records * record_bytes))


def sort_exit(record_bytes: float, costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """One record handed to the sort program (E15, SORTIN) or back (E35, SORTOUT)."""
    return Service("sort_exit", SORT, costs.access_call_us + costs.move_us(record_bytes))


def sort_invoke(cpu_us: float, costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """LINK to the external sort program; ``cpu_us`` is its own sorting work."""
    return Service("sort_invoke", SORT, costs.open_close_us + cpu_us)


def call_3gl(costs: CpuCosts = DEFAULT_COSTS) -> Service:
    """A call to a 3GL program (always runs in TCB mode)."""
    return Service("call_3gl", PROGRAMS_3GL, costs.call_3gl_body_us)
