"""After a crash the recovery offer names the scenario by its title: the
built-in imported system and the Large shop have no file, and were called
"an untitled scenario" (issue 40's QA walk)."""
import pytest

from app import recovery, scenario_io

#: A pid no process has (above Linux's largest pid_max): the file is a crash's.
GONE = 999_999_999


@pytest.mark.parametrize("case, title", [
    ("rmf_sysa", "“Imported from RMF: SYSA, 09:00–09:15"),
    ("large_shop", "“Large shop: 1,000 volumes in 10 storage groups"),
])
def test_recovery_offer_names_a_built_in_system_by_its_title(window, monkeypatch, case, title):
    assert window.open_case_or_file(case) is None
    document = scenario_io.to_document(window.editor.scenario)
    monkeypatch.setattr(recovery, "own_file",
                        lambda: recovery.folder() / f"autosave-{GONE}.zpl.json")
    recovery.save(document, None)
    box = window.offer_recovery()
    assert box is not None
    text = box.text()
    assert "untitled" not in text
    assert f"the changes to {title}" in text
    box.close()


def test_recovery_offer_of_a_drawing_with_no_title_nor_file_says_untitled(window, monkeypatch):
    document = scenario_io.to_document(window.editor.scenario)
    document["title"] = ""
    monkeypatch.setattr(recovery, "own_file",
                        lambda: recovery.folder() / f"autosave-{GONE}.zpl.json")
    recovery.save(document, None)
    box = window.offer_recovery()
    assert "the changes to an untitled scenario" in box.text()
    box.close()
