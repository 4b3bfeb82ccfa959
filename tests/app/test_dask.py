"""``zperflab sweep --dask``: the same points on a Dask distributed cluster give
the same numbers as the local pool. Dask is the ``cluster`` extra, which the
README's test command installs, so this runs in CI rather than skipping."""
import json

import pytest
from dask.distributed import LocalCluster

from app import cli
from app.sweep import ClusterError, run_points, run_points_dask
from models.studies.sweep import GridSpec


@pytest.fixture(scope="module")
def cluster():
    # In-process scheduler and one worker with two threads: quick to start.
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as c:
        yield c


def test_dask_gives_the_local_pools_numbers(cluster):
    spec = GridSpec("program_fetch", (("device", ("HDD15K", "SSD")),), replications=2, seed=3)
    points = spec.points()
    seen = []
    on_dask = run_points_dask(cluster.scheduler_address, spec.runner, spec.experiment, points,
                              progress=lambda d, n: seen.append((d, n)))
    local = run_points(spec.runner, spec.experiment, points, workers=2)
    assert on_dask == local
    assert seen[-1] == (4, 4)
    assert on_dask[0]["elapsed_s"] != on_dask[1]["elapsed_s"]     # two seeds, two samples


def test_sweep_command_on_a_cluster(cluster, capsys):
    argv = ["sweep", "db2_io", "--over", "pages=1,8", "--over", "device=HDD15K,SSD", "--json"]
    assert cli.main([*argv, "--dask", cluster.scheduler_address]) == 0
    on_dask = json.loads(capsys.readouterr().out)
    assert cli.main([*argv, "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == on_dask
    assert on_dask["complete"] and len(on_dask["points"]) == 4


def test_an_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr("app.sweep.DASK_CONNECT_S", 0.5)
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run_points_dask("tcp://127.0.0.1:9", "models.experiments:run_experiment", "db2_io",
                        [({}, 1)])
