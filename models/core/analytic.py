"""Analytic estimates beside the simulation: the utilisation law and open queues.

For every server a run reports (a channel path, a volume, a RAID rank, a
processor) the caller gives a :class:`Station`: its throughput ``X`` (what
it completed per second, counted by the workloads), its service time ``S``
per visit (computed independently of what the server itself recorded
where the model allows: the channel work from the published per-IU costs,
a drive access from the drive's data sheet, a transaction's CPU from its
parameters), its number of servers and the simulated figures.

* **Utilisation law** (operational analysis, Denning & Buzen 1978):
  ``U = X · S / c``. It holds for any system in steady state, so the
  simulated utilisation must agree with it: a disagreement is a bug in the
  counters or a service time that is not what the model says
  (tests/models/test_analytic.py checks it).
* **Open queue**: M/M/c (Erlang C) response ``R = S + C(c, a) · S /
  (c − a)`` with ``a = X · S``; M/M/1 when ``c = 1``. It assumes Poisson
  arrivals, exponential service times and an unlimited population, so
  where the simulated response differs the table says which assumption
  the run breaks: **burstiness** (arrivals in batches: prestage, destage,
  sequential streams), a **closed population** (users wait for their own
  I/O, so the queue cannot grow as an open one would) or **caching**
  (hits and misses make service times far more variable than exponential:
  squared coefficient of variation CV² ≫ 1; or nearly constant, CV² ≪ 1).

Pure Python: no Qt, no numpy needed.
"""
from __future__ import annotations

from dataclasses import dataclass

from models.core.run import Table

#: Relative difference between simulated and estimated response beyond which
#: the table gives a reason.
TOLERANCE = 0.15


@dataclass(frozen=True)
class Station:
    """One server (or group of ``servers`` identical servers) of a run.

    Parameters
    ----------
    name : str
        Canvas label.
    kind : str
        ``channel``, ``volume``, ``rank`` or ``processor``.
    throughput : float
        Completions per second (X).
    service_s : float
        Mean service time per completion (S), seconds.
    servers : int
        Servers sharing the queue (c): a volume's 1 + aliases, a rank's
        drives, a processor pool's engines.
    sim_util : float
        Simulated utilisation (0–1) per server.
    sim_resp_s : float or None
        Simulated response time (queue + service), when the run measures one.
    cv2 : float or None
        Squared coefficient of variation of the service time, if measured.
    closed : bool
        Fed by a closed population (users with think time).
    bursty : bool
        Its arrivals come in batches (sequential prestage, destage, streams).
    util_service_s : float or None
        Service time the utilisation law uses when it is not the queue's
        (a volume is busy for DISC + CONN, RMF's definition, but holds an
        exposure from PEND on).
    measured_s : float or None
        The service time the run measured (busy / completions), shown when
        it differs from ``service_s`` taken from a data sheet.
    path_resp_s : float or None
        For a request that passes several stations in turn (a transaction's
        general then eligible part): its estimated response, the sum of
        theirs. The row then has no utilisation of its own.
    """

    name: str
    kind: str
    throughput: float
    service_s: float
    servers: int = 1
    sim_util: float = 0.0
    sim_resp_s: float | None = None
    cv2: float | None = None
    closed: bool = False
    bursty: bool = False
    util_service_s: float | None = None
    measured_s: float | None = None
    path_resp_s: float | None = None


@dataclass(frozen=True)
class Estimate:
    """The analytic figures of one :class:`Station`."""

    station: Station
    util: float                  # utilisation law, per server
    resp_s: float | None         # M/M/c response; None when saturated (U ≥ 1)
    reason: str                  # why simulated and estimated responses differ ("" if they agree)


def erlang_c(c: int, a: float) -> float:
    """Probability that an arrival waits in an M/M/c queue with offered load
    ``a = λ·S`` erlangs (``a < c``); 1 when saturated."""
    if a <= 0:
        return 0.0
    if a >= c:
        return 1.0
    # Summed in a numerically stable way (terms a^k/k! built up one by one).
    term, total = 1.0, 1.0
    for k in range(1, c):
        term *= a / k
        total += term
    last = term * a / c * (c / (c - a))
    return last / (total + last)


def mmc_response(throughput: float, service_s: float, servers: int) -> float | None:
    """Mean response time (wait + service) of an M/M/c queue; ``None`` if
    the offered load reaches the servers (no steady state)."""
    a = throughput * service_s
    c = max(1, servers)
    if a >= c:
        return None
    return service_s + erlang_c(c, a) * service_s / (c - a)


def estimate(st: Station) -> Estimate:
    """The utilisation law and M/M/c response for ``st``, with a reason
    where the simulated response differs by more than :data:`TOLERANCE`."""
    if st.path_resp_s is not None:
        return Estimate(st, 0.0, st.path_resp_s, _reason(st, 0.0, st.path_resp_s))
    c = max(1, st.servers)
    util = st.throughput * (st.service_s if st.util_service_s is None else st.util_service_s) / c
    resp = mmc_response(st.throughput, st.service_s, c)
    return Estimate(st, util, resp, _reason(st, util, resp))


def _reason(st: Station, util: float, resp: float | None) -> str:
    if st.measured_s is not None and st.service_s > 0 and \
            abs(st.measured_s - st.service_s) > TOLERANCE * st.service_s:
        return (f"an access took {st.measured_s * 1e3:.2f} ms on average, not the data "
                f"sheet's {st.service_s * 1e3:.2f} ms random read: " +
                ("destages (read old data and parity, write a turn later) and whole-track "
                 "stages take longer" if st.measured_s > st.service_s else
                 "streamed sequential reads and short seeks take less"))
    if st.sim_resp_s is None or st.throughput <= 0:
        return ""
    if resp is None:
        return "saturated: the offered load reaches the servers, an open queue grows without " \
               "bound; the simulated queue is bounded by the run length" + \
               (" and the population" if st.closed else "")
    diff = (st.sim_resp_s - resp) / resp if resp > 0 else 0.0
    if abs(diff) <= TOLERANCE:
        return ""
    why = []
    if st.closed and diff < 0:
        why.append("closed population: users wait for their own I/O, so fewer "
                   "queue than an open model assumes")
    if st.cv2 is not None and st.cv2 > 1.5:
        why.append(f"caching: hits and misses make service times very variable "
                   f"(CV² = {st.cv2:.1f}; M/M/c assumes 1), so waits are longer")
    elif st.cv2 is not None and st.cv2 < 0.5 and diff < 0:
        why.append(f"nearly constant service times (CV² = {st.cv2:.2f}): waits are "
                   "shorter than exponential service gives")
    if st.bursty:
        why.append("burstiness: work arrives in batches (sequential streams, "
                   "prestage, destage), not as independent arrivals")
    if not why:
        why.append("service times are not exponential and arrivals at this server "
                   "are not independent" if util > 0.3 else
                   "light load: the difference is in the service time itself "
                   "(protocol steps the single-server model does not see)")
    return ("simulated " + ("higher" if diff > 0 else "lower") +
            f" by {abs(diff):.0%}: " + "; ".join(why))


def table(estimates: list[Estimate]) -> Table:
    """The report table: the simulated figures beside the analytic ones."""
    rows = []
    for e in estimates:
        st = e.station
        path = st.path_resp_s is not None
        rows.append((st.name, st.kind, round(st.throughput, 1),
                     "—" if path else round(st.service_s * 1e3, 4), "—" if path else st.servers,
                     "—" if path else round(100 * st.sim_util, 1),
                     "—" if path else round(100 * e.util, 1),
                     "—" if st.sim_resp_s is None else round(st.sim_resp_s * 1e3, 4),
                     "saturated" if e.resp_s is None else round(e.resp_s * 1e3, 4),
                     e.reason or ("agrees" if st.sim_resp_s is not None else "")))
    return Table(
        "Analytic estimate beside the simulation",
        ("component", "kind", "X /s", "S ms", "servers", "sim util %", "U = X·S %",
         "sim resp ms", "M/M/c resp ms", "why they differ"),
        tuple(rows),
        note="Utilisation law U = X·S/c (must agree with the simulation); M/M/c open-queue "
             "response R = S + C(c,a)·S/(c−a). Channel S: the programs' work at the "
             "published per-IU cost; rank S: one random drive access from the data sheet; "
             "processor S: CPU per transaction.")

