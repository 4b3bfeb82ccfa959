"""Test set-up: Qt runs headless (offscreen platform) everywhere."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    """Run history and other user data go to a temporary folder, never the user's."""
    monkeypatch.setenv("ZPERFLAB_DATA_DIR", str(tmp_path / "data"))
