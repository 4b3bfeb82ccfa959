"""A run says which phase it is in (issue 42): on a big drawing the set-up and
the cache warm-up take seconds before the first progress, and the status bar
said only "Running …" with an empty bar."""
from models import experiments


def test_the_status_bar_names_each_phase_of_a_run_in_order(window):
    win = window
    assert win.open_case_or_file("custom") is None
    said: list[str] = []
    win.runner.worker.phased.connect(said.append)
    shown: list[str] = []
    say = win.say
    win.say = lambda text: (shown.append(text), say(text))[1]
    win.run_and_wait(120)
    assert [s.split(" ")[0] for s in said] == ["setting", "warming", "simulating"]
    assert said[0] == "setting up 4 volumes" and said[2] == "simulating 2 s"
    title = experiments.get("custom").title
    assert f"Running {title}: warming the caches…" in shown
    assert shown[-1].startswith("Finished")          # the last word is the result's


def test_a_model_without_phases_says_none_and_runs_as_before():
    said: list[str] = []
    result = experiments.run_experiment("library_space", {}, seed=1, phase=said.append)
    assert said == [] and result.metrics
