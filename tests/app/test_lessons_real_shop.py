"""Two lessons of issue 40 read as their screens do: rmf_read_reports' answer
names the CONN/DISC disagreement its response chart shows, the striping
lesson says why its four volumes differ and shows what its answer quotes;
their charts are the run's as the window titles them (a renamed chart left a
step showing nothing)."""
from app import cli, lessons


def _handout(capsys, name: str) -> str:
    assert cli.main(["lessons", name, "--text"]) == 0
    return capsys.readouterr().out


def test_rmf_read_reports_answer_names_conn_and_disc(capsys):
    assert lessons.check_runs(lessons.get("rmf_read_reports")) == []
    answer = _handout(capsys, "rmf_read_reports").split("Answer:")[1]
    assert "RMF's CONN is" in answer and "The model's DISC is" in answer
    assert "ms" in answer.split("CONN is")[1].split(".")[1]       # with its figures


def test_the_striping_lesson_explains_its_four_volumes(capsys):
    lesson = lessons.get("whatif_stripe_four_volumes")
    assert lessons.check_runs(lesson) == []
    text = _handout(capsys, "whatif_stripe_four_volumes")
    last = text.split("4. ")[1].split("Question:")[0]
    assert "The bars still differ" in last and "CLMV02 took" in last and "DISC" in last
    # The answer quotes the rank's busy; a step shows it (the cards on the canvas).
    assert any(step.view == "canvas" and "{rank_busy_pct}" in step.caption
               for step in lesson.steps)
    answer = text.split("Answer:")[1]
    assert "Rank R1 was" in answer


def test_no_lesson_names_a_chart_its_run_does_not_have():
    for name in ("rmf_read_reports", "rmf_whatif_baseline"):
        problems = [p for p in lessons.check_runs(lessons.get(name))
                    if "no chart" in p]
        assert problems == [], problems
