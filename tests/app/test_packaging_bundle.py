"""The application bundle: ``bash packaging/build.sh`` builds the PyInstaller
folder and its tarball and checks them itself (unpacked into an empty folder,
started from an empty environment: ``--version`` and a case study run and
rendered offscreen, text drawn with the bundle's own fonts). This test runs
the script as CI does and checks what a desktop needs from the result.

About two minutes on a 2-core machine: marked ``bundle`` (``-m "not bundle"``
leaves it out of a quick local run).
"""
import configparser
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import app

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.bundle
def test_the_bundle_builds_checks_itself_and_installs_a_desktop_entry(tmp_path):
    dist = tmp_path / "dist"
    env = {**os.environ, "ZPERFLAB_PYTHON": sys.executable, "ZPERFLAB_DIST": str(dist),
           "ZPERFLAB_WORK": str(tmp_path / "work")}
    build = subprocess.run(["bash", str(ROOT / "packaging" / "build.sh")], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "zperflab build: OK" in build.stdout

    tarball = dist / f"zperflab-{app.__version__}-linux-{os.uname().machine}.tar.gz"
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
    share = "zperflab/share"
    for size in (48, 128, 256):
        assert f"{share}/icons/hicolor/{size}x{size}/apps/{app.APP_ID}.png" in names
    assert f"{share}/icons/hicolor/scalable/apps/{app.APP_ID}.svg" in names
    assert f"{share}/metainfo/{app.APP_ID}.metainfo.xml" in names
    assert "zperflab/zperflab" in names
    assert "zperflab/_internal/resources/calibration/targets.json" in names
    assert "zperflab/_internal/PySide6/Qt/plugins/platforms/libqoffscreen.so" in names

    # The desktop entry, installed for one user, starts this bundle's program.
    home = tmp_path / "home"
    home.mkdir()
    inst = subprocess.run(["sh", str(dist / "zperflab" / "install-desktop-entry.sh")],
                          env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=60)
    assert inst.returncode == 0, inst.stderr
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(home / ".local/share/applications" / f"{app.APP_ID}.desktop")
    desk = entry["Desktop Entry"]
    assert desk["Name"] == "zPerfLab"
    assert desk["Icon"] == app.APP_ID
    assert desk["Exec"] == f'"{dist / "zperflab" / "zperflab"}"'
    assert (home / ".local/share/icons/hicolor/256x256/apps" / f"{app.APP_ID}.png").is_file()
    assert (home / ".local/bin/zperflab").resolve() == dist / "zperflab" / "zperflab"
