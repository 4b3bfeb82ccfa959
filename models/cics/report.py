"""Metrics and CICS/RMF-style report tables of a :class:`~models.cics.region.Sysplex` run."""
from __future__ import annotations

from models.cics.coupling import CF_REQUESTS
from models.cics.task import REQUEST_TYPES
from models.core.run import Table


def metrics(sp) -> dict:
    """The ``vsam_rls`` metrics (and a few extras that explain them)."""
    fc, s, cf = sp.fc, sp.stats, sp.cf
    n_req = sum(fc.count)
    n = max(1, s.n)
    pools = fc.data_pools
    hits = sum(p.hits for p in pools)
    looks = hits + sum(p.misses for p in pools)
    return {
        "file_resp_ms": 1000.0 * sum(fc.time) / max(1, n_req),
        "tran_resp_ms": 1000.0 * s.resp / n,
        "file_wait_ms": 1000.0 * s.reported_wait / n,
        "cf_requests": float(cf.requests),
        "file_wait_true_ms": 1000.0 * s.true_wait / n,
        "log_ms": 1000.0 * s.log_time / n,
        "lock_wait_ms": 1000.0 * s.lock_time / n,
        "cf_requests_per_tran": cf.requests / n,
        "buffer_hit_pct": 100.0 * hits / looks if looks else 0.0,
        "dasd_ios_per_tran": (sp.volume.reads + sp.volume.writes) / n,
        "deadlock_retries": float(s.retries),
    }


def tables(sp) -> tuple[Table, ...]:
    """File statistics, CF activity and a transaction summary."""
    return (_file_table(sp), _cf_table(sp), _summary_table(sp))


def _file_table(sp) -> Table:
    fc = sp.fc
    rows = []
    for code, name in enumerate(REQUEST_TYPES):
        n = fc.count[code]
        if n:
            rows.append((name, n, round(1e6 * fc.time[code] / n, 1),
                         round(fc.cf_by_type[code] / n, 2)))
    pools = fc.data_pools
    hits = sum(p.hits for p in pools)
    looks = hits + sum(p.misses for p in pools)
    note = (f"{sp.p['mode']} data buffer hit ratio {100.0 * hits / max(1, looks):.1f}%, "
            f"{sp.volume.reads} DASD reads ({sp.volume.read_misses} CU cache misses), "
            f"{sp.volume.writes} CI writes, {sp.ksds.ci_splits} CI splits, "
            f"{sp.ksds.ca_splits} CA splits, index levels {sp.ksds.index_levels}.")
    return Table("CICS file statistics (per request type)",
                 ("request", "count", "mean service µs", "CF requests each"),
                 tuple(rows), note)


def _cf_table(sp) -> Table:
    cf = sp.cf
    rows = tuple((name, cf.count[i], round(cf.busy_us[i] / cf.count[i], 1) if cf.count[i] else 0.0,
                  round(cf.busy_us[i] / 1000.0, 2))
                 for i, name in enumerate(CF_REQUESTS))
    locks = cf.locks
    cache = cf.cache
    note = (f"Lock structure: {locks.requests} lock requests, {locks.contentions} contended, "
            f"{locks.deadlocks} deadlocks. Cache structure: {cache.hits} read hits, "
            f"{cache.misses} misses, {cf.xi} cross-invalidations of local buffers. "
            "Synchronous requests: the issuing CPU spins for the service time.")
    return Table("Coupling facility activity (RMF CF style)",
                 ("request", "count", "sync µs each", "total ms"), rows, note)


def _summary_table(sp) -> Table:
    m = metrics(sp)
    fc = sp.fc
    other = m["tran_resp_ms"] - m["log_ms"]
    rows = (("transactions", sp.stats.n),
            ("transaction response ms", round(m["tran_resp_ms"], 4)),
            ("  of which log writes ms", round(m["log_ms"], 4)),
            ("  of which lock waits ms", round(m["lock_wait_ms"], 4)),
            ("  everything else ms", round(other - m["lock_wait_ms"], 4)),
            ("file wait reported by CICS ms", round(m["file_wait_ms"], 4)),
            ("file wait actually spent ms", round(m["file_wait_true_ms"], 4)),
            ("CICS ENQ / CI exclusive control waits", fc.enq.contentions + fc.ci_excl.contentions),
            ("deadlocks backed out and retried", sp.stats.retries))
    note = ("Threadsafe tasks: CICS records no RLS file wait for them, so the reported "
            "file wait is lower than the time actually spent." if sp.p["threadsafe"] and fc.rls
            else "")
    return Table("Transaction summary", ("item", "value"), rows, note)
