"""A worker that crashes does not hang the suite (tests/xdist_by_module.py).

With xdist 3.8's own module scheduler a replacement worker handed one test
waited for ever: CI ran until its time was out, and nothing landed.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_crashed_worker_is_replaced_and_the_rest_still_runs(tmp_path):
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        import pytest

        @pytest.hookimpl(optionalhook=True)
        def pytest_xdist_make_scheduler(config, log):
            from tests.xdist_by_module import make_scheduler
            return make_scheduler(config, log)
    """))
    (tmp_path / "test_a.py").write_text("def test_a():\n    pass\n")
    (tmp_path / "test_b.py").write_text(
        "import os\n\ndef test_crash():\n    os._exit(1)\n\ndef test_after_the_crash():\n    pass\n")
    (tmp_path / "test_c.py").write_text("def test_c():\n    pass\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "1",
             "--max-worker-restart", "3", str(tmp_path)],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired as hung:
        raise AssertionError(f"the run hung after the crash:\n{hung.stdout}") from None
    last = done.stdout.strip().splitlines()[-1]
    # The crash is one failure; the test after it and the other modules pass, once.
    assert "1 failed, 3 passed" in last, done.stdout
