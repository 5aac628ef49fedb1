"""The run summary: rich tables built from the device's kernel records.

Per-op rows and engine busy shares come from :mod:`traces.kernels`, the functions
``npu-trace summary`` uses on the same kernel args, so both print the same numbers
for one run.
"""
from __future__ import annotations

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from npu_sim import ChipConfig
from traces.kernels import ENGINE_PIPES, engine_busy_shares, kernel_window, op_rows

PIPES = ENGINE_PIPES


def op_table(records: list[dict], top: int = 10) -> tuple[list[dict], float]:
    """Group kernel records by op name. Returns (rows sorted by device time, total
    kernel ns). Row keys: name, count, ns, share, and the per-op metrics of
    :func:`traces.kernels.op_rows` (flops, bytes, tflops, gb_per_s, CANN ratios
    ``mac_ratio`` ..., ``gm_bytes``, ``hbm_bytes``, ``compute_util``,
    ``memory_util``, ``bound``, ``bound_ns``)."""
    agg = op_rows((r["name"], float(r["dur_ns"]), r) for r in records)
    total = sum(a["total_ns"] for a in agg.values()) or 1.0
    rows = [dict(a, name=k, ns=a["total_ns"], share=a["total_ns"] / total) for k, a in agg.items()]
    rows.sort(key=lambda r: -r["ns"])
    return rows[:top], total


def chip_figures(chip: ChipConfig) -> dict:
    """The chip figures a trace records per device (``otherData.devices``)."""
    return {"aic_count": chip.aic_count, "aiv_count": chip.aiv_count, "architecture": chip.architecture.value}


def engine_busy(records: list[dict], chip: ChipConfig) -> tuple[dict[str, float], float]:
    """({pipe: busy share}, window ns): summed busy ns over (cores that have the pipe
    x the kernels' window, first kernel start to last kernel end);
    :func:`traces.kernels.engine_busy_shares`."""
    start, end = kernel_window((r["start_ns"], r["start_ns"] + r["dur_ns"]) for r in records)
    return engine_busy_shares(records, chip_figures(chip), end - start), end - start


def check_passed(check: dict) -> bool:
    """The reference check passed: every output and reference finite, and the max
    relative error within the tolerance (a NaN error never passes)."""
    return not check.get("not_finite") and check["rel_err"] <= check["tol"]


def print_summary(console: Console, *, model: str, chip: ChipConfig, result, records: list[dict],
                  peak_bytes: int, weight_bytes: int, trace_path: str | None, check: dict | None,
                  prepare_s: float, ref_s: float | None, top: int = 10, mode: str | None = None,
                  inputs: dict | None = None, shaped_by: str = "") -> None:
    """Print the whole summary of one model run (``mode``: "graph"/"eager", named in
    the title when given; ``inputs``: {name: (shape, dtype)} of the runtime inputs, listed
    with ``shaped_by``, e.g. "--batch 8", when given)."""
    lat_us = result.device_ns / 1e3
    head = Table(title=f"npu-sim: {escape(model)} on {escape(chip.name)}" + (f" ({mode} mode)" if mode else ""),
                 show_header=False, title_justify="left")
    head.add_column(style="bold")
    head.add_column()
    if inputs:
        shown = [f"{escape(n)} {'x'.join(map(str, shape)) or 'scalar'} {np.dtype(dt).name}"
                 for n, (shape, dt) in list(inputs.items())[:4]]
        more = f", +{len(inputs) - 4} more" if len(inputs) > 4 else ""
        head.add_row("inputs", ", ".join(shown) + more + (f"  ({escape(shaped_by)})" if shaped_by else ""))
    head.add_row("simulated latency", f"{lat_us:,.1f} us  (start->end event on the stream, aclrtEventElapsedTime)")
    # kernels launched (one record each: an aclnn call's TransData and copy kernels count) and the
    # aclnn calls they came from
    n_kernels = len(records) if records else result.calls
    head.add_row("kernels", f"{n_kernels}" + (f"  ({result.calls} aclnn calls)" if n_kernels != result.calls else ""))
    head.add_row("peak device memory", f"{peak_bytes / 2**20:,.1f} MiB  (weights {weight_bytes / 2**20:,.1f} MiB)")
    head.add_row("wall time", f"prepare {prepare_s:.2f} s, run {result.wall_s:.2f} s"
                 + (f", onnx reference {ref_s:.2f} s" if ref_s is not None else ""))
    if check is not None:
        ok = check_passed(check)
        nf = check.get("not_finite") or []
        head.add_row("check vs onnx reference",
                     (f"[red]FAIL: not finite (NaN or inf) in {escape(', '.join(nf))}[/]" if nf else
                      f"[{'green' if ok else 'red'}]max rel err {check['rel_err']:.2e} "
                      f"({'PASS' if ok else 'FAIL'} at {check['tol']:.0e})[/]")
                     + ("  [yellow]weak: the reference outputs are uniform (constant weights); "
                        "try `npu-sim reweight`[/]" if check.get("uniform") else ""))
    head.add_row("trace", escape(trace_path) if trace_path else "(not written)")
    console.print(head)

    rows, total = op_table(records, top)
    t = Table(title=f"top {len(rows)} operators by device time (ratios: share of core time each pipe was busy, "
                    "as msprof's op summary)", title_justify="left")
    cols = ("op", "calls", "device us", "share", "TFLOP/s", "GB/s", "mac", "vec", "scalar", "mte1", "mte2", "mte3",
            "fixp", "bound")
    for col in cols:
        t.add_column(col, justify="left" if col in ("op", "bound") else "right")

    def pct(v: float) -> str:
        return f"{v:.0%}" if v else "-"

    for r in rows:
        tf = r["tflops"] if r["flops"] else 0.0
        gb = r["gb_per_s"]
        bound = r["bound"]
        if bound and r["count"] > 1 and r["bound_ns"][bound] < r["ns"] * 0.999:
            bound += f" ({r['bound_ns'][bound] / r['ns']:.0%})"
        style = {"compute": "green", "memory": "yellow", "latency": "red"}.get(r["bound"], "")
        t.add_row(escape(r["name"]), str(r["count"]), f"{r['ns'] / 1e3:,.1f}", f"{r['share']:.1%}",
                  f"{tf:.1f}" if tf else "-", f"{gb:,.0f}" if gb else "-",
                  pct(r["mac_ratio"]), pct(r["vec_ratio"]), pct(r["scalar_ratio"]), pct(r["mte1_ratio"]),
                  pct(r["mte2_ratio"]), pct(r["mte3_ratio"]), pct(r["fixpipe_ratio"]),
                  f"[{style}]{bound}[/]" if style else bound)
    console.print(t)
    console.print("bound: compute / memory when that resource is busy for at least half the kernel's time, "
                  "else latency (launch, dispatch, DMA latency, issue overhead); (n%) = share of the op's "
                  "device time spent in calls of that class; see docs/timing.md")

    eng, window = engine_busy(records, chip)
    e = Table(title=f"engine busy share over the kernels ({window / 1e3:,.1f} us from the first kernel's start to "
                    "the last one's end; all cores that have the pipe)", title_justify="left")
    for p in PIPES:
        e.add_column(p, justify="right")
    e.add_row(*(f"{eng[p]:.1%}" for p in PIPES))
    console.print(e)
