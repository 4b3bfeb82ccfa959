"""Expand a group card into its members, and collapse components into a group.

A storage group (or a channel group) is one card standing for N volumes (or
CHPIDs), each simulated on its own (:func:`models.drawing.config.from_scenario`).
Expanding draws the members as single cards, wired as the group was: every
neighbour of the group is linked to every member, except ranks, which go
round the members as the model spreads them (member ``i`` on rank
``i mod k``); a group's own ranks become rank cards. Collapsing does the
reverse for components of one kind with the same neighbours. Each is one
undo step; nothing is simulated differently before and after.
"""
from __future__ import annotations

from models.drawing import components, config, hardware
from models.drawing.elements import Link, Node, id_order
from ui import commands as cmd

#: Members per row when a group is drawn out.
PER_ROW = 10
STEP_X, STEP_Y = 170.0, 120.0
_OWN = ("count", "names", "ranks")


def expand(editor, node_id: str) -> list[str] | str:
    """Draw the group ``node_id`` as single cards; their ids, or why not."""
    sc = editor.scenario
    group = sc.nodes[node_id]
    kind = components.kind(group.kind)
    if not kind.is_group:
        return f"{group.label} is not a group: only a storage or channel group expands."
    try:
        names = config.members_of(group)
    except ValueError as exc:
        return str(exc)
    own_ranks = config.own_ranks(group) if not sc.neighbours(node_id, "rank") else ()
    taken = [n for n in (*names, *own_ranks) if sc.label_taken(n)]
    if taken:
        return (f"Cannot expand {group.label}: '{taken[0]}' is already a component's label; "
                "rename it first.")
    props = {k: v for k, v in group.properties.items() if k not in _OWN}
    parent = editor.macro(f"Expand {group.label} into {len(names)} "
                            f"{components.kind(kind.member).label}")
    ids: list[str] = []
    ranks = [n.id for n in sc.neighbours(node_id, "rank")]
    for j, r in enumerate(own_ranks):
        rid = sc.new_id()
        cmd.AddNodeCommand(sc, Node(rid, "vol_raid", r, group.x - STEP_X,
                                    group.y + j * STEP_Y, {}), parent)
        ranks.append(rid)
    others = [n.id for n in sc.neighbours(node_id) if n.category != "rank"]
    for i, name in enumerate(names):
        nid = sc.new_id()
        x = group.x + (i % PER_ROW) * STEP_X
        y = group.y + (i // PER_ROW) * STEP_Y
        cmd.AddNodeCommand(sc, Node(nid, kind.member, name, x, y, dict(props)), parent)
        for other in others:
            cmd.AddLinkCommand(sc, Link(sc.new_id("l"), other, nid), parent)
        if ranks:
            cmd.AddLinkCommand(sc, Link(sc.new_id("l"), ranks[i % len(ranks)], nid), parent)
        ids.append(nid)
    cmd.RemoveNodeCommand(sc, node_id, parent)
    editor.undo_stack.push(parent)
    return ids


def collapse(editor, node_ids: list[str]) -> str:
    """Draw the single components ``node_ids`` as one group card; its id, or
    why not (the message starts with "Cannot")."""
    sc = editor.scenario
    # In canvas order: the members keep the order they were drawn in.
    nodes = sorted((sc.nodes[i] for i in node_ids if i in sc.nodes), key=id_order)
    if len(nodes) < 2:
        return "Cannot collapse: select two or more volumes (or channels) of one kind."
    kinds = {n.kind for n in nodes}
    group_kind = next((k.key for k in components.KINDS.values() if k.member in kinds), None)
    if len(kinds) != 1 or group_kind is None:
        return ("Cannot collapse: a group holds components of one kind (3390 volumes on "
                "one drive type, or channels of one protocol).")
    first = nodes[0]
    props = {k: v for k, v in first.properties.items() if k not in _OWN}
    if any({k: v for k, v in n.properties.items() if k not in _OWN} != props for n in nodes):
        return "Cannot collapse: the components' properties differ (aliases, model …)."
    ranks: list[str] = []
    near = None
    for n in nodes:
        mine = set()
        for m in sc.neighbours(n.id):
            if m.category == "rank":
                if m.id not in ranks:
                    ranks.append(m.id)
            else:
                mine.add(m.id)
        if near is not None and mine != near:
            return (f"Cannot collapse: {n.label} is linked to other components than "
                    f"{first.label}; a group's members share their links.")
        near = mine
    used = {n.label for n in sc.nodes.values()}
    stem = first.label.rstrip("0123456789") or first.label
    label = stem if stem not in used else hardware.next_label(stem, used)
    names = [n.label for n in nodes]
    props.update(count=len(nodes))
    if names != list(config.member_names(label, len(nodes))):
        props["names"] = ",".join(names)
    parent = editor.macro(f"Collapse {len(nodes)} components into {label}")
    gid = sc.new_id()
    x = min(n.x for n in nodes)
    y = min(n.y for n in nodes)
    for n in nodes:
        cmd.RemoveNodeCommand(sc, n.id, parent)
    cmd.AddNodeCommand(sc, Node(gid, group_kind, label, x, y, props), parent)
    for other in (*sorted(near or ()), *ranks):
        cmd.AddLinkCommand(sc, Link(sc.new_id("l"), other, gid), parent)
    editor.undo_stack.push(parent)
    return gid
