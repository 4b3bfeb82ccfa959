"""New cards get short distinct labels (VOL001, VOL002, SG01, CHP01) that a
card shows whole: two volumes dropped in a row used to read "3390 on HDD 15…"."""
from PySide6.QtGui import QFont, QFontMetricsF

from ui.canvas.items import NODE_W, label_lines
from tests.ui.helpers import drop


def _card_text(label):
    font = QFont()
    font.setPointSizeF(10.5)
    font.setBold(True)
    return label_lines(QFontMetricsF(font), label, NODE_W - 4, 1)


def test_two_volumes_dropped_in_a_row_can_be_told_apart_on_their_cards(window):
    win = window
    win.new_scenario()
    sc = win.editor.scenario
    ids = [drop(win, key, 100 + 200 * i, 100) for i, key in
           enumerate(("vol_hdd15k", "vol_hdd15k", "sg_ssd", "chan_zhpf", "chg_ficon",
                      "cu_ds8000", "vol_raid"))]
    labels = [sc.nodes[i].label for i in ids]
    assert labels == ["VOL001", "VOL002", "SG01", "CHP01", "CHG01", "CU01", "RANK01"]
    shown = [_card_text(lb) for lb in labels]
    assert shown == [[lb] for lb in labels]          # whole, no "…"
    assert len({tuple(s) for s in shown}) == len(labels)


def test_a_new_label_is_never_a_name_the_drawing_already_uses(window):
    win = window
    assert win.open_case_or_file("rmf_sysa") is None
    sc = win.editor.scenario
    # A group of 120 called VOL holds VOL001 … VOL120: a new volume skips them.
    sgdb2 = next(n for n in sc.nodes.values() if n.label == "SGDB2")
    win.editor.rename(sgdb2.id, "VOL")
    win.editor.set_property(sgdb2.id, "names", None)
    win.editor.set_property(sgdb2.id, "count", 120)
    new = drop(win, "vol_ssd", 300, 900)
    assert sc.nodes[new].label == "VOL121"
    assert not any("has the name of" in i.message for i in sc.issues())
