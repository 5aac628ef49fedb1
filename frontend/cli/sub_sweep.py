"""``npu-sim sweep EXPERIMENT.yaml [--out DIR] [--jobs N] [--cluster ADDRESS]``: run an
architecture experiment (frontend.sweep), cached and resumable, then print the
table and write results and plots into DIR."""
from __future__ import annotations

from .common import CliError, writable_dir
from .parser import _pos_int


def add_parser(sub) -> None:
    p = sub.add_parser("sweep", help="run an architecture experiment (chip fields x workloads)",
                       description="Run every point of an experiment YAML (chip config fields varied over "
                                   "workloads) in timing-only mode, in parallel, caching each point in "
                                   "DIR/cache so an interrupted or extended sweep resumes. Writes "
                                   "DIR/results.csv and results.json, plots (matplotlib) and a table.")
    p.add_argument("experiment", help="experiment .yaml (see experiments/ and frontend/sweep/experiment.py)")
    p.add_argument("--out", default=None, help="output directory (default: sweep_<experiment name>)")
    p.add_argument("--jobs", type=_pos_int, default=1, help="worker processes (default 1)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask scheduler, e.g. tcp://127.0.0.1:8786 "
                                                         "(optional extra `cluster`)")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_sweep)


def cmd_sweep(args, console) -> int:
    from rich.markup import escape

    from ..sweep import Experiment, ExperimentError, SweepPointError, run_sweep
    from ..sweep.report import print_table
    try:
        exp = Experiment.from_yaml(args.experiment)
    except ExperimentError as e:
        raise CliError(str(e)) from None
    out = writable_dir(args.out or f"sweep_{exp.name}")
    try:
        tab = run_sweep(exp, out, jobs=args.jobs, cluster=args.cluster, progress=not args.no_progress,
                        console=console)
    except (ImportError, SweepPointError) as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"sweep failed: {e}", 1) from None
    print_table(console, exp, tab)
    console.print(f"results: {escape(str(out))}/results.csv, results.json", highlight=False)
    if not args.no_plots:
        try:
            from ..sweep.plots import make_plots
            pngs = make_plots(exp, tab, out / "plots")
            console.print(f"plots: {len(pngs)} PNGs in {escape(str(out / 'plots'))}/", highlight=False)
        except ImportError:
            console.print("[yellow]no plots:[/] matplotlib is missing (pip install 'npu-sim[plot]')")
    return 0
