"""Lesson figures come from the runs: placeholders, claims, --check, --text."""
from __future__ import annotations

import json
import re

import pytest

from app import cli, lesson_figures, lessons
from app.names import format_number


def test_check_runs_every_lesson_and_every_claim_holds(capsys):
    """`zperflab lessons --check --json` runs all 19 lessons; every claim
    holds, and every step that runs states at least one."""
    assert cli.main(["lessons", "--check", "--json"]) == 0, capsys.readouterr().err
    rows = json.loads(capsys.readouterr().out)
    found = lessons.load_all()
    assert len(found) == 19
    assert {r["lesson"] for r in rows} == {x.name for x in found}
    assert all(set(r) == {"lesson", "step", "claim", "holds", "value"} for r in rows)
    assert all(r["holds"] and isinstance(r["value"], float) for r in rows)
    for lesson in found:
        claimed = {r["step"] for r in rows if r["lesson"] == lesson.name}
        assert claimed == {i + 1 for i in lesson.run_steps()}, lesson.name


def _hyperpav_doc():
    return json.loads(open(lessons.get("whatif_hyperpav_aliases").path, encoding="utf-8").read())


def test_a_claim_fails_when_the_model_figure_moves(tmp_path, monkeypatch, capsys):
    """One alias instead of eight (changed here, not in the lesson file):
    the queue in z/OS comes back and the lesson's claim says so, exit 1."""
    doc = _hyperpav_doc()
    doc["steps"][2]["set"]["ORDV01"]["aliases"] = 1
    (tmp_path / "whatif_hyperpav_aliases.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(lessons, "LESSONS", tmp_path)
    assert cli.main(["lessons", "whatif_hyperpav_aliases", "--check", "--json"]) == 1
    out = capsys.readouterr()
    rows = {r["claim"]: r for r in json.loads(out.out)}
    moved = rows["eight aliases: IOSQ below 0.1 ms"]
    assert not moved["holds"] and moved["value"] > 0.1
    assert rows["no aliases: IOSQ is over half the response time"]["holds"]
    assert "IOSQ below 0.1 ms' fails" in out.err


def test_handout_fills_figures_as_the_results_table_writes_them(capsys):
    assert cli.main(["lessons", "db2_skip_sequential", "--text"]) == 0
    text = capsys.readouterr().out
    lesson = lessons.get("db2_skip_sequential")
    ficon = lesson_figures.run_step(lesson, 1).metrics["elapsed_s"]
    zhpf = lesson_figures.run_step(lesson, 2).metrics["elapsed_s"]
    assert f"({format_number(zhpf)} s against {format_number(ficon)} s)" in text
    assert f"{ficon / zhpf:.1f} times as fast" in text
    assert "{" not in text and lesson_figures.PENDING not in text
    assert text.startswith(lesson.title)


def test_cli_lists_name_title_and_steps(capsys):
    assert cli.main(["lessons"]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = lessons.load_all()
    assert [line.split()[0] for line in lines] == [x.name for x in found]
    assert lines[0].endswith(f"{found[0].title}  ({len(found[0].steps)} steps)")
    assert cli.main(["lessons", "nope", "--text"]) == 2
    assert "no lesson called 'nope'" in capsys.readouterr().err


#: How a figure the model computes looks when it is typed in: a time or rate,
#: a percentage, a decimal, a hedged number, a ratio. Fixed facts of the
#: hardware and the lesson's inputs (12 pages a track, 32 pages, BLKSIZE
#: 6144, 2,000 records) are whole numbers with none of these.
TYPED = [
    r"\d[\d,]*(?:\.\d+)?\s*(?:s|ms|µs|us|sec|seconds?|minutes?|hours?|MB/s|I/O/s|I/Os a second)\b",
    r"\d\s*%",
    r"\d\.\d",
    r"\b(?:about|nearly|near|around|roughly|almost)\s+(?:a |an )?\d",
    r"\d\s*(?:×|times|-fold)",
    r"\b(?:twice|threefold|fourfold|fivefold|eightfold)\b",
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+times\s+"
    r"(?:as|faster|fewer|more|less|longer|shorter|slower)\b",
]


def _typed(text: str) -> list[str]:
    bare = lesson_figures.FIELD.sub("{}", text)
    return [m.group(0) for pattern in TYPED for m in re.finditer(pattern, bare, re.I)]


def test_scanner_catches_typed_figures():
    assert _typed("about 3.4 s against 7.9 s") and _typed("the CPs are 75% busy")
    assert _typed("read about twice as fast") and _typed("Twelve times fewer bytes")
    assert _typed("a hit ratio near 0.8") and _typed("takes 12 ms")
    assert not _typed("A 3390 track holds 12 pages; {2:elapsed_s} against {3:elapsed_s}")


def test_no_model_figure_is_typed_into_a_lesson():
    found = {}
    for lesson in lessons.load_all():
        for i, step in enumerate(lesson.steps):
            hits = _typed(step.caption)
            if hits:
                found[f"{lesson.name} step {i + 1}"] = hits
        for line in (lesson.title, lesson.teaches):
            if _typed(line):
                found[lesson.name] = _typed(line)
    assert found == {}


def _doc(**step):
    return {"format": "zperflab-lesson", "version": 1, "name": "t", "title": "T",
            "teaches": "x", "case": "db2_io", "question": "q?", "answer": "a",
            "steps": [{"caption": "c", "remove": ["CHPID 41"], "run": True, **step}]}


@pytest.mark.parametrize("step, words", [
    ({"caption": "{io_msx}"}, "no metric 'io_msx'"),
    ({"caption": "{3:io_ms}"}, "reads step 3, which has no run here"),
    ({"claims": [{"figure": "io_ms", "below": 1, "above": 0}]}, "one bound"),
    ({"claims": [{"figure": "io_ms"}]}, "'claims' must be a list"),
    ({"caption": "{Cache activity|hit ratio}"}, "'report title|row|column'"),
])
def test_bad_figure_is_one_line_at_load(step, words):
    with pytest.raises(lessons.LessonError) as err:
        lessons.from_document(_doc(**step), "t.json")
    assert words in str(err.value) and "t.json" in str(err.value)


def test_claims_on_a_step_that_does_not_run_are_refused():
    doc = _doc()
    doc["steps"].append({"caption": "c", "claims": [{"figure": "1:io_ms", "below": 1}]})
    with pytest.raises(lessons.LessonError, match="step 2: states claims but does not run"):
        lessons.from_document(doc, "t.json")


def test_a_report_figure_missing_from_the_run_is_a_check_problem():
    lesson = lessons.from_document(
        _doc(caption="{Cache activity|no such row|value}",
             claims=[{"figure": "io_ms", "above": 0}]), "t.json")
    problems = lessons.check_runs(lesson)
    assert any("has no row 'no such row'" in p for p in problems)


def test_tiny_values_print_as_decimals():
    assert format_number(1.731e-05) == "0.00001731"
    assert format_number(0.88593) == "0.8859" and format_number(12491.4) == "12,491"
    assert lesson_figures.format_ratio(7.743) == "7.7" and lesson_figures.format_ratio(12) == "12"


def test_a_report_row_is_found_by_its_first_two_cells():
    """The Measured vs model table has a row per card and figure: a placeholder
    names both ({N:Measured vs model|SGDB2|DISC ms|model})."""
    lesson = lessons.get("rmf_read_reports")
    result = lesson_figures.run_step(lesson, 2)
    rows = {(r[0], r[1]): r for r in next(t for t in result.reports
                                          if t.title == "Measured vs model").rows}
    fig = lesson_figures.parse_figure("Measured vs model|SGTSO|DISC ms|model", 2, {2})
    assert fig.value({2: result}) == rows["SGTSO", "DISC ms"][3]
    three = lesson_figures.parse_figure("Measured vs model|SGTSO|model", 2, {2})
    assert three.value({2: result}) == rows["SGTSO", "I/O rate /s"][3]   # the first row
    with pytest.raises(lesson_figures.FigureError, match="no row 'SGTSO' / 'WAIT ms'"):
        lesson_figures.parse_figure("Measured vs model|SGTSO|WAIT ms|model", 2, {2}).value(
            {2: result})


def test_a_lesson_sets_a_components_own_property_on_that_component_only():
    """As the editor (and so the player) does: more cache on one control unit
    leaves the other's; a storage group added keeps its own volumes."""
    lesson = lessons.get("rmf_whatif_baseline")
    cards = {n.label: n for n in lesson.scenario_at(3).nodes.values()}
    assert cards["SSID 0006"].properties["cache_gb"] == 0.375
    assert cards["SSID 0007"].properties["cache_gb"] == 0.25
    assert cards["SGDB2"].kind == "sg_ssd"
    assert cards["SGDB2"].properties["names"] == "DB2001,DB2002,DB2003,DB2004"
    assert cards["SGTSO"].properties["names"] == "TSO001,TSO002"
