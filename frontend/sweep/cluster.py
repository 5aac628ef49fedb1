"""Run sweep tasks on a Dask distributed cluster (optional extra ``cluster``:
``pip install 'npu-sim[cluster]'``, i.e. dask and distributed).

The scheduler runs :func:`frontend.sweep.point.run_point` on its workers; results
come back here, where they are cached and assembled exactly as for local runs, so a
cluster sweep gives the same table (workers need npu-sim installed, same version).
Start a cluster with ``dask scheduler`` and ``dask worker tcp://HOST:8786``.
"""
from __future__ import annotations

from typing import Any, Callable

from .point import run_point


def run_on_cluster(cluster: str | Any, todo: list[dict], timing_only: bool, done: Callable[[dict, dict], None],
                   mode: str = "graph") -> None:
    """Submit every task of ``todo`` to ``cluster`` (a scheduler address such as
    ``"tcp://127.0.0.1:8786"`` or a ``distributed.Client``) and call ``done(task, result)``
    as each finishes. Raises ImportError naming the extra when distributed is missing,
    OSError when the scheduler cannot be reached."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ImportError("--cluster needs dask.distributed: pip install 'npu-sim[cluster]' "
                          "(or pip install dask distributed)") from None
    own = not isinstance(cluster, Client)
    client = Client(cluster, timeout="10s") if own else cluster
    try:
        futures = {}
        for t in todo:
            f = client.submit(run_point, t["chip"], t["workload"], timing_only, mode, key=f"npu-sim-point-{t['key']}",
                              pure=True)
            futures[f] = t
        for f in as_completed(list(futures)):
            done(futures[f], f.result())
    finally:
        if own:
            client.close()
