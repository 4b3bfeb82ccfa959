"""Two components with one label would merge in every report: refused."""
import json
from pathlib import Path

import pytest

from app.cli import main
from models import experiments  # noqa: F401  (installs the experiments the drawing names)
from models.drawing.scenario import Scenario, ScenarioError

CUSTOM = Path(__file__).resolve().parents[2] / "resources" / "scenarios" / "custom.json"


def _custom_with_prd002_renamed(tmp_path):
    doc = json.loads(CUSTOM.read_text(encoding="utf-8"))
    for n in doc["nodes"]:
        if n["label"] == "PRD002":
            n["label"] = "PRD001"
    path = tmp_path / "dup.zpl.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_file_with_two_components_of_one_label_is_refused_with_the_label(tmp_path, capsys):
    path = _custom_with_prd002_renamed(tmp_path)
    code = main(["run", "--scenario", str(path), "--json"])
    err = capsys.readouterr().err
    assert code == 2
    assert "two components are labelled 'PRD001'" in err
    assert err.count("\n") == 1


def test_the_drawing_refuses_a_duplicate_label_when_renaming_or_adding():
    sc = Scenario.from_dict(json.loads(CUSTOM.read_text(encoding="utf-8")))
    vols = sorted((n for n in sc.nodes.values() if n.category == "volume"), key=lambda n: n.label)
    with pytest.raises(ScenarioError, match="labelled 'PRD001'"):
        sc.set_label(vols[1].id, "PRD001")
    assert sc.nodes[vols[1].id].label == "PRD002"
    dup = vols[0].copy()
    dup.id = sc.new_id()
    with pytest.raises(ScenarioError, match="unique"):
        sc.add_node(dup)


def test_every_volume_keeps_its_own_row_in_the_run():
    """With unique labels each volume reports its own figures (no merged row)."""
    result = experiments.run_experiment("custom")
    vols = [n for n in experiments.drawing("custom").nodes.values() if n.category == "volume"]
    assert {v.label for v in vols} <= set(result.components)
