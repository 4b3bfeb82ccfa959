"""Shared helpers for the I/O subsystem tests."""


def run_requests(sub, requests, streams=1):
    """Issue the requests (lists of groups) from ``streams`` processes; returns results."""
    out = []
    queue = list(requests)

    def proc():
        while queue:
            out.append((yield from sub.read(queue.pop(0))))

    for _ in range(streams):
        sub.engine.process(proc())
    sub.engine.run()
    return out
