"""Lesson files: checked at load with one clear line; the CLI lists them."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app import cli, lessons


def _doc(**steps_extra):
    return {"format": "zperflab-lesson", "version": 1, "name": "t", "title": "T",
            "teaches": "x", "case": "db2_io",
            "steps": [{"caption": "c", **steps_extra}], "question": "q?", "answer": "a"}


def test_bundled_lessons_one_per_case():
    from app import scenario_io

    found = lessons.load_all()
    cases = {x.case for x in found}
    assert set(scenario_io.case_names()) - {"custom"} <= cases
    assert found[0].name == "db2_io"  # the tour


@pytest.mark.parametrize("extra, words", [
    ({"set": {"Nope": {"cache": "cold"}}}, "names no component 'Nope'"),
    ({"set": {"DS8000 CU": {"cachez": "cold"}}}, "has no property 'cachez'"),
    ({"set": {"DS8000 CU": {"cache": "lukewarm"}}}, "DS8000 CU"),
    ({"run": True, "moment": {"at": "event", "event": "teleport"}}, "no trace event"),
    ({"moment": {"at": "first_miss"}}, "with no run on screen"),
    ({"moment": {"at": "soon"}, "run": True}, "no moment"),
    ({"view": "slides"}, "no view"),
    ({"view": "animation", "part": "Track rides"}, "has no part 'Track rides'"),
    ({"highlight": {"component": "CHPID 99"}}, "highlights no component 'CHPID 99'"),
    ({"remove": ["CHPID 99"]}, "'remove' names no component"),
    ({"add": [{"kind": "chan_warp", "label": "W"}]}, "no component kind"),
    ({"remove": ["CHPID 40", "CHPID 41"], "run": True}, "runs a drawing that cannot run"),
])
def test_bad_step_is_an_error_at_load(extra, words):
    with pytest.raises(lessons.LessonError) as err:
        lessons.from_document(_doc(**extra), "t.json")
    text = str(err.value)
    assert words in text and "t.json" in text and "\n" not in text


def test_bad_case_and_file(tmp_path):
    doc = _doc()
    doc["case"] = "db3_io"
    with pytest.raises(lessons.LessonError, match="no case study 'db3_io'"):
        lessons.from_document(doc, "t.json")
    (tmp_path / "t.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(lessons.LessonError, match="t.json"):
        lessons.load_all(tmp_path)
    with pytest.raises(lessons.LessonError, match="lessons: db2_io"):
        lessons.get("nope")


def test_moments_and_charts_found_in_the_runs():
    lesson = lessons.get("db2_io")
    assert lessons.check_runs(lesson) == []
    doc = json.loads(open(lesson.path, encoding="utf-8").read())
    doc["steps"][2]["part"] = "Pie chart of feelings"
    doc["steps"][1]["moment"] = {"at": "tape_change"}
    broken = lessons.from_document(doc, "db2_io.json")
    problems = lessons.check_runs(broken)
    assert any("no tape cartridge change" in p for p in problems)
    assert any("no chart 'Pie chart of feelings'" in p for p in problems)


def test_a_whatif_steps_chart_is_named_as_a_whatif():
    """A what-if's measured charts are titled with its change ("Measured vs
    what-if (SGDB2 on SSD): …", app.run_names): a lesson names them "Measured
    vs what-if: …" and --check finds them; calling the what-if's chart
    "model" (RMF set against a what-if's answer) is a problem."""
    from app import lesson_charts

    lesson = lessons.get("rmf_whatif_baseline")
    assert lessons.check_runs(lesson) == []
    assert lesson_charts.bars_name(lesson, 1) == "model"
    assert lesson_charts.bars_name(lesson, 2) == "what-if: SGDB2 on SSD"
    doc = json.loads(open(lesson.path, encoding="utf-8").read())
    doc["steps"][2]["part"] = "Measured vs model: I/O response time"
    broken = lessons.from_document(doc, "rmf_whatif_baseline.json")
    problems = lessons.check_runs(broken)
    assert [p.split(";")[0] for p in problems] == [
        "rmf_whatif_baseline: step 3: no chart 'Measured vs model: I/O response time'"]
    assert "Measured vs what-if (SGDB2 on SSD): I/O response time" in problems[0]


@pytest.mark.parametrize("title, part", [
    ("Measured vs what-if (SGDB2 on SSD): I/O rate", "Measured vs what-if: I/O rate"),
    ("Measured vs what-if (SGDB2 on SSD; SSID 0006 Cache size: 0.25 GB → 0.375 GB): "
     "request hit ratio", "Measured vs what-if: request hit ratio"),
    ("Measured vs model: request hit ratio", "Measured vs model: request hit ratio"),
    ("Response time (ms): by volume", "Response time (ms): by volume"),
])
def test_a_chart_is_named_without_the_whatifs_change(title, part):
    from app import lesson_charts

    assert lesson_charts.without_change(title) == part
    assert lesson_charts.names(part, title) and lesson_charts.names(title, title)
    assert not lesson_charts.names("Measured vs model: I/O rate",
                                   "Measured vs what-if (SGDB2 on SSD): I/O rate")


def test_cli_lessons_lists_names(capsys):
    assert cli.main(["lessons"]) == 0
    out = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert out == [x.name for x in lessons.load_all()]
    assert "vsam_rls" in out


def test_cli_gui_lesson_screenshot(tmp_path):
    shot = tmp_path / "s.png"
    done = subprocess.run([sys.executable, "-m", "app", "gui", "--lesson", "library_space",
                           "--step", "2", "--size", "1024x768", "--screenshot", str(shot)],
                          capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""         # no Qt platform chatter beside the user's output
    from PySide6.QtGui import QImage

    img = QImage(str(shot))
    assert (img.width(), img.height()) == (1024, 768)
    bad = subprocess.run([sys.executable, "-m", "app", "gui", "--lesson", "nope",
                          "--screenshot", str(tmp_path / "x.png")], capture_output=True,
                         text=True, timeout=120,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert bad.returncode == 2 and "no lesson called 'nope'" in bad.stderr


def test_library_and_rls_charts():
    from models import experiments
    from app.replay.series import derive_charts

    r = experiments.run_experiment("library_space")
    chart = next(c for c in derive_charts(r) if c.title == "Tracks used by block size")
    tracks = dict(zip(chart.categories, chart.series[0].y))
    assert tracks["32,760"] < tracks["6,144"] < tracks["3,120"]
    r = experiments.run_experiment("vsam_rls", {"transactions": 300})
    chart = next(c for c in derive_charts(r) if c.title == "LSR and RLS side by side")
    assert chart.categories == ("LSR", "RLS")
    total = sum(s.y for s in chart.series)
    assert total[1] > total[0]


def test_a_what_if_lessons_steps_are_named_by_the_drawing_they_are():
    """Once a what-if lesson's steps have made the study's after drawing, the
    drawing is titled as the after drawing (the results headline, the history
    and exports name it), not as the before drawing the lesson opened."""
    from models.studies import whatif

    for lesson in (x for x in lessons.load_all() if x.case.startswith("whatif:")):
        before, after = whatif.study(lesson.case.removeprefix("whatif:")).documents()
        shapes = {lessons.run_shape(before): before["title"],
                  lessons.run_shape(after): after["title"]}
        titles = [lesson.scenario_at(i).title for i in range(len(lesson.steps))]
        assert titles == [shapes[lessons.run_shape(lesson.document_at(i))]
                          for i in range(len(lesson.steps))], lesson.name
        assert titles[-1] == after["title"] != before["title"] == titles[0], lesson.name


@pytest.mark.parametrize("name, step, says, not_says", [
    ("spool_dump", 1, "SPTAPE dump", "SPXTAPE"),
    ("spool_dump", 3, "SPXTAPE dump", "SPTAPE"),      # back to SPXTAPE; the question keeps it
    ("program_fetch", 2, "from a PDS STEPLIB", "PDSE"),
    ("program_fetch", 3, "from a PDSE STEPLIB", "a PDS "),
    ("program_fetch", 5, "from a PDSE STEPLIB", "a PDS "),   # the answer: the last drawing
    ("rmf_whatif_baseline", 1, "Imported from RMF", "SSD"),
    ("rmf_whatif_baseline", 2, "SGDB2 on SSD", "Imported"),
])
def test_a_steps_drawing_is_titled_as_what_runs(name, step, says, not_says):
    """A step whose drawing is no longer the case's (SPTAPE instead of SPXTAPE,
    a PDSE instead of a PDS) carries a title of its own; the title holds
    until a step changes the drawing again."""
    lesson = lessons.get(name)
    title = lesson.scenario_at(step).title
    assert says in title and not_says not in title, title


def test_the_titled_drawings_are_what_their_titles_say():
    sp = lessons.get("spool_dump").scenario_at(1)
    assert "SPTAPE" in sp.title and "SPTAPE" in str(sp.to_dict()["nodes"])
    pf = lessons.get("program_fetch").scenario_at(3)
    assert "PDSE" in pf.title and any(n.kind == "ds_pdse" for n in pf.nodes.values())


@pytest.mark.parametrize("title, words", [("", "1-160 characters"), ("x" * 161, "1-160"),
                                          (7, "1-160")])
def test_a_bad_step_title_is_one_line_at_load(title, words):
    with pytest.raises(lessons.LessonError) as err:
        lessons.from_document(_doc(title=title), "t.json")
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_caption_states_no_hit_ratio_the_replay_contradicts():
    """A caption that states the run's hit ratio while the Cache staging view
    shows the hit ratio so far: the moment is late enough that the two agree
    (the view writes two decimals); at the twelfth staging the view still
    shows 0.00, and the check says so."""
    lesson = lessons.get("db2_skip_sequential")
    results, problems = lessons.run_all(lesson)
    assert problems == [] and lessons.check_runs(lesson, results=results) == []
    lpo = results[2]
    t = lessons.find_moment(lpo.trace, lesson.moment_at(2))
    assert lessons.shown_hit_ratio(lpo.trace, t) == pytest.approx(
        lpo.metrics["cache_hit_ratio"], abs=lessons.HIT_RATIO_SLACK)
    doc = json.loads(open(lesson.path, encoding="utf-8").read())
    doc["steps"][2]["moment"]["nth"] = 12
    early = lessons.from_document(doc, "db2_skip_sequential.json")
    found = lessons.check_runs(early, results=results)
    assert any("step 3" in p and "shows 0.00 so far" in p for p in found), found


def test_a_what_if_studys_text_types_in_no_run_time():
    """A what-if lesson opens a study whose text the Compare view shows beside
    the runs: it states no time in ms (DISC, a miss's wait: the model's
    figures, which vary with the seek distance and the queue) and no "~N"
    figure. The µs per I/O of a channel are IBM's published rates and the
    rotation of a 15K disk a fixed fact; those may stay."""
    import re

    from models.studies import whatif

    found = {}
    for st in whatif.studies():
        # Half a turn at R RPM is 30,000 / R ms: a fact of the disk, stated as such.
        for ms, rpm in re.findall(r"(\d+) ms at ([\d,]+) RPM", st.about):
            assert int(ms) == 30_000 / int(rpm.replace(",", "")), st.name
        text = re.sub(r"\d+ ms at [\d,]+ RPM", "", st.about)
        found[st.name] = re.findall(r"~\s*\d[\d,.]*\s*\S*|\d[\d,.]*\s*ms\b", text)
    assert {k: v for k, v in found.items() if v} == {}


def test_a_calibrate_step_is_calibrated_when_asked_for_not_at_load():
    """Loading the lessons (the start page lists them) runs no model; the
    calibrating step's drawing carries calibration's quantities on its cards,
    and the steps after it keep them."""
    from models.rmf.calibrate import QUANTITIES

    lesson = lessons.load(lessons.LESSONS / "rmf_calibrate.json")
    step = next(i for i, s in enumerate(lesson.steps) if s.calibrate)
    assert "calibrated" not in lesson.document_at(step - 1)["imported"]
    doc = lesson.document_at(step)
    done = [e for e in doc["imported"]["calibrated"] if not e.get("refused")]
    assert done
    cards = {n["label"]: n for n in doc["nodes"]}
    for e in done:
        assert cards[e["component"]]["properties"][QUANTITIES[e["quantity"]][1]] == e["value"]
    assert lesson.document_at(step + 1)["imported"]["calibrated"] == doc["imported"]["calibrated"]


def test_calibrating_a_drawing_not_imported_is_refused_at_load():
    doc = {"format": "zperflab-lesson", "version": 1, "name": "t", "title": "T",
           "teaches": "x", "case": "db2_io", "question": "q?", "answer": "a",
           "steps": [{"caption": "c", "calibrate": True}]}
    with pytest.raises(lessons.LessonError) as err:
        lessons.from_document(doc, "t.json")
    assert "t.json: step 1: calibrates a drawing that carries no RMF measurements" in str(err.value)


def test_a_lesson_loads_without_running_the_model(monkeypatch):
    from models import experiments

    def refuse(*_args, **_kwargs):
        raise AssertionError("a lesson ran the model while loading")
    monkeypatch.setattr(experiments, "run_experiment", refuse)
    lessons._CACHE.clear()
    lesson = lessons.load(lessons.LESSONS / "rmf_calibrate.json")
    assert lesson._calibrations == {}
