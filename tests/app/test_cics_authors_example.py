"""The built-in example ``cics_authors_mix``: the RLS study authors' own CICS
environment (Longpela 2020) beside the Share mix of the ``vsam_rls`` case."""
import json

from app import scenario_io
from app.cli import main


def test_the_authors_mix_is_a_built_in_example_with_their_settings():
    assert "cics_authors_mix" in scenario_io.example_names()
    sc = scenario_io.load_case("cics_authors_mix")
    assert sc.experiment == "vsam_rls"
    assert sc.title.startswith("CICS files, the authors' own mix:")


def test_the_authors_mix_runs_from_the_command_line(capsys):
    code = main(["run", "--scenario", "cics_authors_mix", "--set", "transactions=2000", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    p, m = out["params"], out["metrics"]
    assert p["log"] == "ALL" and p["regions"] == 3 and p["side_by_side"]
    assert p["mix"]["read"] + p["mix"]["browse"] >= 90
    # Mostly reads, yet forced DFHLOG and forward-recovery writes (each waiting
    # out the log defer interval in a quiet region) are most of a transaction.
    assert m["log_ms"] > 0.5 * m["tran_resp_ms"]
    assert m["file_resp_ms"] < 0.2 * m["tran_resp_ms"]
