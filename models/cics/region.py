"""CICS regions running transactions against one VSAM file, and the sysplex
around them: the engine, the KSDS and its volume, the coupling facility, the
log streams, file control, and open (Poisson) transaction arrivals.

A non-threadsafe task runs on its region's single quasi-reentrant (QR) TCB
and gives it up only while it waits (I/O, locks, log writes); a threadsafe
task runs on an open TCB of its own, so QR never queues it. Synchronous CF
requests spin on whichever TCB issued them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from models.cics.coupling import CouplingFacility
from models.cics.filecontrol import FileControl
from models.cics.logger import LogStream
from models.cics.task import Task
from models.cics.workload import Workload
from models.engine import Engine, Resource
from models.vsam import costs
from models.vsam.dasd import Volume
from models.vsam.ksds import KSDS

#: Transactions drawn per numpy chunk.
_CHUNK = 1024


@dataclass
class TranStats:
    """Per-transaction sums the metrics are built from."""

    n: int = 0
    resp: float = 0.0
    reported_wait: float = 0.0
    true_wait: float = 0.0
    log_time: float = 0.0
    lock_time: float = 0.0
    retries: int = 0
    resp_samples: list = field(default_factory=list)


def _log_volume(config, system):
    """The drawn volume holding the log staging data sets (through the run's
    I/O system), or ``None`` without a drawing or without one drawn."""
    if config is None:
        return None
    for ds in config.datasets:
        if ds.kind == "ds_log" and ds.volumes:
            return system.volume(ds.volumes[0])
    return None


class Sysplex:
    """Everything one run simulates.

    Parameters
    ----------
    params : dict
        The ``vsam_rls`` experiment's resolved parameters.
    seed : int
    trace : Trace or None
    progress : callable or None
        Called with the fraction of transactions finished.
    """

    def __init__(self, params: dict, seed: int, trace=None, progress=None, config=None):
        self.p = params
        self.engine = eng = Engine(seed)
        self.ksds = KSDS(params["records"], record_bytes=params["record_bytes"])
        self.volume = Volume(eng, self.ksds.cisize, self.ksds.data_cis,
                             sum(self.ksds.index_level_sizes), trace, config=config)
        cf_cis = max(1, int(params["cf_cache_mb"] * 1024 * 1024 // self.ksds.cisize))
        drawn = config.coupling_facilities if config is not None else ()
        self.cf = CouplingFacility(eng, cf_cis, trace, drawn[0].name if drawn else "CF")
        regions = params["regions"]
        self.qr = [Resource(eng, 1, f"QR{r}") for r in range(regions)]
        log_vol = _log_volume(config, self.volume.system)
        ring = 12 * 1500         # a 100-cylinder staging data set per stream
        dfhlogs = [LogStream(eng, f"DFHLOG{r}", self.cf, staging=True, volume=log_vol,
                             first_page=r * ring, pages=ring) for r in range(regions)]
        # The forward recovery log: under RLS regions on several images write
        # it, so it must be a CF log stream; one file-owning region (LSR, or
        # one region) can use a DASD-only one. IBM, CICS TS 5.5 Installation,
        # "Coupling facility or DASD-only?",
        # https://www.ibm.com/support/knowledgecenter/SSGMCP_5.5.0/installing/dfha1ko.html:
        # "Because the forward recovery log must be accessible from all the
        # AORs, it must be defined as a coupling facility log stream."
        shared = params["mode"] == "RLS" and regions > 1
        frlog = LogStream(eng, "FWDRECOV", self.cf if shared else None, staging=True,
                          volume=log_vol, first_page=regions * ring, pages=ring)
        self.fc = FileControl(eng, {
            "mode": params["mode"], "log": params["log"], "ksds": self.ksds,
            "volume": self.volume, "cf": self.cf, "systems": regions,
            "buffers": params["buffers"], "dfhlogs": dfhlogs, "frlog": frlog})
        self.fc.for_qr = self.qr[0]  # type: ignore[attr-defined]  # set for FileControl here
        self.stats = TranStats()
        self.progress = progress
        # Report (and look for a cancel) about every 1,500 file requests, so
        # long transactions do not leave a run deaf to Cancel for a minute.
        self._progress_every = max(1, 1536 // params["requests_per_tran"])
        self.total = params["transactions"]
        self._task_cpu = costs.cpu_s(costs.TASK_KI)
        self._tid = 0

    def run(self) -> float:
        """Run every transaction; returns the simulated time in seconds."""
        regions = self.p["regions"]
        base, extra = divmod(self.total, regions)
        for r in range(regions):
            n = base + (1 if r < extra else 0)
            if n:
                self.engine.process(self._arrivals(r, n), f"arrivals{r}")
        self._warm()
        return self.engine.run()

    def _warm(self) -> None:
        """Start the buffers in steady state: replay a sample of requests."""
        fc = self.fc
        wl = self._workload("warmup")
        n = max(1, 3 * self.p["buffers"] // self.p["requests_per_tran"])
        types, recs = wl.chunk(n)
        for pool_d, pool_i in zip(fc.data_pools, fc.index_pools):
            for rec in recs:
                ci = self.ksds.ci_of(rec)
                pool_i.warm(self.ksds.index_path(ci))
                pool_d.load(ci)
            pool_d.reset_counts()
            pool_i.reset_counts()
        if fc.rls:
            self.cf.cache.warm(self.ksds.ci_of(r) for r in recs)
            self.cf.cache.reset_counts()

    def _workload(self, name: str) -> Workload:
        p = self.p
        return Workload(self.engine.np_stream(f"cics.{name}"), p["mix"], p["requests_per_tran"],
                        p["records"], p["key_skew"])

    def _arrivals(self, region: int, n: int):
        rng = self.engine.stream(f"cics.arrivals{region}")
        wl = self._workload(f"requests{region}")
        rate = self.p["tran_rate"]
        per = self.p["requests_per_tran"]
        done = 0
        while done < n:
            k = min(_CHUNK, n - done)
            types, recs = wl.chunk(k)
            for i in range(k):
                yield rng.expovariate(rate)
                ops = list(zip(types[i * per:(i + 1) * per], recs[i * per:(i + 1) * per]))
                self.engine.process(self._transaction(region, ops))
            done += k

    def _transaction(self, region: int, ops: list):
        eng, fc = self.engine, self.fc
        t0 = eng.now
        tcb = None if self.p["threadsafe"] else self.qr[region]
        self._tid += 1
        task = Task(self._tid, region, tcb)
        task.shipped = not fc.rls and region != 0
        if tcb is not None:
            yield tcb
        yield self._task_cpu
        while True:
            for code, rec in ops:
                ok = yield from fc.request(task, code, rec)
                if not ok:
                    break
            else:
                break
            self.stats.retries += 1
            other, task.victim_of = task.victim_of, None
            yield from fc.backout(task)
            yield from task.wait_until_done(other, eng)
        yield from fc.syncpoint(task)
        if tcb is not None:
            tcb.release()
        task.end()
        self._finish(task, eng.now - t0)

    def _finish(self, task: Task, resp: float) -> None:
        s = self.stats
        s.n += 1
        s.resp += resp
        s.reported_wait += task.reported_wait
        s.true_wait += task.true_wait
        s.log_time += task.log_time
        s.lock_time += task.lock_time
        if self.progress is not None and s.n % self._progress_every == 0:
            self.progress(s.n / self.total)
