"""A processor complex: general CPs and zIIPs, a dispatcher, units of work.

Engines come in two pools, ``gcp`` (general CPs: run TCB and SRB work) and
``ziip`` (run only zIIP-eligible enclave SRB work). A :class:`UnitOfWork`
accumulates CPU demand with :meth:`UnitOfWork.work` (no event: per-record
work between two switches becomes one CPU slice) and is dispatched when it
must stop: at an operating-system service (:meth:`UnitOfWork.service`) or
when the caller flushes it (:meth:`UnitOfWork.run`).

An enclave SRB that needs a service it cannot run in SRB mode switches to
TCB mode: the SRB→TCB switch costs ``switch_us`` on the engine it leaves,
the service runs on a general CP, and the TCB→SRB switch back costs
``switch_us`` on that CP. Both are counted and traced with their cause.

Dispatch rule for zIIP-eligible work: a free zIIP if there is one; if all
zIIPs are busy and ``ziip_help`` is on (z/OS IIPHONORPRIORITY=YES) a free
general CP runs it (and its time counts as general CP time); otherwise it
waits for the first zIIP to free up. With no zIIP installed, eligible work
runs on general CPs. ``background_util`` keeps each engine busy that
fraction of the time with other work (exponential bursts), which delays
dispatch but is not charged to the workload.
"""
from __future__ import annotations

from collections import deque

from models.engine import trace_vocab as V
from models.cpu.costs import DEFAULT_COSTS, CpuCosts
from models.cpu.services import CAUSE_TITLES, CAUSES, Service
from models.engine import Engine, Trace
from models.core.run import Table

SRB = "srb"
TCB = "tcb"
#: Mean length of one burst of background work on an engine, seconds: about
#: a z/OS dispatch interval for a CPU-bound task (assumption; only the
#: dispatch delays seen with background_util > 0 depend on it).
BACKGROUND_BURST_S = 0.0005
#: Round trips run as one pair of CPU slices by :meth:`UnitOfWork.repeat`
#: when aggregation is exact (see :attr:`ProcessorComplex.exclusive`).
AGGREGATE_CHUNK = 1000
#: Who the CPU of the SRB/TCB switches themselves is charged to (the
#: animation's tab and the chart call them the same).
SWITCHING = "SRB/TCB switches"


class EnginePool:
    """``count`` engines of one type with a FIFO queue of waiting work.

    Idle engines wait in a FIFO too: work goes to the engine that has been
    idle longest (least recently used), as z/OS spreads its dispatchable
    work over every online CP (docs/model-cpu.md, "Which engine runs
    work"). Picking the lowest-numbered idle engine instead would fill CP0
    first and leave the last CPs nearly idle, which RMF never shows.
    """

    def __init__(self, engine: Engine, kind: str, count: int, prefix: str,
                 names: list[str] | None = None, speeds: list[float] | None = None):
        self.engine = engine
        self.kind = kind
        self.count = count
        self.names = list(names) if names else [f"{prefix}{i}" for i in range(count)]
        #: Engine speed relative to the one the CPU costs were measured on.
        self.speeds = list(speeds) if speeds else [1.0] * count
        if len(self.names) != count or len(self.speeds) != count:
            raise ValueError(f"{count} {kind} engines need {count} names and speeds")
        self.free: deque = deque(range(count))
        self.waiters: deque = deque()
        self.busy_us = [0.0] * count
        self.dispatches = 0
        self.delayed = 0

    def take(self) -> int:
        """The index of the engine idle longest, or -1 if all are busy."""
        if self.free:
            return self.free.popleft()
        return -1

    def wait(self):
        """An event that triggers with an engine index when one frees up."""
        ev = self.engine.event()
        self.waiters.append(ev)
        self.delayed += 1
        return ev

    def give_back(self, idx: int) -> None:
        """Release engine ``idx`` to the next waiter, or to the end of the
        idle queue (it is then the most recently used idle engine)."""
        if self.waiters:
            self.waiters.popleft().succeed(idx)
        else:
            self.free.append(idx)


def _named(processors) -> tuple:
    """(names, speeds) of drawn processors, or (None, None)."""
    if processors is None:
        return None, None
    return [p.name for p in processors], [float(p.speed) for p in processors]


class Accounting:
    """CPU microseconds per component and engine type, and switch counts."""

    def __init__(self):
        self.by_component: dict[str, dict[str, float]] = {}
        self.srb_to_tcb = 0
        self.tcb_to_srb = 0
        self.by_cause = dict.fromkeys(CAUSES, 0)
        self.eligible_on_gcp_us = 0.0

    def charge(self, component: str, engine_type: str, us: float) -> None:
        """Add ``us`` microseconds of CPU for ``component`` on ``engine_type``.

        Models that do not simulate CPU contention can call this directly.
        """
        row = self.by_component.get(component)
        if row is None:
            row = self.by_component[component] = {"ziip": 0.0, "gcp": 0.0}
        row[engine_type] += us

    def us(self, engine_type: str | None = None, component: str | None = None) -> float:
        """Total CPU microseconds, optionally for one engine type or component."""
        total = 0.0
        for comp, row in self.by_component.items():
            if component is None or comp == component:
                total += row["ziip"] + row["gcp"] if engine_type is None else row[engine_type]
        return total

    def table(self) -> Table:
        """An RMF-style workload activity table: CPU by component, under the
        names the CPU was charged to (a workload's canvas label, "z/OS
        services"), in alphabetical order whatever their case."""
        rows = tuple((comp, round(row["ziip"] / 1000, 3), round(row["gcp"] / 1000, 3),
                      round((row["ziip"] + row["gcp"]) / 1000, 3))
                     for comp, row in sorted(self.by_component.items(),
                                             key=lambda kv: kv[0].casefold()))
        return Table("CPU time by component", ("component", "zIIP ms", "CP ms", "total ms"),
                     rows, note=f"{self.srb_to_tcb:,} SRB→TCB switches, "
                                f"{self.tcb_to_srb:,} back to SRB")

    def cause_table(self) -> Table:
        """SRB→TCB switches by the service that caused them, each cause under
        its title (:data:`models.cpu.services.CAUSE_TITLES`, as the chart
        and the animation write it)."""
        rows = tuple((CAUSE_TITLES[c], n) for c, n in self.by_cause.items() if n)
        return Table("SRB→TCB switches by cause", ("cause", "switches"), rows)


class ProcessorComplex:
    """General CPs and zIIPs on an :class:`~models.engine.Engine`.

    Parameters
    ----------
    engine : Engine
    gcps : int
        General CPs (at least 1).
    ziips : int
        zIIPs (0 or more).
    costs : CpuCosts
        The global CPU cost table.
    ziip_help : bool
        Let general CPs run zIIP-eligible work when every zIIP is busy.
    background_util : float
        Fraction 0–0.95 of each engine's time taken by other work.
    trace : Trace or None
        Where to record switches and CPU slices (``None``: record nothing).
    engines : sequence of models.drawing.config.Processor or None
        The processors drawn on the canvas (their type, name and speed);
        when given, ``gcps`` and ``ziips`` are their counts.
    """

    def __init__(self, engine: Engine, gcps: int = 1, ziips: int = 1,
                 costs: CpuCosts = DEFAULT_COSTS, ziip_help: bool = True,
                 background_util: float = 0.0, trace: Trace | None = None,
                 engines=None):
        cps = [p for p in engines if p.type == "CP"] if engines is not None else None
        zs = [p for p in engines if p.type == "zIIP"] if engines is not None else None
        if engines is not None:
            gcps, ziips = len(cps), len(zs)
        if gcps < 1 or ziips < 0:
            raise ValueError("a processor complex needs at least one general CP and no negative zIIPs")
        if not 0.0 <= background_util <= 0.95:
            raise ValueError(f"background_util {background_util} outside 0–0.95")
        self.engine = engine
        self.costs = costs
        self.ziip_help = ziip_help
        self.gcp = EnginePool(engine, "gcp", gcps, "CP", *_named(cps))
        self.ziip = EnginePool(engine, "ziip", ziips, "zIIP", *_named(zs))
        self.account = Accounting()
        self.trace = trace
        self.closed = False
        self._units = 0
        self.background_util = background_util
        if trace is not None:
            self._comp = {("gcp", i): trace.component(n, V.CP) for i, n in enumerate(self.gcp.names)}
            self._comp.update({("ziip", i): trace.component(n, V.ZIIP)
                               for i, n in enumerate(self.ziip.names)})
            self._k_busy = trace.kind(V.CPU_BUSY)
            self._k_to_tcb = trace.kind(V.SRB_TO_TCB)
            self._k_to_srb = trace.kind(V.TCB_TO_SRB)
            trace.meta["causes"] = list(CAUSES)
        if background_util > 0:
            for pool in (self.gcp, self.ziip):
                for i in range(pool.count):
                    engine.process(self._background(pool, background_util, f"bg/{pool.kind}{i}"))

    def reset_statistics(self) -> None:
        """Start a new measurement interval now (warm-up removal): engine busy
        times, dispatch counts and the CPU accounting start from zero."""
        for pool in (self.gcp, self.ziip):
            pool.busy_us = [0.0] * pool.count
            pool.dispatches = pool.delayed = 0
        self.account = Accounting()

    def unit_of_work(self, name: str, mode: str = SRB, ziip_eligible: bool = True) -> "UnitOfWork":
        """A new unit of work (an enclave SRB by default)."""
        self._units += 1
        return UnitOfWork(self, name, self._units, mode, ziip_eligible)

    @property
    def exclusive(self) -> bool:
        """True when one unit of work has the complex to itself, untraced.

        Then every dispatch is immediate and the unit's timeline is the sum
        of its slices, so identical round trips may be aggregated exactly.
        """
        return self._units <= 1 and self.background_util == 0 and self.trace is None

    def close(self) -> None:
        """Stop the background work (call when the workload has finished)."""
        self.closed = True

    def srb_engine(self) -> tuple[EnginePool, int]:
        """Dispatch zIIP-eligible work: (pool, engine index or -1 to wait)."""
        z = self.ziip
        if z.count == 0:
            return self.gcp, self.gcp.take()
        idx = z.take()
        if idx >= 0 or not self.ziip_help:
            return z, idx
        g = self.gcp.take()
        if g >= 0:
            return self.gcp, g
        return z, -1

    def _background(self, pool: EnginePool, util: float, stream: str):
        rng = self.engine.stream(stream)
        burst = BACKGROUND_BURST_S
        idle_mean = burst * (1.0 - util) / util
        while True:
            yield rng.expovariate(1.0 / idle_mean)
            if self.closed:
                return
            idx = pool.take()
            if idx < 0:
                idx = yield pool.wait()
            yield rng.expovariate(1.0 / burst)
            pool.give_back(idx)


class UnitOfWork:
    """A task or enclave SRB whose CPU demand the complex dispatches.

    Use inside an engine process::

        uow.work(3.0, "Natural batch")      # accumulate, no event
        yield from uow.service(svc)         # switch to TCB for the service
        yield from uow.run()                # dispatch what is pending
    """

    def __init__(self, cpx: ProcessorComplex, name: str, uid: int, mode: str, ziip_eligible: bool):
        if mode not in (SRB, TCB):
            raise ValueError(f"mode must be '{SRB}' or '{TCB}', not {mode!r}")
        self.cpx = cpx
        self.name = name
        self.uid = uid
        self.mode = mode
        self.ziip_eligible = ziip_eligible and mode == SRB
        self._pending = 0.0
        self._by: dict[str, float] = {}

    def work(self, us: float, component: str) -> None:
        """Add ``us`` microseconds of CPU in the current mode (no event)."""
        self._pending += us
        self._by[component] = self._by.get(component, 0.0) + us

    def run(self):
        """Dispatch the pending work as one CPU slice (a generator)."""
        yield from self._slice(self.mode == TCB or not self.ziip_eligible)

    def service(self, svc: Service):
        """Perform an OS service; an SRB switches to TCB mode and back."""
        cpx = self.cpx
        if self.mode == TCB:
            self.work(svc.cpu_us, svc.component)
            yield from self._slice(True)
            if svc.wait_s:
                yield svc.wait_s
            return
        sw = cpx.costs.switch_us
        self.work(sw, SWITCHING)
        pool, idx = yield from self._slice(not self.ziip_eligible)
        acc = cpx.account
        acc.srb_to_tcb += 1
        acc.by_cause[svc.cause] += 1
        tr = cpx.trace
        if tr is not None:
            tr.record(cpx.engine.now, cpx._comp[(pool.kind, idx)], cpx._k_to_tcb,
                      self.uid, svc.cause_index)
        self.work(svc.cpu_us, svc.component)
        if svc.wait_s:
            yield from self._slice(True)
            yield svc.wait_s
        self.work(sw, SWITCHING)
        pool, idx = yield from self._slice(True)
        acc.tcb_to_srb += 1
        if tr is not None:
            tr.record(cpx.engine.now, cpx._comp[(pool.kind, idx)], cpx._k_to_srb,
                      self.uid, svc.cause_index)

    def repeat(self, n: int, cycle: tuple, component: str, progress=None):
        """``n`` times: for each ``(work_us, service)`` in ``cycle``, work then service.

        When the complex is :attr:`~ProcessorComplex.exclusive`, up to
        :data:`AGGREGATE_CHUNK` cycles run as one zIIP slice and one CP slice
        with the same CPU, switch counts and elapsed time as one event per
        switch (a test checks this); otherwise every switch is an event.
        ``progress(done)`` is called with the cycles done now and then.
        """
        if n <= 0:
            return
        waits = any(svc.wait_s for _, svc in cycle)
        if self.mode == TCB or waits or not self.cpx.exclusive:
            for i in range(n):
                for work_us, svc in cycle:
                    self.work(work_us, component)
                    yield from self.service(svc)
                if progress is not None and i % AGGREGATE_CHUNK == AGGREGATE_CHUNK - 1:
                    progress(i + 1)
            return
        done = 0
        while done < n:
            m = min(AGGREGATE_CHUNK, n - done)
            yield from self._aggregate(m, cycle, component)
            done += m
            if progress is not None:
                progress(done)

    def _aggregate(self, m: int, cycle: tuple, component: str):
        """``m`` cycles as one zIIP slice and one general CP slice."""
        cpx = self.cpx
        sw = cpx.costs.switch_us
        k = len(cycle)
        self.work(m * sum(w for w, _ in cycle), component)
        self.work(m * k * sw, SWITCHING)
        yield from self._slice(not self.ziip_eligible)
        acc = cpx.account
        acc.srb_to_tcb += m * k
        acc.tcb_to_srb += m * k
        for _, svc in cycle:
            acc.by_cause[svc.cause] += m
            self.work(m * svc.cpu_us, svc.component)
        self.work(m * k * sw, SWITCHING)
        yield from self._slice(True)

    def _slice(self, on_gcp: bool):
        """Hold one engine for the pending CPU; returns (pool, engine index)."""
        cpx = self.cpx
        if on_gcp:
            pool = cpx.gcp
            idx = pool.take()
        else:
            pool, idx = cpx.srb_engine()
        if idx < 0:
            idx = yield pool.wait()
        pool.dispatches += 1
        # A faster engine runs the same work in less CPU time.
        speed = pool.speeds[idx]
        us = self._pending / speed
        tr = cpx.trace
        if tr is not None:
            lane = cpx._comp[(pool.kind, idx)]
            tr.record(cpx.engine.now, lane, cpx._k_busy, self.uid, tr.whole(lane, us))
        yield us * 1e-6
        pool.busy_us[idx] += us
        pool.give_back(idx)
        kind = pool.kind
        charge = cpx.account.charge
        for comp, v in self._by.items():
            charge(comp, kind, v / speed)
        if kind == "gcp" and not on_gcp:
            cpx.account.eligible_on_gcp_us += us
        self._pending = 0.0
        self._by = {}
        return pool, idx
