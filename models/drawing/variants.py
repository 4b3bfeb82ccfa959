"""Change a component's type in place: the variants of a kind, in a user's words.

Several kinds of the registry (:mod:`models.drawing.components`) are one
component in different versions: a 3390 volume on HDD 10K, HDD 15K or SSD
drives, a FICON or a zHPF channel, a general CP or a zIIP, a PDS or a PDSE.
A what-if swaps one for another and keeps everything else: the label, the
serials and aliases, the count, the position and the links.

Each such set of kinds is a *family* (:func:`family`); within it the kinds
differ in one *property* (``drive``, ``protocol``, ``type``, ``library``),
whose values are said as a user sees them ("HDD 15K", "zHPF").
:func:`choices` lists what a component may become, :func:`current` what it
is, :func:`change` makes the swap and returns the old kinds (an undo
command gives them back to :func:`set_kind`), and :func:`apply_setting`
reads the command line's ``LABEL.property=VALUE``.

A RAID rank has one kind; its drives are the drives of the volumes on it
(:func:`models.drawing.config.from_scenario`), so changing a rank's drive
changes every volume on it, and the other ranks those volumes use.

The families are read from the registry (a kind's ``implies``), so a kind
added there joins its family here without a change.
"""
from __future__ import annotations

import re
from types import MappingProxyType
from typing import Mapping

from models.core.params import ParamError, shorten
from models.drawing import components
from models.drawing.config import PROCESSOR_TYPES, VOLUME_DEVICES

#: Which property of the kind's ``implies`` a family varies, and its name here.
_IMPLIED = {"device": "drive", "protocol": "protocol", "library": "library"}
#: Family names, by (category, is a group card).
_FAMILY_NAMES = {("volume", False): "volume", ("volume", True): "storage group",
                 ("channel", False): "channel", ("channel", True): "channel group",
                 ("processor", False): "processor", ("dataset", False): "load library"}
#: Property names a user may also type (``--set device=SSD`` names the drive so).
_PROP_ALIASES = {"device": "drive", "drives": "drive", "processor": "type"}
#: What a rank's drive is when no volume is linked to it (as the run takes it).
_RANK_DEFAULT = "HDD15K"


def _words(implied: str, value: str) -> str:
    """A kind's value as a user says it: ``HDD15K`` → ``HDD 15K``, ``3390`` →
    ``native 3390``, ``CP`` → ``General CP``."""
    if implied == "device":
        return "native 3390" if value == "3390" else re.sub(r"^HDD(\d)", r"HDD \1", value)
    if implied == "type":
        return "General CP" if value == "CP" else value
    return value


def _build() -> tuple[Mapping, Mapping]:
    """(family → (property, {words: kind key}), kind key → (family, property, words, raw))."""
    families: dict[str, tuple[str, dict[str, str]]] = {}
    by_kind: dict[str, tuple[str, str, str, str]] = {}

    def add(k: components.ComponentKind, implied: str, raw: str) -> None:
        fam = _FAMILY_NAMES.get((k.category, k.is_group))
        if fam is None:
            return
        prop, words = _IMPLIED.get(implied, implied), _words(implied, raw)
        families.setdefault(fam, (prop, {}))[1][words] = k.key
        by_kind[k.key] = (fam, prop, words, raw)

    for k in components.KINDS.values():
        if k.key in PROCESSOR_TYPES:
            add(k, "type", PROCESSOR_TYPES[k.key])
        for implied in _IMPLIED:
            if implied in k.implies:
                add(k, implied, str(k.implies[implied]))
    # A family of one kind offers no change.
    for fam in [f for f, (_, kinds) in families.items() if len(kinds) < 2]:
        for key in families.pop(fam)[1].values():
            by_kind.pop(key)
    return (MappingProxyType({f: (p, MappingProxyType(v)) for f, (p, v) in families.items()}),
            MappingProxyType(by_kind))


_FAMILIES, _BY_KIND = _build()


def family(kind_key: str) -> str | None:
    """The family of a kind: kinds that can replace each other in place
    ("storage group", "volume", "channel", "channel group", "processor",
    "load library"); ``None`` for a kind with no variant (a rank, a control unit)."""
    entry = _BY_KIND.get(kind_key)
    return entry[0] if entry else None


def variant_of(kind_key: str) -> tuple[str, str] | None:
    """``(property, value)`` that sets a kind apart in its family
    (``sg_ssd`` → ``("drive", "SSD")``); ``None`` for a kind with no variant."""
    entry = _BY_KIND.get(kind_key)
    return (entry[1], entry[2]) if entry else None


def _rank_drives() -> list[str]:
    """The drive types a RAID rank may hold: those a storage group comes in."""
    return list(_FAMILIES["storage group"][1]) if "storage group" in _FAMILIES else []


def choices(scenario, node_id: str) -> dict[str, list[str]]:
    """What a component may become: each changeable property with its values.

    Parameters
    ----------
    scenario : Scenario
    node_id : str

    Returns
    -------
    dict
        ``{"drive": ["HDD 10K", "HDD 15K", "SSD"]}`` for a storage group,
        ``{"protocol": ["FICON", "zHPF"]}`` for a channel, … in the words a
        user sees; empty for a component with no variant. A single volume
        off any rank card may also be a ``native 3390`` (a drive of its own).
    """
    node = scenario.nodes[node_id]
    if node.category == "rank":
        return {"drive": _rank_drives()}
    fam = family(node.kind)
    if fam is None:
        return {}
    prop, kinds = _FAMILIES[fam]
    values = list(kinds)
    if fam == "volume" and scenario.neighbours(node_id, "rank"):
        # A native 3390 is a drive of its own: not offered on a RAID rank.
        values = [w for w in values if w in _rank_drives()]
    return {prop: values}


def current(scenario, node_id: str, prop: str) -> str:
    """The value of ``prop`` on a component, in a user's words ("HDD 15K").

    A rank's drive is its first volume's (HDD 15K when none is linked, as
    the run takes it). Raises :class:`ParamError` for a property the
    component does not have.
    """
    node = scenario.nodes[node_id]
    prop = _property(scenario, node_id, prop)
    if node.category == "rank":
        for vol in scenario.neighbours(node_id, "volume"):
            member = components.kind(vol.kind).member or vol.kind
            if member in VOLUME_DEVICES:
                return _words("device", VOLUME_DEVICES[member])
        return _words("device", _RANK_DEFAULT)
    return _BY_KIND[node.kind][2]


def _property(scenario, node_id: str, prop: str) -> str:
    """``prop`` as this component names it; :class:`ParamError` listing its own if none."""
    node = scenario.nodes[node_id]
    have = choices(scenario, node_id)
    name = _PROP_ALIASES.get(prop.strip().lower(), prop.strip().lower())
    if name in have:
        return name
    what = components.kind(node.kind).label
    if not have:
        raise ParamError(f"{shorten(node.label)} ({what}) comes in one version only: "
                         "nothing to change")
    raise ParamError(f"{shorten(node.label)} ({what}) has no property '{shorten(prop)}'; "
                     f"it has: {', '.join(have)}")


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", str(text)).lower()


def _value(scenario, node_id: str, prop: str, value: str) -> str:
    """``value`` as the words of one of the property's values (``ssd`` → ``SSD``,
    ``HDD15K`` → ``HDD 15K``); :class:`ParamError` listing the allowed ones."""
    allowed = choices(scenario, node_id)[prop]
    for words in allowed:
        raw = _raw(prop, words)
        if _squash(value) in (_squash(words), _squash(raw)):
            return words
    node = scenario.nodes[node_id]
    raise ParamError(f"'{shorten(str(value))}' is not a {prop} of {shorten(node.label)}; "
                     f"allowed: {', '.join(allowed)}")


def _raw(prop: str, words: str) -> str:
    """The registry's value behind ``words`` (``native 3390`` → ``3390``)."""
    for _, p, w, raw in _BY_KIND.values():
        if p == prop and w == words:
            return raw
    return words


def set_kind(scenario, node_id: str, key: str) -> str:
    """Make a component kind ``key`` in place; returns the old key.

    The primitive of :func:`change` and of its undo: the scenario announces
    ``kind_changed`` so the canvas redraws the card
    (:meth:`models.drawing.scenario.Scenario.set_kind`).
    """
    return scenario.set_kind(node_id, key)


def change(scenario, node_id: str, prop: str, value: str) -> dict[str, str]:
    """Change one property of a component in place, keeping everything else.

    The component becomes the variant of its family with ``value`` (a
    storage group on HDD 15K becomes the storage group on SSD); label,
    serials, aliases, counts, position and links stay. A rank's drive
    changes every volume on it (a rank holds one type of drive), and the
    other ranks those volumes use.

    Parameters
    ----------
    scenario : Scenario
        Edited in place; each kind change is announced (``kind_changed``).
    node_id : str
    prop : str
        A property from :func:`choices` (``drive``, ``protocol`` …).
    value : str
        One of its values, as :func:`choices` words it (case and spaces
        do not matter: ``ssd``, ``HDD15K``).

    Returns
    -------
    dict
        ``{node id: old kind key}`` of every component that changed (empty
        when it already was ``value``): undo gives them back with
        :func:`set_kind`.

    Raises
    ------
    ParamError
        A property the component lacks or a value it cannot take; the
        message names the allowed ones.
    """
    prop = _property(scenario, node_id, prop)
    words = _value(scenario, node_id, prop, value)
    node = scenario.nodes[node_id]
    targets = _rank_volumes(scenario, node_id) if node.category == "rank" else [node_id]
    if node.category == "rank" and not targets:
        raise ParamError(f"{shorten(node.label)} holds no volume: its drives are those of "
                         "the volumes linked to it, so link one first")
    old: dict[str, str] = {}
    for nid in targets:
        fam = family(scenario.nodes[nid].kind)
        key = _FAMILIES[fam][1].get(words) if fam else None
        if key is None:
            raise ParamError(f"{shorten(scenario.nodes[nid].label)} on {shorten(node.label)} "
                             f"comes in no {words} version")
        if key != scenario.nodes[nid].kind:
            old[nid] = scenario.nodes[nid].kind
    for nid in old:
        set_kind(scenario, nid, _FAMILIES[family(old[nid])][1][words])
    return old


def _rank_volumes(scenario, rank_id: str) -> list[str]:
    """The volumes on a rank, and on every rank those volumes also use, in link order."""
    seen_ranks, vols = {rank_id}, []
    frontier = [rank_id]
    while frontier:
        nxt = []
        for rid in frontier:
            for vol in scenario.neighbours(rid, "volume"):
                if vol.id not in vols:
                    vols.append(vol.id)
                    for other in scenario.neighbours(vol.id, "rank"):
                        if other.id not in seen_ranks:
                            seen_ranks.add(other.id)
                            nxt.append(other.id)
        frontier = nxt
    return vols


def drop_change(scenario, node_id: str, kind_key: str) -> tuple[str, str] | None:
    """What dropping a palette kind onto a card means: ``(property, value)``
    to change the card to, when the kind is of the card's family and
    another version of it; ``None`` otherwise (the drop adds a component)."""
    here = scenario.nodes[node_id].kind
    if family(kind_key) is None or family(kind_key) != family(here) or kind_key == here:
        return None
    return variant_of(kind_key)


def describe(scenario, node_id: str, prop: str, old: Mapping[str, str] | None = None) -> str:
    """A change in words: "SGDB2 on SSD", "CP 1 as zIIP", "PGMLIB as PDSE";
    a rank's names the volumes that changed with it."""
    node = scenario.nodes[node_id]
    words = current(scenario, node_id, prop)
    text = f"{node.label} {'as' if prop in ('type', 'library') else 'on'} {words}"
    others = [scenario.nodes[n].label for n in (old or {}) if n != node_id]
    if others:
        text += f" (with {', '.join(others)})"
    return text


_SETTING = re.compile(r"^(?P<label>.+)\.(?P<prop>[A-Za-z_]+)\s*=(?P<value>.*)$", re.S)


def is_setting(text: str) -> bool:
    """Whether a ``--set`` item names a component (``LABEL.property=VALUE``)
    rather than a parameter (``KEY=VALUE``: a key has no dot)."""
    key = text.partition("=")[0]
    return "=" in text and "." in key


def apply_setting(scenario, text: str) -> str:
    """Apply ``LABEL.property=VALUE`` (the command line's what-if) to ``scenario``.

    Returns
    -------
    str
        The change in words ("SGDB2 on SSD").

    Raises
    ------
    ParamError
        One line: a malformed item, a label no component carries (with the
        labels that can change), a property or a value it does not have
        (with the allowed ones).
    """
    m = _SETTING.match(text.strip())
    if m is None:
        raise ParamError(f"--set needs LABEL.property=VALUE, got '{shorten(text)}'")
    label, prop, value = m.group("label").strip(), m.group("prop"), m.group("value").strip()
    node_id = find_label(scenario, label)
    prop = _property(scenario, node_id, prop)
    old = change(scenario, node_id, prop, value)
    return describe(scenario, node_id, prop, old)


def find_label(scenario, label: str) -> str:
    """The id of the component labelled ``label`` (exactly, else ignoring case
    when that names one); :class:`ParamError` saying what is there if none."""
    exact = [n.id for n in scenario.nodes.values() if n.label == label]
    if exact:
        return exact[0]
    folded = [n.id for n in scenario.nodes.values() if n.label.casefold() == label.casefold()]
    if len(folded) == 1:
        return folded[0]
    from models.drawing.config import members_of
    for n in scenario.nodes.values():
        if components.kind(n.kind).is_group and label in _safe_members(members_of, n):
            prop = next(iter(choices(scenario, n.id)), "property")
            raise ParamError(f"'{shorten(label)}' is one of the {n.category}s of "
                             f"{shorten(n.label)}, which are all of one type: change the "
                             f"card ({shorten(n.label)}.{prop}=…)")
    changeable = [n.label for n in scenario.nodes.values() if choices(scenario, n.id)]
    shown = ", ".join(changeable[:20]) + (f" … ({len(changeable)} in all)"
                                          if len(changeable) > 20 else "")
    raise ParamError(f"no component is labelled '{shorten(label)}'; components that can "
                     f"change: {shown or 'none'}")


def _safe_members(members_of, node) -> tuple[str, ...]:
    try:
        return members_of(node)
    except ValueError:          # a group whose serials do not check: an issue on the canvas
        return ()
