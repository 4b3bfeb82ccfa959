"""Result keys without a declared title still read as a person writes them."""
from app.export import result_tables
from models.core.params import key_words
from models.experiments import run_experiment


def test_key_words_spells_abbreviations():
    assert key_words("cf_requests_per_tran") == "CF requests per transaction"
    assert key_words("dasd_ios_per_tran") == "DASD I/Os per transaction"
    assert key_words("buffer_hit_pct") == "Buffer hit %"
    assert key_words("log_ms") == "Log ms"


def test_vsam_rls_metrics_table_reads_cf_and_dasd():
    result = run_experiment("vsam_rls", {"transactions": 200})
    titles = [row[0] for row in result_tables(result)[0].rows]
    assert "CF requests per transaction" in titles
    assert "DASD I/Os per transaction" in titles
    assert not any(t.startswith(("Cf ", "Dasd ")) for t in titles)


def test_vsam_rls_explaining_figures_have_titles_not_keys_in_words():
    result = run_experiment("vsam_rls", {"transactions": 200})
    titles = [row[0] for row in result_tables(result)[0].rows]
    assert "Log writes per transaction" in titles and "File wait actually spent" in titles
    assert not any(t.endswith((" ms", " pct")) or " true " in t for t in titles), titles
