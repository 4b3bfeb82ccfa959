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
    assert "Contracts: 5 kept, 0 broken." in out.stdout


def test_the_contracts_catch_a_models_module_importing_the_app_layer(tmp_path):
    """The hole: ``from app import settings`` in models/drawing/scenario.py loads
    PySide6 through app.settings. Both contracts must fail on it."""
    for name in ("models", "app", "ui", "resources"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    scenario = tmp_path / "models" / "drawing" / "scenario.py"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("from __future__ import annotations\n",
                                     "from __future__ import annotations\n\n"
                                     "from app import settings  # noqa: F401\n", 1),
                        encoding="utf-8")
    out = _lint(tmp_path)
    assert out.returncode != 0
    broken = out.stdout.split("Broken contracts")[1]
    assert "ui may use app and models; app may use models; models uses neither" in broken
    assert "models imports no Qt" in broken
    assert "models.drawing.scenario -> app.settings" in out.stdout


def test_models_run_with_qt_blocked():
    """Importing every experiment and running validate's loader pulls in no Qt."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {FORBIDDEN!r}: raise ImportError('Qt blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from models import experiments\nfrom models.studies import calibration\n"
        "experiments.registry()\n"
        "calibration.load_targets()\n"
        "import app.cli\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def _copy_tree(tmp_path: Path) -> Path:
    for name in ("models", "app", "ui", "resources"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


def _put_back(path: Path, anchor: str, line: str) -> None:
    """Insert ``line`` (a function-local import, as the old code had) after ``anchor``."""
    text = path.read_text(encoding="utf-8")
    assert anchor in text, anchor
    path.write_text(text.replace(anchor, anchor + line, 1), encoding="utf-8")


def test_the_contracts_catch_the_drawing_asking_the_experiments_again(tmp_path):
    """The old circle: the hardware shorthand looked the schema up in the
    experiment registry with a function-local import. Putting it back breaks
    the no-cycle contract and the drawing's independence."""
    where = _copy_tree(tmp_path)
    _put_back(where / "models" / "drawing" / "hardware.py",
              "    schema = catalog.experiment(sc.experiment).schema\n",
              "    from models import experiments  # noqa: F401\n")
    out = _lint(where)
    assert out.returncode != 0
    assert "Contracts: 3 kept, 2 broken." in out.stdout
    assert "no import cycles among the modules" in out.stdout.split("Broken contracts")[1]
    assert "models.drawing.hardware -> models.experiments" in out.stdout


def test_the_contracts_catch_the_sweep_command_taking_the_cli_helpers_again(tmp_path):
    """The old app circle: sweep_cli imported cli's helpers inside a function."""
    where = _copy_tree(tmp_path)
    _put_back(where / "app" / "sweep_cli.py", "from __future__ import annotations\n",
              "\n\ndef _old():\n    from app.cli import main  # noqa: F401\n")
    out = _lint(where)
    assert out.returncode != 0
    assert "Contracts: 4 kept, 1 broken." in out.stdout
    assert ".sweep_cli -> .cli" in out.stdout or ".cli -> .sweep_cli" in out.stdout
