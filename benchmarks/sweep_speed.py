"""Sweep throughput: points per minute of ``run_sweep`` on ResNet-50, timing-only.

    python -m benchmarks.sweep_speed [--points 6] [--jobs 1,2]

Each point is the light ResNet-50 (batch 1) on ascend910b2 with a different HBM
bandwidth; the cache is a fresh temporary directory per run, so every point is
simulated. Wall time includes starting the worker processes and each worker's first
load of the ONNX graph (amortised over the points it runs). Real seconds on this
machine, not simulated time.
"""
from __future__ import annotations

import argparse
import tempfile
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--points", type=int, default=6)
    p.add_argument("--jobs", default="1,2")
    args = p.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    from frontend.sweep import Experiment, run_sweep
    exp = Experiment.from_dict({"name": "sweep-speed", "chip": "ascend910b2",
                                "axes": {"hbm_bandwidth_bytes_per_ns": [400 + 200 * i for i in range(args.points)]},
                                "workloads": [{"model": "light_resnet50"}]})
    t = Table(title=f"run_sweep on light_resnet50, timing-only, {args.points} points", title_justify="left")
    for c in ("jobs", "wall s", "points/min"):
        t.add_column(c, justify="right")
    for jobs in (int(j) for j in args.jobs.split(",")):
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            run_sweep(exp, d, jobs=jobs, progress=False)
            wall = time.perf_counter() - t0
        t.add_row(str(jobs), f"{wall:.1f}", f"{args.points / wall * 60:.1f}")
    Console().print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
