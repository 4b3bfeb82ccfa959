"""The general CPU workload: transactions with a zIIP-eligible share.

A :class:`CPUWorkload` issues transactions at ``cpu_demand / tran_cpu_ms``
per second (Poisson) on a :class:`models.cpu.ProcessorComplex` built from
the processors drawn. Each transaction runs its general part as a TCB on a
general CP, then its eligible part as an enclave SRB: on a zIIP when one
is free, on a general CP when every zIIP is busy and help is allowed
(IIPHONORPRIORITY=YES), or on a CP when there is no zIIP. The engine's
speed divides the CPU time. Response time = end − arrival (queueing for an
engine included).
"""
from __future__ import annotations

from models.cpu import SRB, TCB


class CPUWorkload:
    """One ``wl_cpu`` component on ``cpx``.

    Parameters
    ----------
    engine : Engine
    cpx : models.cpu.ProcessorComplex
    workload : models.drawing.config.Workload
    values : dict
        Its values of :data:`models.workloads.params.CPU_PARAMS` and ``duration_s``.
    """

    def __init__(self, engine, cpx, workload, values: dict):
        self.engine = engine
        self.cpx = cpx
        self.name = workload.name
        self.tran_us = float(values["tran_cpu_ms"]) * 1000.0
        self.rate = float(values["cpu_demand"]) / (self.tran_us * 1e-6)
        share = float(values["ziip_pct"]) / 100.0
        self.eligible_us = self.tran_us * share
        self.general_us = self.tran_us - self.eligible_us
        self.end = float(values["duration_s"])
        self.rng = engine.stream(f"{self.name}/arrivals")
        self.completed = 0
        self.resp = 0.0

    def reset_statistics(self) -> None:
        """Forget what completed so far (warm-up removal)."""
        self.completed = 0
        self.resp = 0.0

    def start(self) -> None:
        self.engine.process(self._arrivals(), f"{self.name}/arrivals")

    def _arrivals(self):
        eng = self.engine
        expo = self.rng.expovariate
        rate = self.rate
        while True:
            yield expo(rate)
            if eng.now >= self.end:
                return
            eng.process(self._transaction())

    def _transaction(self):
        t0 = self.engine.now
        cpx = self.cpx
        if self.general_us > 0:
            tcb = cpx.unit_of_work(self.name, TCB, ziip_eligible=False)
            tcb.work(self.general_us, self.name)
            yield from tcb.run()
        if self.eligible_us > 0:
            srb = cpx.unit_of_work(self.name, SRB, ziip_eligible=True)
            srb.work(self.eligible_us, self.name)
            yield from srb.run()
        self.completed += 1
        self.resp += self.engine.now - t0
