"""What a drawing changed from the case as opened (no Qt).

Each run records its drawing's differences from the scenario as it was
opened (a case study, a what-if study, a file): component, property, old →
new, in the words of the canvas and the inspector. The History tab and
"Compare two" show them, so three runs of "Your own system" that differ in
cache size, aliases and device read as three different runs.
"""
from __future__ import annotations

from typing import Any

from app.names import format_number, unit_for, words
from models.drawing import components
from models.drawing.scenario import Scenario

#: How many changes a one-line description names before "and N more".
SHOWN = 3


def _kind_title(key: str) -> str:
    try:
        return components.kind(key).label
    except (KeyError, ValueError):
        return str(key)


def _show(value: Any, unit: str = "") -> str:
    text = format_number(value) if isinstance(value, (int, float)) and not isinstance(
        value, bool) else str(words(value))
    return f"{text} {unit_for(value, unit)}" if unit and text not in ("", "None") else text


def _values(sc: Scenario, node) -> dict[str, tuple[str, Any, str]]:
    """name → (title, effective value, unit) of every property of ``node``."""
    out = {}
    for p in sc.params_for(node.id):
        out[p.name] = (p.title, sc.value_for(node.id, p), p.unit or "")
    return out


def differences(before: dict | None, after: dict | None) -> list[dict]:
    """The changes from scenario document ``before`` to ``after``.

    Returns
    -------
    list of dict
        ``{"component", "property", "old", "new"}`` (texts as shown on
        screen); a component added or removed has property ``""``, a
        component whose device kind changed has property ``"device"``.
        Positions are not changes. Empty when either side is missing or
        unreadable.
    """
    def plain(doc):
        return {k: v for k, v in doc.items() if k not in ("format", "version")}

    try:
        a, b = Scenario.from_dict(plain(before)), Scenario.from_dict(plain(after))
    except (TypeError, ValueError, KeyError, AttributeError):
        return []
    out: list[dict] = []
    old = {n.label: n for n in a.nodes.values()}
    new = {n.label: n for n in b.nodes.values()}
    for label in old.keys() - new.keys():
        out.append({"component": label, "property": "", "old": _kind_title(old[label].kind),
                    "new": "removed"})
    for label in new.keys() - old.keys():
        out.append({"component": label, "property": "", "old": "",
                    "new": f"added ({_kind_title(new[label].kind)})"})
    for label in sorted(old.keys() & new.keys()):
        n0, n1 = old[label], new[label]
        if n0.kind != n1.kind:
            out.append({"component": label, "property": "device", "old": _kind_title(n0.kind),
                        "new": _kind_title(n1.kind)})
        v0, v1 = _values(a, n0), _values(b, n1)
        for name in v0.keys() & v1.keys():
            (title, x, unit), (_, y, _) = v0[name], v1[name]
            if n0.kind != n1.kind and (a.fixed_by_kind(n0.id, name)
                                       or b.fixed_by_kind(n1.id, name)):
                continue  # said by the device line
            if x != y:
                out.append({"component": label, "property": title, "old": _show(x, unit),
                            "new": _show(y, unit)})
    links0 = {frozenset((a.nodes[lk.source].label, a.nodes[lk.target].label))
              for lk in a.links.values()}
    links1 = {frozenset((b.nodes[lk.source].label, b.nodes[lk.target].label))
              for lk in b.links.values()}
    added = {label for c in out if c["property"] == "" for label in (c["component"],)}
    for pair in sorted(links1 - links0, key=sorted):
        if not pair & added:
            out.append({"component": " – ".join(sorted(pair)), "property": "link", "old": "",
                        "new": "added"})
    removed = {c["component"] for c in out if c["new"] == "removed"}
    for pair in sorted(links0 - links1, key=sorted):
        if not pair & removed and not pair & added:
            out.append({"component": " – ".join(sorted(pair)), "property": "link",
                        "old": "", "new": "removed"})
    return sorted(out, key=lambda c: (c["component"], c["property"]))


def change_text(change: dict) -> str:
    """One change as a person reads it: ``DS8K-1 Cache size: 64 GB → 1 GB``."""
    comp, prop = change["component"], change["property"]
    if prop == "":
        return f"{comp} {change['new']}" if change["new"] != "removed" else f"{comp} removed"
    if prop == "link":
        return f"link {comp} {change['new']}"
    if " " in prop and prop.rsplit(" ", 1)[0].lower() == comp.lower():
        # The property's title names the component already: "Table space
        # size", not "Table space Table space size".
        return f"{prop}: {change['old']} → {change['new']}"
    return f"{comp} {prop}: {change['old']} → {change['new']}"


def grouped(changes: list[dict]) -> list[dict]:
    """Changes that differ only in the component as one (the inspector sets
    a property for every component of its category)."""
    out: dict[tuple, dict] = {}
    for c in changes:
        if c["property"] in ("", "link"):
            out[(id(c),)] = c
            continue
        key = (c["property"], c["old"], c["new"])
        if key in out:
            out[key] = {**out[key], "component": f"{out[key]['component']}, {c['component']}"}
        else:
            out[key] = dict(c)
    return list(out.values())


def describe(changes: list[dict], limit: int | None = SHOWN) -> str:
    """The changes in one line ("as opened" when there are none)."""
    if not changes:
        return "as opened"
    texts = [change_text(c) for c in grouped(list(changes))]
    if limit is not None and len(texts) > limit:
        return "; ".join(texts[:limit]) + f"; and {len(texts) - limit} more"
    return "; ".join(texts)
