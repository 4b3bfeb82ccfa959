"""Scenario documents: the versioned JSON form of a scenario, and the case studies.

A document is ``{"format": "zperflab-scenario", "version": 2, ...}`` with the
fields of :meth:`models.drawing.scenario.Scenario.to_dict` (docs/scenario-format.md).
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
  its coupling facility and its log staging volume.

Input is checked at the edge, before the model sees it
(:func:`read_json_file`, :func:`parse_json`, :func:`check_schema`): files are
read only if they are regular files and at most :data:`MAX_FILE_BYTES`;
JSON with NaN or Infinity, numbers out of float range, nesting deeper than
:data:`MAX_DEPTH` or text with a lone surrogate is refused; and the
document must match its published JSON Schema (``resources/schema``). Each
failure is one line.
"""
from __future__ import annotations

import copy
import functools
import json
import math
import os
import stat
from typing import Any

from models.core.params import shorten, show_value
from models.core.resources import SCENARIOS, SCHEMAS
from models.drawing import hardware
from models.drawing.elements import Link, Node
from models.drawing.scenario import Scenario, ScenarioError

FORMAT = "zperflab-scenario"
#: Version written by this code; files with a higher number are refused.
VERSION = 2


class ScenarioFileError(Exception):
    """A scenario document or file that cannot be used. ``str()`` is one line."""


class InputError(ValueError):
    """A file or document refused at the edge. ``str()`` is one line."""


#: Largest scenario or targets file read (a 1,000-component scenario is ~200 kB).
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Deepest nesting of arrays and objects accepted in a document.
MAX_DEPTH = 32


def read_json_file(path: str | os.PathLike, what: str = "file",
                   limit: int | None = None) -> Any:
    """Read and parse a JSON file: a regular file of at most ``limit`` bytes.

    Raises
    ------
    OSError
        The file cannot be opened or read.
    InputError
        Not a regular file (a FIFO, a device, a folder), larger than
        ``limit`` bytes (default :data:`MAX_FILE_BYTES`), not
        UTF-8 or not acceptable JSON (:func:`parse_json`).
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{shorten(os.fspath(path))} is not a regular file")
        if info.st_size > limit:
            raise InputError(f"{shorten(os.fspath(path))} is too large for a {what} "
                             f"({info.st_size:,} bytes; at most {limit:,})")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise InputError(f"{shorten(os.fspath(path))} is too large for a {what} (over {limit:,} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{shorten(os.fspath(path))} is not UTF-8 text (byte {exc.start})") from None
    return parse_json(text)


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {shorten(text, 40)} is out of range")
    return value


def parse_json(text: str) -> Any:
    """Strict JSON: no NaN/Infinity, finite numbers, bounded depth, real text.

    Raises
    ------
    InputError
        The text is not such JSON. The message says where and why.
    """
    try:
        doc = json.loads(text, parse_constant=_constant, parse_float=_float)
    except RecursionError:
        raise InputError(f"is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise InputError(f"is not valid JSON (corrupt file?): {shorten(str(exc), 160)}") from None
    _check_tree(doc)
    return doc


def _check_tree(doc: Any) -> None:
    """Depth and lone surrogates, without recursion."""
    stack = [(doc, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise InputError(f"is nested more than {MAX_DEPTH} levels deep")
            values = item.values() if isinstance(item, dict) else item
            stack.extend((v, depth + 1) for v in values)
            if isinstance(item, dict):
                stack.extend((k, depth) for k in item)
        elif isinstance(item, str) and not item.isascii():
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError(f"holds the text {shorten(item, 40)!r} with a lone surrogate "
                                 "escape, which is not a character (damaged file?)") from None


@functools.lru_cache(maxsize=None)
def _validator(name: str):
    import jsonschema

    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def check_schema(doc: Any, name: str, where: str) -> None:
    """Check ``doc`` against ``resources/schema/<name>.schema.json``.

    Raises
    ------
    InputError
        One line: the ``errorMessage`` of the innermost failing part that
        has one, with ``{where}``, ``{value}`` (that part, shortened),
        ``{index}`` (the list position, from 1) and ``{problem}`` (the
        ``problem`` of the innermost part that has one) filled in; else the
        schema library's message with the location.
    """
    import jsonschema

    validator = _validator(name)
    error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if error is None:
        return
    # The innermost part of the schema, on the way to the failure, that has
    # a message of ours; the value shown is the document part it describes.
    parts = _schemas_along(validator.schema, list(error.absolute_schema_path))
    problems = [p["problem"] for _, p in parts if isinstance(p, dict) and "problem" in p]
    problem = problems[-1] if problems else shorten(error.message, 120)
    for depth, part in reversed(parts):
        template = part.get("errorMessage") if isinstance(part, dict) else None
        if template:
            path = list(error.absolute_path)[:depth]
            value: Any = doc
            for key in path:
                value = value[key]
            index = next((p + 1 for p in path if isinstance(p, int)), "?")
            raise InputError(template.format(where=where, value=show_value(value), index=index,
                                             problem=problem))
    at = "/".join(map(str, error.absolute_path)) or "the top level"
    raise InputError(f"{where}: at {at}: {shorten(error.message, 160)}")


def _schemas_along(root: dict, schema_path: list) -> list[tuple[int, Any]]:
    """Each subschema passed on ``schema_path`` (local ``$ref`` followed),
    with how many document levels deep it applies."""
    out, node, depth = [(0, root)], root, 0
    keys = iter(schema_path)
    for key in keys:
        while isinstance(node, dict) and "$ref" in node and key not in node:
            node = _resolve(root, node["$ref"])
            out.append((depth, node))
        if not isinstance(node, dict) or key not in node:
            break
        if key in ("properties", "patternProperties"):
            node = node[key].get(next(keys, None))
            depth += 1
        elif key in ("items", "additionalProperties"):
            node = node[key]
            depth += 1
        elif key in ("anyOf", "oneOf", "allOf"):
            index = next(keys, None)
            if index is None:
                break
            node = node[key][index]
        else:
            break
        out.append((depth, node))
    return out


def _resolve(root: dict, ref: str) -> Any:
    """A local ``$ref`` (``#/$defs/node``) of ``root``."""
    node: Any = root
    for key in ref.lstrip("#").split("/"):
        if key:
            node = node[key]
    return node


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
        Not a scenario, a newer version, not matching
        ``resources/schema/scenario.schema.json``, or bad content.
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ScenarioFileError(f"{where} is not a zPerfLab scenario (no \"format\": \"{FORMAT}\")")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ScenarioFileError(f"{where} has a bad version number: {show_value(version)}")
    if version > VERSION:
        raise ScenarioFileError(
            f"{where} was written by a newer zPerfLab (format version {version}; "
            f"this one reads up to {VERSION}): update zPerfLab to open it")
    try:
        _check_tree(doc)
        check_schema(doc, "scenario", where)
    except InputError as exc:
        text = str(exc)
        raise ScenarioFileError(text if text.startswith(where) else f"{where} {text}") from None
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
    if sc.experiment == "vsam_rls" and not any(n.kind == "ds_log" for n in sc.nodes.values()):
        _add_log_staging(sc)
        steps.append("the log staging data set and its volume LOGV01 are drawn (version 1 "
                     "simulated the staging writes unseen)")
    for key, value in wanted.items():
        try:
            hardware.apply(sc, {key: value})
        except Exception as exc:  # noqa: BLE001 - reported as a migration step
            steps.append(f"{key}={show_value(value)} could not be drawn ({exc})")
        else:
            steps.append(f"{key}={value} is now drawn as components")


def _add_coupling_facility(sc: Scenario) -> None:
    cps = [n for n in sc.of_category("processor") if n.kind == "cpu_cp"]
    y = max((n.y for n in sc.nodes.values()), default=0.0) + 140.0
    cf = sc.add_node(Node(sc.new_id("n"), "cf_icf", _free(sc, "CF01"), 0.0, y, {}))
    if cps:
        sc.add_link(Link(sc.new_id("l"), cps[0].id, cf.id))


def _add_log_staging(sc: Scenario) -> None:
    cus = sc.of_category("control_unit")
    work = sc.of_category("workload")
    vol = sc.add_node(Node(sc.new_id("n"), "vol_hdd15k", _free(sc, "LOGV01"), 400.0, -140.0, {}))
    ds = sc.add_node(Node(sc.new_id("n"), "ds_log", _free(sc, "Log staging"), 200.0, -140.0, {}))
    sc.add_link(Link(sc.new_id("l"), ds.id, vol.id))
    if cus:
        sc.add_link(Link(sc.new_id("l"), vol.id, cus[0].id))
    if work:
        sc.add_link(Link(sc.new_id("l"), work[0].id, ds.id))


def _add_checkpoint(sc: Scenario) -> None:
    cus = sc.of_category("control_unit")
    work = sc.of_category("workload")
    x = max((n.x for n in sc.nodes.values()), default=0.0) + 160.0
    vol = sc.add_node(Node(sc.new_id("n"), "vol_3390", _free(sc, "SPCKPT"), x, 0.0, {}))
    ds = sc.add_node(Node(sc.new_id("n"), "ds_spool_ckpt", _free(sc, "Checkpoint"), x, -140.0, {}))
    sc.add_link(Link(sc.new_id("l"), ds.id, vol.id))
    if cus:
        sc.add_link(Link(sc.new_id("l"), vol.id, cus[0].id))
    if work:
        sc.add_link(Link(sc.new_id("l"), work[0].id, ds.id))


# ---- case studies ---------------------------------------------------------------
def _free(sc: Scenario, label: str) -> str:
    """``label``, or the next free one after it: a migration never duplicates a label."""
    used = {n.label for n in sc.nodes.values()}
    return label if label not in used else hardware.next_label(label, used)


def case_names(registered) -> list[str]:
    """Of the experiment names ``registered``, those with a built-in case study."""
    return [n for n in registered if (SCENARIOS / f"{n}.json").exists()]


def example_names(registered) -> list[str]:
    """The built-in example drawings: scenario files named for no experiment
    (``large_shop``), in name order."""
    return sorted(p.stem for p in SCENARIOS.glob("*.json") if p.stem not in registered)


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
        raise ScenarioFileError(f"no built-in case study called {show_value(name)!r}")
    try:
        doc: Any = json.loads(_case_text(name))
    except (OSError, ValueError) as exc:
        raise ScenarioFileError(f"the built-in case study '{name}' cannot be read: {exc}") from None
    return from_document(doc, f"case study '{name}'")
