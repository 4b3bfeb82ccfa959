"""CICS file control for one KSDS under LSR or RLS: the path every file
request takes, its locks, buffers, I/Os, CF requests and log writes.

LSR: one file-owning region (region 0) holds the LSR pool; requests from
other regions are function shipped to it over MRO. Record enqueues (for a
recoverable file, held to syncpoint) and VSAM CI exclusive control (from
READ UPDATE to REWRITE) serialise updates.

RLS: every region's requests go to the SMSVSAM server of its own z/OS image
(one image per region). A local buffer is used when still valid; otherwise the
CI comes from the CF cache structure, else from DASD (and is then written to
the CF cache). Record locks live in the CF lock structure. A write goes to
DASD and to the CF cache, which cross-invalidates other images' copies.

Logging: a recoverable file (LOG(UNDO) or LOG(ALL)) puts a before image in the
DFHLOG buffer when a record is read for update, deleted or added; the system
log is not forced before VSAM writes the CI: CICS's REWRITE processing calls
VSAM to PUT(UPDATE) the record and then, for a recoverable file, writes the
after-image to the forward recovery log, with no system log force between
(IBM, CICS TS 6.x diagnostics, "REWRITE request processing",
https://www.ibm.com/docs/en/SSJL4D_6.x/reference-diagnostics/components/dfhs3c00371.html,
steps 4 and 6). LOG(ALL)'s after image goes to the forward recovery log
stream as part of the request (forced there: Longpela 2020, journaling
"increasing the times of update operations"). Syncpoint forces DFHLOG with
the commit record, and the forward recovery log.
"""
from __future__ import annotations

from models.cics.coupling import LOCK, UNLOCK
from models.cics.task import ADD, BROWSE, DELETE, LOCKING, READ_UPDATE, UPDATE, WRITING, LockTable, release_all
from models.vsam import costs
from models.vsam.buffers import BufferPool


class FileControl:
    """File requests against one KSDS.

    Parameters
    ----------
    engine : Engine
    setup : dict
        ``mode``, ``log``, ``threadsafe``, ``ksds``, ``volume``, ``cf``,
        ``systems`` (regions), ``buffers``, ``dfhlogs`` (one per region),
        ``frlog``.
    """

    def __init__(self, engine, setup: dict):
        self.engine = engine
        self.rls = setup["mode"] == "RLS"
        self.recoverable = setup["log"] != "NONE"
        self.log_all = setup["log"] == "ALL"
        self.ksds = setup["ksds"]
        self.volume = setup["volume"]
        self.cf = setup["cf"]
        self.dfhlogs = setup["dfhlogs"]
        self.frlog = setup["frlog"]
        n_index = sum(self.ksds.index_level_sizes)
        pools = setup["systems"] if self.rls else 1
        self.data_pools = [BufferPool(setup["buffers"], f"data {i}") for i in range(pools)]
        self.index_pools = [BufferPool(n_index, f"index {i}") for i in range(pools)]
        if self.rls:
            self.cf.servers = self.data_pools
        self.enq = LockTable(engine, "CICS record ENQ")
        self.ci_excl = LockTable(engine, "VSAM CI exclusive control")
        table = costs.PATH_REC_KI if self.recoverable else costs.PATH_KI
        self.path_s = [costs.cpu_s(table[t]) for t in
                       ("read", "read_update", "update", "add", "delete", "browse")]
        self.io_cpu_s = costs.cpu_s(costs.VSAM_IO_KI)
        self.next_key = self.ksds.records
        self._paths: dict = {}
        self.count = [0] * 6
        self.time = [0.0] * 6
        self.cf_by_type = [0] * 6
        self.backouts = 0

    # -- the request -------------------------------------------------------
    def request(self, task, code: int, rec: int):
        """Run one file request (a sub-generator); False on a deadlock."""
        t0 = self.engine.now
        cf0 = task.cf_calls
        fresh = not (code == UPDATE and task.pending_ru)
        key, ci = self._target(task, code, rec)
        if self.rls:
            ok = yield from self._rls(task, code, key, ci, fresh)
        elif task.shipped:
            ok = yield from self._shipped(task, code, key, ci, fresh)
        else:
            ok = yield from self._lsr(task, code, key, ci, fresh)
        self.count[code] += 1
        self.time[code] += self.engine.now - t0
        self.cf_by_type[code] += task.cf_calls - cf0
        return ok

    def _target(self, task, code: int, rec: int) -> tuple[int, int]:
        """The record key a request works on and the data CI that holds it."""
        ksds = self.ksds
        if code == UPDATE and task.pending_ru:
            key = task.pending_ru.pop()
            return key, ksds.ci_of(key if key < ksds.records else 0)
        if code == ADD:
            self.next_key += 1
            return self.next_key, ksds.ci_of(rec)
        if code == BROWSE:
            if task.browse_next >= 0:
                rec = task.browse_next
            task.browse_next = (rec + 1) % ksds.records
        return rec, ksds.ci_of(rec)

    # -- LSR -----------------------------------------------------------------
    def _lsr(self, task, code: int, key: int, ci: int, fresh: bool):
        yield self.path_s[code]
        if code in LOCKING:
            if self.recoverable and not (yield from self._local_lock(task, self.enq, key)):
                return False
            if not (yield from self._local_lock(task, self.ci_excl, ci)):
                return False
        yield from self._fetch(task, ci, 0)
        if code in WRITING:
            yield from self._change(task, code, ci, 0, fresh)
            if self.ci_excl.held_by(ci, task):
                self.ci_excl.release(ci, task)
        elif code == READ_UPDATE:
            self._log_before_image(task)
            task.pending_ru.append(key)
        return True

    def _shipped(self, task, code: int, key: int, ci: int, fresh: bool):
        """Function ship to the file-owning region's mirror and back."""
        yield costs.cpu_s(costs.MRO_SHIP_KI)
        own = task.tcb
        if own is not None:
            own.release()
        task.tcb = self.for_tcb(task)
        if task.tcb is not None:
            yield task.tcb
        ok = yield from self._lsr(task, code, key, ci, fresh)
        if task.tcb is not None:
            task.tcb.release()
        task.tcb = own
        if own is not None:
            yield own
        return ok

    def for_tcb(self, task):
        """The TCB a mirror task runs on in the file-owning region."""
        return None if task.home_tcb is None else self.for_qr

    def _local_lock(self, task, table: LockTable, key: int):
        got = table.acquire(key, task)
        if got is None:
            return True
        if got is False:
            return False
        t0 = self.engine.now
        yield from task.wait_for(got)
        dt = self.engine.now - t0
        task.lock_time += dt
        task.reported_wait += dt
        task.true_wait += dt
        return True

    # -- RLS -----------------------------------------------------------------
    def _rls(self, task, code: int, key: int, ci: int, fresh: bool):
        yield self.path_s[code]
        t_s, log0 = self.engine.now, task.log_time
        yield costs.cpu_s(costs.RLS_PATH_KI)
        ok = True
        if code in LOCKING:
            ok = yield from self._cf_lock(task, key)
        if ok:
            yield from self._fetch(task, ci, task.region)
            if code in WRITING:
                yield from self._change(task, code, ci, task.region, fresh)
                if not self.recoverable:
                    task.cf_calls += 1
                    yield self.cf.request(UNLOCK)
                    self.cf.locks.release(key, task)
                    task.cf_locks -= 1
            elif code == READ_UPDATE:
                self._log_before_image(task)
                task.pending_ru.append(key)
        inside = self.engine.now - t_s - (task.log_time - log0)
        task.true_wait += inside
        if task.home_tcb is not None:
            # CICS records RLS wait only for tasks on the QR TCB.
            task.reported_wait += inside
        return ok

    def _cf_lock(self, task, key: int):
        locks = self.cf.locks
        if locks.held_by(key, task):
            return True
        task.cf_calls += 1
        yield self.cf.request(LOCK)
        got = locks.acquire(key, task)
        if got is False:
            return False
        if got is not None:
            t0 = self.engine.now
            yield from task.wait_for(got)
            dt = self.engine.now - t0
            task.lock_time += dt
            self.cf.lock_waited(key, dt)
        task.cf_locks += 1
        return True

    # -- buffers, I/O, changes ----------------------------------------------
    def _fetch(self, task, ci: int, system: int):
        """Walk the index to ``ci``'s sequence-set CI, then get the data CI."""
        path = self._paths.get(ci // self.ksds.loaded_cis_per_ca)
        if path is None:
            path = self._paths[ci // self.ksds.loaded_cis_per_ca] = self.ksds.index_path(ci)
        ipool = self.index_pools[system]
        for ici in path:
            if not ipool.lookup(ici):
                yield from self._miss(task, ici, ipool)
        dpool = self.data_pools[system]
        if not dpool.lookup(ci):
            yield from self._miss(task, ci, dpool)

    def _miss(self, task, ci: int, pool: BufferPool):
        if self.rls:
            hit, t = self.cf.cache_read(ci)
            task.cf_calls += 1
            yield t
            if hit:
                pool.load(ci)
                return
        yield self.io_cpu_s
        yield from self._dasd(task, self.volume.read(ci))
        if self.rls:
            task.cf_calls += 1
            yield self.cf.cache_write(ci, None)
        pool.load(ci)

    def _dasd(self, task, io):
        """Run an I/O with the task off its TCB (CICS FCIOWAIT)."""
        tcb = task.tcb
        t0 = self.engine.now
        if tcb is not None:
            tcb.release()
        yield from io
        if not self.rls:
            dt = self.engine.now - t0
            task.reported_wait += dt
            task.true_wait += dt
        if tcb is not None:
            yield tcb

    def _change(self, task, code: int, ci: int, system: int, fresh: bool):
        """Log the before image, write the CI (and its split), update the CF,
        write the after image to the forward recovery log."""
        ksds = self.ksds
        if code != UPDATE or fresh:
            # DELETE and WRITE log their own undo record; a REWRITE logs one
            # only when it had no READ UPDATE of its own in this transaction.
            # Buffered only: the commit's force at syncpoint hardens it.
            self._log_before_image(task)
        extra = ksds.insert(ci) if code == ADD else 0
        if code == DELETE:
            ksds.delete(ci)
        yield self.io_cpu_s
        yield from self._dasd(task, self.volume.write(ci, 1 + extra))
        if self.rls:
            task.cf_calls += 1
            yield self.cf.cache_write(ci, self.data_pools[system])
        if self.log_all:
            # The after image goes to the forward recovery log stream as part
            # of the request (autojournal-style synchronous write): update
            # operations get slower with journaling (Longpela 2020).
            task.fr_seq = self.frlog.put()
            yield from self.frlog.force(task, task.fr_seq)
        task.updated = True

    def _log_before_image(self, task) -> None:
        if self.recoverable:
            task.log_seq = self.dfhlog(task).put()

    def dfhlog(self, task):
        """The system log the unit of work writes to (the FOR's under LSR)."""
        return self.dfhlogs[task.region if self.rls else 0]

    # -- syncpoint and backout ------------------------------------------------
    def syncpoint(self, task):
        """Commit: log the commit, force the logs, release every lock."""
        if task.updated:
            yield costs.cpu_s(costs.SYNCPOINT_KI)
            if task.shipped:
                yield costs.cpu_s(costs.MRO_SHIP_KI)
            if self.recoverable:
                log = self.dfhlog(task)
                yield from log.force(task, log.put())
            if self.log_all:
                yield from self.frlog.force(task, task.fr_seq)
        yield from self._unlock_all(task)

    def backout(self, task):
        """A deadlock victim: back the unit of work out and free its locks."""
        self.backouts += 1
        yield costs.cpu_s(costs.SYNCPOINT_KI)
        yield from self._unlock_all(task)
        task.updated = False
        task.browse_next = -1

    def _unlock_all(self, task):
        if task.cf_locks:
            task.cf_calls += 1
            yield self.cf.request(UNLOCK)
            task.cf_locks = 0
        release_all(task)
