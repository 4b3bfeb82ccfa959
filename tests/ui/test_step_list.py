"""The lesson band's step list reads at 1024×640: whole words, the full
title on demand, and never a placeholder's key."""
from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from app import lessons
from ui.lessons.step_list import TITLE_CHARS

ALL = lessons.load_all()
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def _words(text: str) -> list[str]:
    return text.removesuffix(" …").split()


@pytest.mark.parametrize("lesson", ALL, ids=[x.name for x in ALL])
def test_every_step_title_is_whole_words_and_no_keys(window, lesson):
    """The list as a lesson starts: no figure is known yet, and none of the
    placeholders' keys ("{iosq_ms}") shows in its place."""
    assert window.lessons.start(lesson.name) is None
    jump = window.lessons.panel.jump
    assert jump.count() == len(lesson.steps)
    for i, step in enumerate(lesson.steps):
        if step.kind != "step":
            assert jump.itemText(i) == step.kind.capitalize()
            continue
        title = jump.itemText(i).removeprefix(f"{i + 1}. ")
        assert jump.itemData(i, Qt.ItemDataRole.ToolTipRole) == jump.itemText(i)
        assert "{" not in title and not IDENTIFIER.search(title), (lesson.name, title)
        assert len(title) <= TITLE_CHARS + 2, title
        # The caption's start, cut only after a whole word.
        caption = " ".join(re.sub(r"\{[^{}]*\}", "…", step.caption).split())
        core = title.removesuffix(" …")
        assert caption.startswith(core), (title, caption)
        assert caption[len(core):][:1] in ("", " ", ",", ".", ";", ":", "?", "!"), title


def test_the_closed_list_at_1024_ends_after_a_whole_word_and_tells_the_rest(window, qtbot):
    """Step 3 of the zIIP lesson once read "3. One zIIP added: eligible wc"."""
    window.resize(1024, 640)
    parts = window.lessons
    assert parts.start("whatif_add_ziip", 2) is None
    qtbot.wait(20)
    jump = parts.panel.jump
    full = jump.currentText()
    assert full.startswith("3. One zIIP added: eligible work goes to it (")   # figures filled
    assert "…" not in full.split("(")[1].split(")")[0]
    shown = jump.shown_text()
    assert shown != full and shown.endswith(" …")           # it does not fit …
    assert full.split()[:len(_words(shown))] == _words(shown)   # … so it ends after a word
    assert jump.fontMetrics().horizontalAdvance(shown) < jump.width()
    assert full in jump.toolTip()                            # the rest on demand
    jump.showPopup()
    widest = max(jump.view().fontMetrics().horizontalAdvance(jump.itemText(i))
                 for i in range(jump.count()))
    assert jump.view().minimumWidth() >= min(widest, window.width() - 16) > jump.width()
    jump.hidePopup()


def test_a_step_title_gains_its_figures_once_they_are_known(window):
    parts = window.lessons
    assert parts.start("whatif_hyperpav_aliases", 0) is None
    jump = parts.panel.jump
    assert jump.itemText(1).startswith("2. Most of the response time, … of its …, is IOSQ")
    parts.player.next()
    assert re.match(r"2\. Most of the response time, [\d.,]+ ms of its [\d.,]+ ms, is IOSQ",
                    jump.itemText(1)), jump.itemText(1)
