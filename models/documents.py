"""Scenario documents: the versioned JSON form of a scenario, and the case studies.

A document is ``{"format": "zperflab-scenario", "version": 2, ...}`` with the
fields of :meth:`models.scenario.Scenario.to_dict` (docs/scenario-format.md).
:func:`from_document` checks it, migrates an older version and builds the
scenario, or raises :class:`ScenarioFileError` with one line. Reading and
writing files is the app's (``app.scenario_io``); this module is pure data
so that every run — GUI, ``zperflab run``, ``sweep`` and ``validate`` —
starts from the same drawing.

Version 2 made the canvas the configuration. Migrating a version 1
document makes what version 1 simulated without drawing it visible:

* a ``RAID rank`` used as a volume becomes a volume (native 3390 for the
  spool case studies, whose model reads native 3390s);
* hardware counts stored as properties (``tape_drives``, ``spool_volumes``,
  ``gcps``, ``ziips``) become that many components;
* DB2 volumes get the two HyperPAV aliases version 1 gave them unseen;
* the spool case studies get their checkpoint volume, the RLS case study
  its coupling facility.
"""
from __future__ import annotations

import copy
import functools
import json
from typing import Any

from models.resources import SCENARIOS
from models.scenario import Scenario, ScenarioError

FORMAT = "zperflab-scenario"
#: Version written by this code; files with a higher number are refused.
VERSION = 2


class ScenarioFileError(Exception):
    """A scenario document or file that cannot be used. ``str()`` is one line."""


def to_document(scenario: Scenario) -> dict:
    """The JSON object written to a file."""
    return {"format": FORMAT, "version": VERSION, **scenario.to_dict()}


def from_document(doc: object, where: str = "the file", notes: list | None = None) -> Scenario:
    """Check the format and version, migrate, then build the scenario.

    Parameters
    ----------
    doc : object
        Parsed JSON.
    where : str
        How messages name the document ("db2.zpl.json").
    notes : list or None
        Receives one line per migration step taken (for the user).

    Raises
    ------
    ScenarioFileError
        Not a scenario, a newer version, or bad content.
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ScenarioFileError(f"{where} is not a zPerfLab scenario (no \"format\": \"{FORMAT}\")")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ScenarioFileError(f"{where} has a bad version number: {version!r}")
    if version > VERSION:
        raise ScenarioFileError(
            f"{where} was written by a newer zPerfLab (format version {version}; "
            f"this one reads up to {VERSION}): update zPerfLab to open it")
    body = {k: v for k, v in doc.items() if k not in ("format", "version")}
    steps: list[str] = []
    try:
        if version == 1:
            body = _migrate_v1(copy.deepcopy(body), steps)
        sc = Scenario.from_dict(body)
        if version == 1:
            _migrate_v1_counts(sc, body, steps)
    except (ScenarioError, KeyError) as exc:
        raise ScenarioFileError(f"{where}: {exc}") from None
    if steps and notes is not None:
        notes.append(f"{where} was written by an older zPerfLab (format version 1) and "
                     "has been brought up to date: " + "; ".join(steps) + ". Save to keep it.")
    return sc


# ---- version 1 -> 2 -------------------------------------------------------------
_SPOOL = ("spool_dump", "spool_load")
_DB2 = ("db2_io", "db2_skip_sequential", "db2_runstats_sampling", "db2_index_scan")
_COUNTS = ("tape_drives", "spool_volumes", "gcps", "ziips")


def _migrate_v1(body: dict, steps: list) -> dict:
    """Kinds and properties of a version 1 body, before it is built."""
    nodes = body.get("nodes") if isinstance(body.get("nodes"), list) else []
    links = body.get("links") if isinstance(body.get("links"), list) else []
    exp = body.get("experiment")
    kinds = {n.get("id"): n.get("kind") for n in nodes if isinstance(n, dict)}
    linked: dict = {}
    for ln in links:
        if isinstance(ln, dict):
            for a, b in ((ln.get("source"), ln.get("target")), (ln.get("target"), ln.get("source"))):
                linked.setdefault(a, []).append(kinds.get(b))
    for n in nodes:
        if not isinstance(n, dict):
            continue
        if n.get("kind") == "vol_raid" and any(
                isinstance(k, str) and (k.startswith("ds_") or k.startswith("cu_"))
                for k in linked.get(n.get("id"), ())):
            dev = n.get("properties", {}).get("device") if isinstance(n.get("properties"), dict) else None
            n["kind"] = ("vol_3390" if exp in _SPOOL else
                         {"HDD10K": "vol_hdd10k", "SSD": "vol_ssd"}.get(dev, "vol_hdd15k"))
            steps.append(f"{n.get('label')} is now a {'native 3390' if exp in _SPOOL else 'volume'}"
                         " (version 1 drew it as a RAID rank)")
        props = n.get("properties")
        if isinstance(props, dict):
            for key in ("device", "protocol"):
                props.pop(key, None)          # the kind says it
        if exp in _DB2 and str(n.get("kind", "")).startswith("vol_") and isinstance(props, dict):
            if "aliases" not in props:
                props["aliases"] = 2
                steps.append(f"{n.get('label')} shows the 2 HyperPAV aliases version 1 "
                             "simulated without drawing them")
    return body


def _migrate_v1_counts(sc: Scenario, body: dict, steps: list) -> None:
    """Counts stored as properties become that many components."""
    from models import hardware

    if sc.experiment is None:
        return
    wanted: dict = {}
    for n in list(sc.nodes.values()):
        for key in _COUNTS:
            if key in n.properties:
                wanted[key] = n.properties.pop(key)
    if sc.experiment in _SPOOL and not any(n.kind == "ds_spool_ckpt" for n in sc.nodes.values()):
        _add_checkpoint(sc)
        steps.append("the spool checkpoint volume SPCKPT is drawn (version 1 simulated it unseen)")
    if sc.experiment == "vsam_rls" and not sc.of_category("coupling"):
        _add_coupling_facility(sc)
        steps.append("the coupling facility CF01 that RLS uses is drawn (version 1 simulated "
                     "it unseen)")
    for key, value in wanted.items():
        try:
            hardware.apply(sc, {key: value})
        except Exception as exc:  # noqa: BLE001 - reported as a migration step
            steps.append(f"{key}={value!r} could not be drawn ({exc})")
        else:
            steps.append(f"{key}={value} is now drawn as components")


def _add_coupling_facility(sc: Scenario) -> None:
    from models.scenario import Link, Node

    cps = [n for n in sc.of_category("processor") if n.kind == "cpu_cp"]
    y = max((n.y for n in sc.nodes.values()), default=0.0) + 140.0
    cf = sc.add_node(Node(sc.new_id("n"), "cf_icf", "CF01", 0.0, y, {}))
    if cps:
        sc.add_link(Link(sc.new_id("l"), cps[0].id, cf.id))


def _add_checkpoint(sc: Scenario) -> None:
    from models.scenario import Link, Node

    cus = sc.of_category("control_unit")
    work = sc.of_category("workload")
    x = max((n.x for n in sc.nodes.values()), default=0.0) + 160.0
    vol = sc.add_node(Node(sc.new_id("n"), "vol_3390", "SPCKPT", x, 0.0, {}))
    ds = sc.add_node(Node(sc.new_id("n"), "ds_spool_ckpt", "Checkpoint", x, -140.0, {}))
    sc.add_link(Link(sc.new_id("l"), ds.id, vol.id))
    if cus:
        sc.add_link(Link(sc.new_id("l"), vol.id, cus[0].id))
    if work:
        sc.add_link(Link(sc.new_id("l"), work[0].id, ds.id))


# ---- case studies ---------------------------------------------------------------
def case_names(registered) -> list[str]:
    """Of the experiment names ``registered``, those with a built-in case study."""
    return [n for n in registered if (SCENARIOS / f"{n}.json").exists()]


@functools.lru_cache(maxsize=None)
def _case_text(name: str) -> str:
    return (SCENARIOS / f"{name}.json").read_text(encoding="utf-8")


def load_case(name: str) -> Scenario:
    """A fresh copy of the built-in case study of experiment ``name``.

    Raises
    ------
    ScenarioFileError
        No such case study, or a damaged one.
    """
    if not isinstance(name, str) or not (SCENARIOS / f"{name}.json").exists():
        raise ScenarioFileError(f"no built-in case study called {name!r}")
    try:
        doc: Any = json.loads(_case_text(name))
    except (OSError, ValueError) as exc:
        raise ScenarioFileError(f"the built-in case study '{name}' cannot be read: {exc}") from None
    return from_document(doc, f"case study '{name}'")
