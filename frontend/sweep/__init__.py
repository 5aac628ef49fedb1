"""Architecture experiments: sweep chip config fields over workloads.

    from frontend.sweep import Experiment, run_sweep
    exp = Experiment.from_yaml("experiments/hbm_bandwidth.yaml")
    df = run_sweep(exp, out="sweep_out", jobs=2)     # DataFrame (pandas) or list of dicts

or ``npu-sim sweep EXPERIMENT.yaml --out DIR --jobs N [--cluster ADDRESS]``.

Modules: :mod:`.experiment` (the Experiment model, points, validation),
:mod:`.workloads` (single-op workloads), :mod:`.point` (one point: run and metrics),
:mod:`.cache` (on-disk cache by config hash), :mod:`.run` (run_sweep: local processes),
:mod:`.cluster` (Dask), :mod:`.report` (files and table), :mod:`.plots` (PNGs).
"""
from __future__ import annotations

from .experiment import DEFAULT_METRICS, METRICS, Experiment, ExperimentError
from .run import SweepPointError, run_sweep, task_list

__all__ = ["Experiment", "ExperimentError", "METRICS", "DEFAULT_METRICS", "run_sweep", "task_list", "SweepPointError"]
