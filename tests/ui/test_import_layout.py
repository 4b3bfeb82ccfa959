"""An imported drawing leaves room for the notes under its cards.

The real z/OS 2.5 answers drawn together have idle groups (SSID 5002's and
5003's volumes, FTPSMF, DVMGRP …) whose "⚠ takes no part in the run" notes
were covered by the next card, 130 px below, and read "…uses this dat…".
"""
from pathlib import Path

from app import scenario_io
from models.rmf import read_reports
from models.rmf.drawing import build
from ui.canvas.items import ISSUE_H, NODE_H, NODE_W

DDS = Path(__file__).resolve().parents[2].parent / "shared" / "rmf" / "dds-zos25"
if not DDS.is_dir():                     # a worktree: the shared folder of the session
    DDS = Path("/work/shared/rmf/dds-zos25")


def test_no_card_covers_the_note_under_another(window, tmp_path, monkeypatch):
    # Every group with I/O now runs (down to 0.0001 I/O/s): the groups under
    # 0.1 I/O/s are drawn idle here, as they were before, to have the notes.
    monkeypatch.setattr("models.rmf.fit.MIN_IO_RATE", 0.1)
    sc = build(read_reports([DDS / f"{n}.xml" for n in ("device", "cache", "chan", "cpu")],
                            join=True))
    path = tmp_path / "dds.zpl.json"
    scenario_io.save(sc, path)
    win = window
    assert win.open_case_or_file(str(path)) is None
    items = win.scene.node_items
    noted = {nid for nid in items
             if any(m.startswith("takes no part") for m in win.scene.issues_for(nid))}
    assert len(noted) >= 10
    cards = {nid: item.mapRectToScene(0, 0, NODE_W, NODE_H) for nid, item in items.items()}
    for nid in noted:
        note = items[nid].mapRectToScene(-2, NODE_H + 4, NODE_W + 4, ISSUE_H - 4)
        covering = [win.scene.scenario.nodes[other].label for other, card in cards.items()
                    if other != nid and card.intersects(note)]
        assert not covering, (win.scene.scenario.nodes[nid].label, covering)
    # each workload sits beside its dataset: no wire across the idle rows' notes
    for n in sc.nodes.values():
        if n.kind == "wl_io":
            data = next(d for d in sc.nodes.values() if d.label == n.label[:-4] + " data")
            assert n.y == data.y, n.label
