"""``zperflab --version``: the version, the Python and Qt it runs on, and
where this user's run history and settings live."""
import os
import platform
import subprocess
import sys
from pathlib import Path

import app

ROOT = Path(__file__).resolve().parents[2]


def version_output(data: Path, settings_file: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "ZPERFLAB_DATA_DIR": str(data), "ZPERFLAB_SETTINGS": str(settings_file)}
    return subprocess.run([sys.executable, "-m", "app", "--version"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_version_names_the_release_python_qt_and_the_users_data(tmp_path):
    from PySide6.QtCore import qVersion

    out = version_output(tmp_path / "data", tmp_path / "conf" / "zperflab.ini")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    lines = out.stdout.splitlines()
    assert lines[0] == f"zPerfLab {app.__version__}"
    assert app.__version__[0].isdigit()
    rows = dict(line.split(":", 1) for line in lines[1:])
    rows = {k: v.strip() for k, v in rows.items()}
    assert rows["Python"] == platform.python_version()
    assert rows["Qt"].split()[0] == qVersion()
    assert rows["Run history"] == str(tmp_path / "data" / "history.sqlite3")
    assert rows["Settings"] == str(tmp_path / "conf" / "zperflab.ini")
    assert Path(rows["Installed in"], "resources", "scenarios", "db2_io.json").is_file()


def test_the_package_version_is_the_one_the_program_reports():
    """setup.cfg takes its version from app.__version__ (one place to change)."""
    import configparser

    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    assert cfg["metadata"]["version"] == "attr: app.__version__"
