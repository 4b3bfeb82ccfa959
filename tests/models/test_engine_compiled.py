"""The compiled engine and I/O model run the same events in the same order, and
give the same figures, as their sources interpreted.

Each run is a fresh interpreter (tests/models/engine_sequence.py): one with
the compiled engine, one with ``ZPERFLAB_ENGINE=python``. Without a build
(no compiler) the comparison is skipped and says so; CI builds the engine
(packaging/setup.sh) and sets ``ZPERFLAB_REQUIRE_COMPILED=1``, so there a
missing build fails instead.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(engine: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), ZPERFLAB_ENGINE=engine)
    done = subprocess.run([sys.executable, "-m", "tests.models.engine_sequence"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def interpreted() -> dict:
    out = _run("python")
    assert out["compiled"] is False
    return out


@pytest.fixture(scope="module")
def compiled() -> dict:
    out = _run("")
    if not out["compiled"] or not out["io_compiled"]:
        if os.environ.get("ZPERFLAB_REQUIRE_COMPILED"):
            pytest.fail("ZPERFLAB_REQUIRE_COMPILED is set but the engine or the I/O model is "
                        "not compiled: bash packaging/setup.sh did not build models/engine/core "
                        "and the modules of models.io.COMPILED_MODULES")
        pytest.skip("no compiled engine is built here (bash packaging/setup.sh builds it "
                    "when a C compiler is present); CI builds it and requires it")
    return out


def test_the_toy_model_uses_every_part_of_the_engine(interpreted):
    labels = [label for _t, label in interpreted["events"]]
    for part in ("disk req", "cpu", "put", "got ", "cb ", "all done", "sleeper interrupted one",
                 "waiter interrupted two", "timeout late", "first 0", "peek", "until 4",
                 "impatient gave up", "disk q"):
        assert any(part in label for label in labels), part
    # The FIFO queue's statistics are compared while it holds waiters, and a
    # request is withdrawn while queued.
    assert any(label.startswith("disk q ") and not label.startswith("disk q 0 ")
               for label in labels)
    assert any(label.startswith("impatient queued True") for label in labels)
    # Many events share a time, so their order rests on (priority, seq).
    times = [t for t, _label in interpreted["events"]]
    assert len(times) - len(set(times)) > 20


def test_compiled_engine_runs_the_same_events_in_the_same_order(interpreted, compiled):
    assert compiled["events"] == interpreted["events"]


def test_compiled_engine_gives_the_same_model_figures_and_traces(interpreted, compiled):
    assert compiled["models"] == interpreted["models"]
    assert any(key.endswith("/trace/digest") for key in compiled["models"])


def test_the_compiled_run_loads_every_compiled_io_module_and_the_other_none(interpreted, compiled):
    """So the figures compared above came from the I/O model's builds (and from
    its sources with ZPERFLAB_ENGINE=python)."""
    assert compiled["io_modules"] and all(compiled["io_modules"].values())
    assert interpreted["io_compiled"] is False and not any(interpreted["io_modules"].values())
    for case in ("io_config_scale", "db2_io_cold_ficon", "custom_seq_writes", "custom_closed",
                 "background"):
        assert any(key.startswith(case + "/") for key in compiled["models"]), case


def _copy_engine(tmp_path: Path) -> Path:
    """models/engine, with its build, in a tree of its own (mtimes are the test's to set)."""
    import shutil

    built = sorted((ROOT / "models" / "engine").glob("core.*.so"))
    if not built:
        pytest.skip("no compiled engine is built here (bash packaging/setup.sh builds it)")
    dest = tmp_path / "models" / "engine"
    dest.mkdir(parents=True)
    shutil.copy(ROOT / "models" / "__init__.py", dest.parent)
    for f in (ROOT / "models" / "engine").iterdir():
        if f.suffix in (".py", ".pxd", ".so"):
            shutil.copy(f, dest)
    return dest


def _import_engine(tree: Path, engine: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(tree), ZPERFLAB_ENGINE=engine)
    return subprocess.run([sys.executable, "-c", "import models.engine as e; print(e.COMPILED)"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=60)


def test_a_build_older_than_core_py_is_not_used_and_says_so_once(tmp_path):
    dest = _copy_engine(tmp_path)
    so = next(dest.glob("core.*.so"))
    t = so.stat().st_mtime
    for f in dest.iterdir():                # the build newer than its sources: used
        os.utime(f, (t - 10, t - 10) if f != so else (t, t))
    fresh = _import_engine(tmp_path)
    assert (fresh.stdout.strip(), fresh.stderr) == ("True", "")
    os.utime(dest / "core.py", (t + 10, t + 10))    # core.py edited after the build
    stale = _import_engine(tmp_path)
    assert stale.stdout.strip() == "False"
    assert stale.stderr.splitlines() == [
        "zperflab: the compiled engine is older than models/engine/core.py; running it "
        "interpreted (bash packaging/setup.sh rebuilds it)"]


def _copy_models(tmp_path: Path) -> Path:
    """The models package with its builds, in a tree of its own (mtimes are the test's)."""
    import shutil

    if not sorted((ROOT / "models" / "io").glob("volume.*.so")):
        pytest.skip("no compiled I/O model is built here (bash packaging/setup.sh builds it)")
    shutil.copytree(ROOT / "models", tmp_path / "models",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c", "*.html"))
    return tmp_path / "models"


def _import_io(tree: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(tree), ZPERFLAB_ENGINE="")
    code = ("import models.io as io, models.io.volume as v; "
            "print(io.COMPILED, v.__file__.endswith('.py'))")
    return subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=120)


def test_an_io_build_older_than_a_pxd_it_cimports_is_not_used_and_says_so_once(tmp_path):
    models = _copy_models(tmp_path)
    builds = [f for d in ("engine", "io") for f in (models / d).iterdir() if f.suffix == ".so"]
    t = max(f.stat().st_mtime for f in builds)
    for d in ("engine", "io"):
        for f in (models / d).iterdir():      # every build newer than every source: used
            os.utime(f, (t, t) if f in builds else (t - 10, t - 10))
    fresh = _import_io(tmp_path)
    assert (fresh.stdout.split(), fresh.stderr) == (["True", "False"], "")
    os.utime(models / "io" / "staging.pxd", (t + 10, t + 10))    # volume.pxd cimports it
    stale = _import_io(tmp_path)
    assert stale.stdout.split() == ["False", "True"]
    assert stale.stderr.splitlines() == [
        "zperflab: the compiled I/O model is missing models/io/staging or older than its "
        "sources; running it interpreted (bash packaging/setup.sh rebuilds it)"]


def test_zperflab_engine_python_runs_core_py_even_with_a_build(tmp_path):
    _copy_engine(tmp_path)
    forced = _import_engine(tmp_path, "python")
    assert (forced.stdout.strip(), forced.stderr) == ("False", "")


def test_a_dropped_engine_with_events_still_pending_is_freed():
    """The C heap keeps callbacks where the garbage collector sees them: an engine
    dropped mid-run (cycles engine -> heap -> process -> engine) is collected."""
    import gc
    import weakref

    from models.engine import Engine, Resource

    def user(disk):
        while True:
            yield disk
            yield 1.0
            disk.release()

    eng = Engine()
    disk = Resource(eng, 2)
    gens = [user(disk) for _ in range(50)]
    for gen in gens:
        eng.process(gen)
    eng.run(until=5.5)
    assert eng.peek() < float("inf")        # events still pending, processes queued
    refs = [weakref.ref(gen) for gen in gens]
    del eng, disk, gens, gen
    gc.collect()
    assert [r for r in refs if r() is not None] == []


def test_a_resource_takes_a_whole_number_of_servers_compiled_or_not():
    from models.engine import Engine, Resource

    eng = Engine()
    assert Resource(eng, 3.0).capacity == 3        # e.g. aliases read as 3.0
    with pytest.raises(ValueError, match="whole number of servers"):
        Resource(eng, 2.5)
