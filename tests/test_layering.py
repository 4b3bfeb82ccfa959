"""models/ is pure Python + numpy: it must import no Qt, even indirectly."""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6")


def test_no_qt_import_statements_in_models():
    offenders = []
    for path in (ROOT / "models").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in FORBIDDEN or n.split(".")[0] in ("ui",):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {n}")
    assert offenders == []


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
