"""Global workspace planner on synthetic multi-stream graphs:
``python -m benchmarks.workspace_planner [--quick] [--seed N]``.

Each case is a host enqueue log (``acl_runtime.workspace_planner.EnqueueLog``) of
``ops`` launches spread at random over ``streams`` streams, workspace sizes drawn
log-uniformly from 4 KiB to 16 MiB (a fifth of the ops need none), and before each launch,
with probability ``p_event``, an event recorded on a random stream and waited for on
the launching stream. Reported per case: the arena the planner picks, the lower bound
(largest total of workspaces that can be live at once), the naive one-buffer-each total,
the ratios arena/lower bound and naive/arena, the worst single placement order against
the lower bound (what keeping the smallest of several orders saves), the order kept, and
the planning time (real Python wall time, median of ``repeats`` runs, including the exact
lower bound's max-flow).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

from acl_runtime.workspace_planner import EnqueueLog, plan_workspaces

CASES = [  # (streams, ops, p_event)
    (1, 100, 0.0),
    (2, 100, 0.0),
    (2, 100, 0.2),
    (3, 100, 0.1),
    (3, 100, 0.4),
    (4, 100, 0.0),
    (4, 100, 0.2),
    (4, 100, 0.6),
    (4, 300, 0.2),
]


def synthetic_log(streams: int, ops: int, p_event: float, rng: random.Random) -> EnqueueLog:
    """A random enqueue log (see module docstring)."""
    log = EnqueueLog()
    for k in range(ops):
        s = rng.randrange(streams)
        if streams > 1 and rng.random() < p_event:
            src = rng.choice([t for t in range(streams) if t != s])
            log.record_event(("e", k), src)
            log.stream_wait_event(s, ("e", k))
        size = 0 if rng.random() < 0.2 else int(2 ** rng.uniform(12, 24))
        log.launch(k, s, size)
    return log


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer cases and repeats")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    cases = CASES[:4] if args.quick else CASES
    repeats = 1 if args.quick else 5
    rng = random.Random(args.seed)

    plan_workspaces(synthetic_log(2, 10, 0.5, random.Random(1)).requests)  # warm-up: imports

    table = Table(title="Workspace planner: arena vs lower bound vs naive (sizes in MiB)")
    for col in ("strm", "ops", "p_ev", "edges", "arena", "lower", "naive", "arena/lower",
                "worst/lower", "naive/arena", "kept", "ms"):
        table.add_column(col, justify="right")
    ratios = []
    for streams, ops, p_event in cases:
        log = synthetic_log(streams, ops, p_event, rng)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            plan = plan_workspaces(log.requests, log.edges)
            times.append(time.perf_counter() - t0)
        mib = 1 << 20
        table.add_row(str(streams), str(ops), f"{p_event:.1f}", str(len(log.edges)),
                      f"{plan.arena_bytes / mib:.1f}", f"{plan.lower_bound_bytes / mib:.1f}",
                      f"{plan.naive_bytes / mib:.1f}",
                      f"{plan.arena_bytes / plan.lower_bound_bytes:.3f}",
                      f"{max(plan.order_arena_bytes.values()) / plan.lower_bound_bytes:.3f}",
                      f"{plan.naive_bytes / plan.arena_bytes:.2f}", plan.order,
                      f"{statistics.median(times) * 1e3:.1f}")
        ratios.append((plan.arena_bytes / plan.lower_bound_bytes, plan.naive_bytes / plan.arena_bytes))
    console = Console(width=max(Console().width, 110))
    console.print(table)
    console.print(f"geomean arena/lower = {statistics.geometric_mean(r[0] for r in ratios):.3f}, "
                  f"naive/arena = {statistics.geometric_mean(r[1] for r in ratios):.2f} "
                  "(worst/lower: the worst single placement order, before keeping the smallest)")


if __name__ == "__main__":
    main()
