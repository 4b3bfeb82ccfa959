"""Packaging: the wheel carries every data file, setuptools has nothing to warn
about, and an installed copy finds its data where it was installed.

Builds a real wheel with pip (build isolation fetches setuptools, as
``packaging/setup.sh`` does), from a copy of the tree with a new lessons
folder and a stray ``__pycache__`` in ``resources/``.
"""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("app", "models", "ui", "resources", "setup.cfg", "pyproject.toml", "README.md")


def _copy_tree(dest: Path) -> None:
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        else:
            shutil.copy(src, dest / name)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    src = tmp_path_factory.mktemp("src")
    _copy_tree(src)
    # Another engineer's new folder of lessons must ship without a setup.cfg edit.
    (src / "resources" / "lessons" / "first").mkdir(parents=True)
    (src / "resources" / "lessons" / "first" / "lesson.json").write_text("{}\n")
    (src / "resources" / "__pycache__").mkdir()
    (src / "resources" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0")
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                            "--disable-pip-version-check", "-w", str(out), str(src)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    return src, next(out.glob("zperflab-*.whl")), build.stdout + build.stderr


def test_building_the_package_prints_no_setuptools_warnings(wheel):
    _, _, output = wheel
    assert "Warning" not in output, output[:3000]
    assert output.strip() == "", output[:3000]


def test_the_wheel_holds_every_data_file_and_no_bytecode(wheel):
    src, whl, _ = wheel
    names = set(zipfile.ZipFile(whl).namelist())
    data = {p.relative_to(src).as_posix() for p in (src / "resources").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}
    assert "resources/lessons/first/lesson.json" in data
    assert "resources/calibration/targets.json" in data
    assert data - names == set()
    assert not [n for n in names if n.endswith(".pyc") or "__pycache__" in n]


def test_an_installed_copy_finds_its_own_data(wheel, tmp_path):
    """Installed away from the checkout, the data is looked up in the install."""
    _, whl, _ = wheel
    target = tmp_path / "site"
    inst = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--disable-pip-version-check", "--target", str(target), str(whl)],
                          capture_output=True, text=True, timeout=300)
    assert inst.returncode == 0, inst.stderr[-3000:]
    code = ("from models.core import resources\nfrom models.studies import calibration\n"
            "from app import scenario_io\n"
            "print(resources.RESOURCES)\n"
            "print(len(calibration.load_targets()))\n"
            "print(scenario_io.load_case('db2_io').experiment)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
                         timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    where, targets, case = run.stdout.split("\n")[:3]
    assert Path(where) == target / "resources"
    assert int(targets) > 0
    assert case == "db2_io"

    # The data is found wherever its package is importable, not by walking up
    # from the code's own files (a data package installed on its own path).
    elsewhere = tmp_path / "data"
    elsewhere.mkdir()
    (target / "resources").rename(elsewhere / "resources")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, env={"PYTHONPATH": f"{target}:{elsewhere}",
                                         "PATH": "/usr/bin:/bin"}, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split("\n")[:3] == [str(elsewhere / "resources"), targets, "db2_io"]
