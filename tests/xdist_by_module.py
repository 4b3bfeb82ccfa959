"""The test suite's pytest-xdist scheduler: a test module runs whole on one worker.

Like xdist's ``loadfile`` (module fixtures are set up once), with two
changes of our own: the modules in ``CASE_RUNS_READERS`` run on one worker
together (they share the session fixture ``case_runs``), and ``SLOW_FIRST``
start first so that they do not run alone at the end while the other
worker waits.

It also mends how xdist 3.8's ``LoadScopeScheduling`` (which this builds on)
recovers from a worker that crashed (a segfault in Qt, an out-of-memory
kill): there, the suite hung until CI's time ran out (pytest-xdist issues
1323, 1327 and 1378). A crashed worker's finished modules went back on the
queue and were sent to the next worker as empty work that never completes;
the test it crashed on was sent again; and a replacement worker given one
test waited for ever for a second before running it. Here the test that
crashed is reported failed once (xdist does that) and not re-run, only
unfinished modules are queued again, and a worker is never left holding a
single test with more work to come or no shutdown.
"""
from __future__ import annotations

CASE_RUNS_READERS = ("ui/test_consistency_cases.py", "ui/test_names_cases.py")
SLOW_FIRST = ("app/test_packaging_bundle.py", "case_runs")


def make_scheduler(config, log):
    """The scheduler object for ``pytest_xdist_make_scheduler``."""
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False

    class ByModule(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            path = nodeid.split("::", 1)[0]
            return "case_runs" if path.endswith(CASE_RUNS_READERS) else path

        def _assign_work_unit(self, node):
            slow = [scope for scope in self.workqueue if scope.endswith(SLOW_FIRST)]
            for scope in reversed(slow):
                self.workqueue.move_to_end(scope, last=False)
            try:
                super()._assign_work_unit(node)
            except OSError:
                # The worker died after its last report and before this send
                # (execnet: "cannot send (already closed?)"). The unit stays
                # recorded as the node's: remove_node, which xdist calls once
                # it sees the crash, queues it again. (Uncaught, it ended the
                # whole run with an INTERNALERROR.)
                pass

        def _reschedule(self, node):
            if node.shutting_down:
                return
            if not self.workqueue:
                node.shutdown()
                return
            # xdist's rule: one more module once at most 2 tests are left ...
            if self._pending_of(self.assigned_work[node]) <= 2:
                self._assign_work_unit(node)
            # ... and as a worker runs a test only once it holds the next one
            # (or the word to stop), never leave it with one test and no more.
            while self.workqueue and self._pending_of(self.assigned_work[node]) < 2:
                self._assign_work_unit(node)
            if not self.workqueue:
                node.shutdown()

        def remove_node(self, node):
            workload = self.assigned_work.pop(node)
            unfinished = {scope: unit for scope, unit in workload.items()
                          if not all(unit.values())}
            if not unfinished:
                return None
            crashed = next(nodeid for unit in unfinished.values()
                           for nodeid, done in unit.items() if not done)
            for scope, unit in unfinished.items():
                unit.pop(crashed, None)           # reported failed by xdist; not again
                if unit and not all(unit.values()):
                    self.workqueue[scope] = {n: False for n, done in unit.items() if not done}
            for other in self.assigned_work:
                self._reschedule(other)
            return crashed

    return ByModule(config, log)
