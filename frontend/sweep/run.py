"""``run_sweep``: every (point, workload) of an Experiment, cached, in parallel.

Tasks are the points (``Experiment.points()``, first axis slowest) crossed with the
workloads, in that order; results are assembled in that order whatever order the
workers finish in, so the table is the same for any ``jobs`` and any cluster.
A task whose cache key (:mod:`.cache`) is already on disk is not run again.

Parallelism: ``jobs=1`` runs in this process; ``jobs>1`` uses a
``concurrent.futures.ProcessPoolExecutor`` (spawned workers, which ignore SIGINT so a
Ctrl-C reaches only this process); ``cluster="tcp://host:8786"`` submits to a Dask
distributed scheduler (:mod:`.cluster`). On KeyboardInterrupt the queued tasks are
cancelled, the ones already handed to workers (the pool passes each worker one task
ahead) are waited for and cached, and the interrupt is re-raised.
"""
from __future__ import annotations

import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from ..errors import DeviceError, readable_device_error
from .cache import PointCache, point_key, simulator_version
from .experiment import Experiment
from .point import run_point


class SweepPointError(Exception):
    """One point of a sweep failed (a chip value its workload cannot run on, e.g. a UB
    too small for a tiling). The message names the point and the frontend's reason;
    the points finished before it stay cached, so a corrected sweep resumes."""


def _point(t: dict, timing_only: bool, mode: str) -> dict:
    """:func:`run_point` for one task, its failure re-raised as :class:`SweepPointError`."""
    try:
        return run_point(t["chip"], t["workload"], timing_only, mode)
    except Exception as e:  # noqa: BLE001 - the frontend's typed errors, named with the point
        where = ", ".join(f"{k}={v}" for k, v in t["values"].items())
        why = readable_device_error(e, t["chip"].get("name", "?")) if isinstance(e, DeviceError) else e
        raise SweepPointError(f"point {where} ({t['label']}): {why}") from None


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def task_list(exp: Experiment) -> list[dict]:
    """The tasks of ``exp``: dicts with index, point index, values, workload (dict and
    label), full chip dump and cache key."""
    tasks = []
    for pi, values in enumerate(exp.points()):
        chip = exp.chip_at(values).model_dump(mode="json")
        for wi, wl in enumerate(exp.workloads):
            wd = wl.model_dump(mode="json")
            tasks.append({"index": len(tasks), "point": pi, "values": values, "workload": wd, "label": wl.label,
                          "chip": chip, "key": point_key(chip, wd, exp.mode, exp.timing_only)})
    return tasks


def run_sweep(experiment: Experiment | dict | str | Path, out: str | Path | None = None, *, jobs: int = 1,
              cluster: str | Any | None = None, progress: bool = True, console=None):
    """Run every task of ``experiment`` (an Experiment, a mapping or a YAML path).

    ``out``: directory for the cache (``out/cache/``) and the results
    (``results.csv``, ``results.json``, ``results.parquet`` when pyarrow is
    installed); None keeps nothing on disk. ``jobs``: worker processes. ``cluster``:
    a Dask scheduler address or ``distributed.Client`` (overrides ``jobs``).
    Returns the table (:func:`.report.table`): a pandas DataFrame if pandas is
    installed, else a list of dicts, one row per (point, workload).
    Raises ExperimentError for an invalid experiment, SweepPointError naming the
    first point its workload cannot run on, KeyboardInterrupt when interrupted
    (finished points stay cached in both cases)."""
    from .report import table, write_results
    exp = _as_experiment(experiment)
    tasks = task_list(exp)
    cache = PointCache(Path(out) / "cache") if out is not None else None
    results: dict[int, dict] = {}
    todo = []
    for t in tasks:
        hit = cache.get(t["key"]) if cache else None
        if hit is not None:
            results[t["index"]] = hit
        else:
            todo.append(t)
    bar = _Bar(len(tasks), len(results), progress, console)

    def done(t: dict, res: dict) -> None:
        results[t["index"]] = res
        if cache is not None:
            cache.put(t["key"], res)
        bar.advance(t["label"])

    t0 = time.perf_counter()
    with bar:
        if not todo:
            pass
        elif cluster is not None:
            from .cluster import run_on_cluster
            run_on_cluster(cluster, todo, exp.timing_only, done, exp.mode)
        elif jobs <= 1:
            for t in todo:
                done(t, _point(t, exp.timing_only, exp.mode))
        else:
            _run_pool(todo, jobs, exp.timing_only, done, exp.mode)
    ran = {x["index"] for x in todo}
    rows = [_row(t, results[t["index"]], t["index"] not in ran) for t in tasks]
    meta = {"experiment": exp.model_dump(mode="json"), "version": simulator_version(), "tasks": len(tasks),
            "ran": len(todo), "cached": len(tasks) - len(todo), "wall_s": time.perf_counter() - t0}
    if out is not None:
        write_results(Path(out), exp, tasks, results, rows, meta)
    return table(rows)


def _run_pool(todo: list[dict], jobs: int, timing_only: bool, done, mode: str = "graph") -> None:
    import multiprocessing as mp
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn"), initializer=_ignore_sigint)
    futures = {pool.submit(_point, t, timing_only, mode): t for t in todo}
    handled = set()
    try:
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                handled.add(f)
                done(futures[f], f.result())
    except SweepPointError:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    except KeyboardInterrupt:
        for f in futures:
            f.cancel()
        for f, t in futures.items():   # the points already running or finished: wait for them and cache them
            if f in handled or f.cancelled():
                continue
            try:
                done(t, f.result())
            except Exception:  # noqa: BLE001 - interrupted anyway; a failing point is simply not cached
                pass
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _as_experiment(x) -> Experiment:
    if isinstance(x, Experiment):
        return x
    if isinstance(x, dict):
        return Experiment.from_dict(x)
    return Experiment.from_yaml(x)


def _row(t: dict, res: dict, cached: bool) -> dict:
    from .experiment import METRICS
    row = {"point": t["point"], "workload": t["label"], **t["values"]}
    row.update({m: res.get(m) for m in METRICS})
    row["kernels"] = res.get("kernels")
    row["cached"] = cached
    return row


class _Bar:
    """A rich progress bar of tasks done / left with the estimated time left."""

    def __init__(self, total: int, done: int, enabled: bool, console):
        self.enabled = enabled
        if enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
                TimeRemainingColumn
            self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TextColumn("{task.fields[left]} left"), TimeElapsedColumn(),
                                     TextColumn("ETA"), TimeRemainingColumn(), console=console, transient=False)
            self.task = self.progress.add_task("sweep", total=total, completed=done, left=total - done)
        self.total, self.done = total, done

    def advance(self, label: str) -> None:
        self.done += 1
        if self.enabled:
            from rich.markup import escape
            self.progress.update(self.task, advance=1, left=self.total - self.done,
                                 description=f"sweep [dim]{escape(label)}[/]")

    def __enter__(self):
        if self.enabled:
            self.progress.start()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self.progress.stop()
