"""The run summary: rich tables built from the device's kernel records."""
from __future__ import annotations

from collections import defaultdict

from rich.console import Console
from rich.table import Table

from npu_sim import ChipConfig
from npu_sim.program import CoreType

PIPES = ("MTE2", "MTE1", "CUBE", "FIXPIPE", "VECTOR", "MTE3")
PIPE_CORE = {"MTE2": None, "MTE1": CoreType.AIC, "CUBE": CoreType.AIC, "FIXPIPE": CoreType.AIC,
             "VECTOR": CoreType.AIV, "MTE3": CoreType.AIV}


def op_table(records: list[dict], top: int = 10) -> tuple[list[dict], float]:
    """Group kernel records by op name: count, device ns, share, FLOPs. Returns
    (rows sorted by time, total kernel ns)."""
    agg: dict[str, dict] = defaultdict(lambda: {"count": 0, "ns": 0.0, "flops": 0})
    for r in records:
        a = agg[r["name"]]
        a["count"] += 1
        a["ns"] += r["dur_ns"]
        a["flops"] += int(r.get("flops", 0) or 0)
    total = sum(a["ns"] for a in agg.values()) or 1.0
    rows = [dict(name=k, share=v["ns"] / total, **v) for k, v in agg.items()]
    rows.sort(key=lambda r: -r["ns"])
    return rows[:top], total


def engine_busy(records: list[dict], chip: ChipConfig, window_ns: float) -> dict[str, float]:
    """Busy share of each pipe kind: summed busy ns over all cores that have the
    pipe / (those cores x ``window_ns``)."""
    busy: dict[str, float] = defaultdict(float)
    mte2_aic = mte2_aiv = 0.0
    for r in records:
        aic = r.get("task_type") == "AI_CORE"
        for p, ns in r.get("pipe_busy_ns", {}).items():
            busy[p] += ns
            if p == "MTE2":
                if aic:
                    mte2_aic += ns
                else:
                    mte2_aiv += ns
    n_aic, n_aiv = chip.aic_count, chip.vector_core_count
    out = {}
    for p in PIPES:
        if p == "MTE2":
            cores = n_aic + n_aiv
        else:
            cores = n_aic if PIPE_CORE[p] is CoreType.AIC else n_aiv
        out[p] = busy.get(p, 0.0) / (cores * window_ns) if window_ns > 0 else 0.0
    return out


def print_summary(console: Console, *, model: str, chip: ChipConfig, result, records: list[dict],
                  peak_bytes: int, weight_bytes: int, trace_path: str | None, check: dict | None,
                  prepare_s: float, ref_s: float | None, top: int = 10) -> None:
    """Print the whole summary of one model run."""
    lat_us = result.device_ns / 1e3
    head = Table(title=f"npu-sim: {model} on {chip.name}", show_header=False, title_justify="left")
    head.add_column(style="bold")
    head.add_column()
    head.add_row("simulated latency", f"{lat_us:,.1f} us  (start->end event on the stream, aclrtEventElapsedTime)")
    head.add_row("kernels", f"{result.calls}")
    head.add_row("peak device memory", f"{peak_bytes / 2**20:,.1f} MiB  (weights {weight_bytes / 2**20:,.1f} MiB)")
    head.add_row("wall time", f"prepare {prepare_s:.2f} s, run {result.wall_s:.2f} s"
                 + (f", onnx reference {ref_s:.2f} s" if ref_s is not None else ""))
    if check is not None:
        ok = check["rel_err"] <= check["tol"]
        head.add_row("check vs onnx reference",
                     f"[{'green' if ok else 'red'}]max rel err {check['rel_err']:.2e} "
                     f"({'PASS' if ok else 'FAIL'} at {check['tol']:.0e})[/]")
    head.add_row("trace", trace_path or "(not written)")
    console.print(head)

    rows, total = op_table(records, top)
    t = Table(title=f"top {len(rows)} operators by device time", title_justify="left")
    for col in ("op", "calls", "device us", "share", "TFLOP/s"):
        t.add_column(col, justify="left" if col == "op" else "right")
    for r in rows:
        tf = r["flops"] / r["ns"] / 1e3 if r["flops"] and r["ns"] else 0.0
        t.add_row(r["name"], str(r["count"]), f"{r['ns'] / 1e3:,.1f}", f"{r['share']:.1%}",
                  f"{tf:.1f}" if tf else "-")
    console.print(t)

    eng = engine_busy(records, chip, result.device_ns)
    e = Table(title="engine busy share over the run (all cores that have the pipe)", title_justify="left")
    for p in PIPES:
        e.add_column(p, justify="right")
    e.add_row(*(f"{eng[p]:.1%}" for p in PIPES))
    console.print(e)
