"""How long an imported system runs: long enough for its quietest workload.

A workload's figures are means over the requests it made. A drawn group that
does 2 I/Os a second makes 4 requests in the workloads' default 2 s, and its
rate alone is then off by up to 90 % from Poisson noise (a count of N has a
relative standard error of 1/sqrt(N)). :func:`choose` picks the run length
(each workload's ``duration_s``, on its card) from the measured rates so that
the least busy drawn group with I/O makes about :data:`TARGET_REQUESTS`,
never shorter than the default, at most :data:`MAX_RUN_S` simulated and
:data:`MAX_REQUESTS` requests in all (the run stays a few seconds long).
Qt-free; docs/rmf-drawing.md.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from models.workloads.params import BY_NAME

#: Requests the least busy drawn group should make: its mean rate then has
#: a standard deviation of about 2 % (1/sqrt(2000)) of what it was fitted to.
TARGET_REQUESTS = 2000
#: The shortest run: the workloads' default run length.
MIN_RUN_S = float(BY_NAME["duration_s"].default)
#: The longest run chosen: one simulated hour (the parameter's maximum).
MAX_RUN_S = 3600.0
#: Requests (I/Os and CPU transactions) of all workloads together at most:
#: about 2 s of the simulator's time (some 15 µs a request).
MAX_REQUESTS = 100_000


@dataclass(frozen=True)
class RunLength:
    """The chosen run length and what it gives the quietest group."""

    seconds: float
    quietest: str            # that group's label ("" when there is none)
    rate: float              # its I/O per second
    capped: str = ""         # which cap shortened the run, if one did

    @property
    def requests(self) -> int:
        """Requests the quietest group makes in the run."""
        return round(self.rate * self.seconds)

    def why(self, interval_s: float | None) -> str:
        """The assumption line's reason."""
        length = f"{interval_s:g} s" if interval_s else "not given"
        if not self.quietest:
            return f"the workloads' default; the interval was {length}"
        got = (f"the least busy drawn group, {self.quietest} at {self.rate:g} I/O per "
               f"second, makes about {self.requests:,} requests")
        if self.capped:
            got += f" ({self.capped})"
        elif self.seconds > MIN_RUN_S:
            got += (f": at least {TARGET_REQUESTS:,}, so that its mean rate is not Poisson "
                    f"noise (±{100 / math.sqrt(TARGET_REQUESTS):.0f} %, one standard "
                    "deviation)")
        return (f"{got}; the figures are rates, and the interval was {length}; "
                "change Run length on the workload cards to run longer or shorter")


def choose(rates: dict[str, float], other_rate: float = 0.0) -> RunLength:
    """The run length of an imported drawing (module docstring).

    Parameters
    ----------
    rates : dict
        Each drawn group's workload I/O per second, by label (groups without
        a workload left out).
    other_rate : float
        Requests per second of the other workloads (the CPU workload's
        transactions), which count against :data:`MAX_REQUESTS`.

    Returns
    -------
    RunLength
        Whole seconds, at least :data:`MIN_RUN_S`.
    """
    busy = {k: r for k, r in rates.items() if r > 0}
    if not busy:
        return RunLength(MIN_RUN_S, "", 0.0)
    label = min(busy, key=busy.get)
    rate = busy[label]
    total = sum(busy.values()) + max(0.0, other_rate)
    want = TARGET_REQUESTS / rate
    caps = [(MAX_RUN_S, f"at most {MAX_RUN_S:g} s simulated"),
            (MAX_REQUESTS / total, f"at most {MAX_REQUESTS:,} requests in all, "
                                   "to keep the run a few seconds long")]
    top, capped = min(caps)
    if want <= top:
        return RunLength(max(MIN_RUN_S, float(math.ceil(want))), label, rate)
    if top < MIN_RUN_S:
        return RunLength(MIN_RUN_S, label, rate, "the workloads' default, the shortest run")
    return RunLength(float(math.floor(top)), label, rate, capped)
