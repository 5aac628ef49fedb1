"""The Dask path (--cluster) against a LocalCluster: the same results as the local path."""
from __future__ import annotations

import pytest

from frontend.sweep import Experiment, run_sweep
from frontend.sweep.report import records

distributed = pytest.importorskip("distributed")

EXP = {"name": "dask", "chip": "tiny", "axes": {"hbm_bandwidth_bytes_per_ns": [25, 100]},
       "workloads": [{"op": "softmax", "shapes": [[64, 512]]}, {"op": "matmul", "shapes": [[128, 256], [256, 128]]}]}


def _numbers(tab):
    return [{k: (None if isinstance(v, float) and v != v else v) for k, v in r.items() if k != "cached"}
            for r in records(tab)]


def test_dask_local_cluster_matches_local(tmp_path):
    exp = Experiment.from_dict(EXP)
    local = _numbers(run_sweep(exp, None, progress=False))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        remote = run_sweep(exp, tmp_path, cluster=lc.scheduler_address, progress=False)
    assert _numbers(remote) == local
    assert len(list((tmp_path / "cache").glob("*.json"))) == 4
    again = records(run_sweep(exp, tmp_path, cluster="tcp://127.0.0.1:1", progress=False))   # all cached: no connect
    assert all(r["cached"] for r in again)
