"""Layer rules, checked by import-linter's contracts (.importlinter).

``ui`` may use ``app`` and ``models``; ``app`` may use ``models``; ``models``
uses neither and imports no PySide6, shiboken6 or pyqtgraph, not even
indirectly. The contracts are checked on the code, and shown to catch the
hole the hand-written check had (a models module importing ``app.settings``,
which loads PySide6).
"""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6")


def _lint(where: Path) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(where), "HOME": str(where)}
    return subprocess.run([str(LINT), "--config", str(where / ".importlinter"), "--no-cache"],
                          cwd=where, capture_output=True, text=True, env=env, timeout=300)


def test_the_layer_contracts_hold_on_the_code():
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "Contracts: 2 kept, 0 broken." in out.stdout


def test_the_contracts_catch_a_models_module_importing_the_app_layer(tmp_path):
    """The hole: ``from app import settings`` in models/scenario.py loads
    PySide6 through app.settings. Both contracts must fail on it."""
    for name in ("models", "app", "ui", "resources"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    scenario = tmp_path / "models" / "scenario.py"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("from __future__ import annotations\n",
                                     "from __future__ import annotations\n\n"
                                     "from app import settings  # noqa: F401\n", 1),
                        encoding="utf-8")
    out = _lint(tmp_path)
    assert out.returncode != 0
    assert "Contracts: 0 kept, 2 broken." in out.stdout
    assert "models.scenario -> app.settings" in out.stdout


def test_models_run_with_qt_blocked():
    """Importing every experiment and running validate's loader pulls in no Qt."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {FORBIDDEN!r}: raise ImportError('Qt blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from models import experiments, calibration\n"
        "experiments.registry()\n"
        "calibration.load_targets()\n"
        "import app.cli\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
