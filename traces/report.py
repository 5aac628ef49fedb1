"""The ``npu-trace summary`` report: analysis rows rendered as rich tables.

Times print in ns (thousands separated), like every quantity in npu-sim; counts
of FLOPs and bytes use SI prefixes (k, M, G, T).
"""
from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import analysis
from .columns import columns_of
from .critical import critical_path as full_critical_path
from .groups import core_spread, group_summary, host_device
from .kernels import ENGINE_PIPES
from .load import TraceData
from .tracks import PIPE_ORDER


def ns(x: float) -> str:
    if x == 0:
        return "0"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.1f}"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def si(x: float) -> str:
    for div, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.2f}{suffix}"
    return f"{x:.0f}"


def bar(frac: float, width: int = 20) -> str:
    full = int(round(max(0.0, min(1.0, frac)) * width))
    return "█" * full + "·" * (width - full)


def summary_data(data: TraceData, top: int, device: str | None, by: str = "op") -> dict[str, Any]:
    """Every analysis the report shows, as JSON-able rows (``summary --json``).
    ``critical_path`` is the per-device longest stream chain; ``path`` the true
    critical path (:mod:`traces.critical`) with its segments."""
    devices = [device] if device else data.devices
    cp = full_critical_path(data, device)
    return {
        "by": by,
        "groups": group_summary(data, by)[:top] if by != "op" else [],
        "path": cp,
        "host_device": host_device(data),
        "core_spread": core_spread(data),
        "metadata": data.metadata,
        "devices": {d: dict(zip(("start_ns", "end_ns"), analysis.device_span(data, d))) for d in devices},
        "ops": analysis.op_summary(data, device)[:top],
        "engines": analysis.engine_utilization(data, device),
        "engine_busy": analysis.engine_busy(data, device),
        "overlap": analysis.overlap(data, device, "pipe") + analysis.overlap(data, device, "task"),
        "streams": analysis.stream_summary(data, device),
        "critical_path": [{k: v for k, v in r.items() if k != "tasks"} | {"task_count": len(r["tasks"])}
                          for r in analysis.critical_path(data, device)],
        "idle_gaps": analysis.idle_gaps(data, device, top=top),
        "counters": analysis.counter_summary(data),
    }


_RIGHT = set(PIPE_ORDER) | {"Count", "Share", "FLOPs", "Bytes", "TFLOP/s", "GB/s", "Cores", "Tasks", "Kernels",
                            "Memcpy", "Busy share", "Copy hidden", "Samples", "Utilisation", "Min", "Max", "Last"}


def _table(title: str, *cols: str) -> Table:
    t = Table(title=title, title_justify="left", title_style="bold", header_style="bold")
    for c in cols:
        numeric = c.endswith(")") or c in _RIGHT
        t.add_column(c, justify="right" if numeric else "left", no_wrap=numeric)
    return t


def render_summary(console: Console, data: TraceData, source_name: str, top: int = 10,
                   device: str | None = None, by: str = "op") -> None:
    """Print the summary report of one trace."""
    rep = summary_data(data, top, device, by)
    meta = data.metadata
    chip = meta.get("chip") or ", ".join(str(v.get("chip")) for v in (meta.get("devices") or {}).values()
                                         if isinstance(v, dict)) or "unknown chip"
    cols = columns_of(data)
    tracks = cols.tracks() if cols is not None else {s.track for s in data.spans}
    console.print(f"[bold]{source_name}[/bold]: {chip}, {len(data.spans):,} spans on {len(tracks)} tracks, "
                  f"{len(data.counters):,} counter samples", soft_wrap=True)
    for d, r in rep["devices"].items():
        console.print(f"  {d}: active {ns(r['start_ns'])} .. {ns(r['end_ns'])} ns "
                      f"({ns(r['end_ns'] - r['start_ns'])} ns: first to last span of any kind, "
                      "copies such as weight uploads included)", soft_wrap=True)
    if not rep["devices"]:
        console.print("  no device spans in this trace")
        return

    compact = console.width < 110  # a narrow terminal: drop the Type and Mean columns
    if rep["groups"]:
        t = _table(f"Top {top} by {by} (device time)", by.capitalize(), "Count", "Total (ns)", "Mean (ns)",
                   "Min (ns)", "Max (ns)", "Share")
        for r in rep["groups"]:
            t.add_row(escape(r["name"]), str(r["count"]), ns(r["total_ns"]), ns(r["mean_ns"]), ns(r["min_ns"]),
                      ns(r["max_ns"]), pct(r["share"]))
        console.print(t)
    cols = ["Op", "Type", "Count", "Total (ns)", "Mean (ns)", "Min (ns)", "Max (ns)", "Share", "Bound", "FLOPs",
            "Bytes", "TFLOP/s", "GB/s"]
    if compact:
        cols = [c for c in cols if c not in ("Type", "Mean (ns)", "Min (ns)", "Max (ns)")]
    t = _table(f"Top {top} ops by device time", *cols)
    for r in rep["ops"]:
        cells = {"Op": escape(r["name"]), "Type": r["task_type"], "Count": str(r["count"]),
                 "Total (ns)": ns(r["total_ns"]), "Mean (ns)": ns(r["mean_ns"]), "Min (ns)": ns(r["min_ns"]),
                 "Max (ns)": ns(r["max_ns"]), "Share": pct(r["share"]), "Bound": r.get("bound") or "-",
                 "FLOPs": si(r["flops"]) if r["flops"] else "-",
                 "Bytes": (si(r["bytes"]) + ("*" if r["bytes_from_pipes"] else "")) if r["bytes"] else "-",
                 "TFLOP/s": f"{r['tflops']:.3f}" if r["flops"] and r["tflops"] else "-",
                 "GB/s": f"{r['gb_per_s']:.1f}" if r["bytes"] and r["gb_per_s"] else "-"}
        t.add_row(*(cells[c] for c in cols))
    console.print(t)
    if any(r["bytes_from_pipes"] for r in rep["ops"]):
        console.print("  [dim]* GM bytes the kernel's MTE2/MTE3/FIXPIPE moved (no 'bytes' arg)[/dim]")
    pipes = [p for p in PIPE_ORDER if any(p in r["pipe_ratio"] for r in rep["ops"])]
    if pipes:
        bounds = any(r.get("bound") for r in rep["ops"])
        t = _table("Pipe ratios of those ops (pipe busy / time of the cores that have it, as msprof)", "Op",
                   *pipes, *(("Bound",) if bounds else ()))
        for r in rep["ops"]:
            if r["pipe_ratio"]:
                extra = (r.get("bound") or "-",) if bounds else ()
                t.add_row(r["name"], *(pct(r["pipe_ratio"][p]) if p in r["pipe_ratio"] else "-" for p in pipes),
                          *extra)
        console.print(t)
        if bounds:
            console.print("  [dim]Bound: compute / memory when that resource works at least half the kernel's "
                          "time, else latency (docs/timing.md)[/dim]")

    t = _table("Engine utilisation (busy over cores x active span)", "Device", "Core", "Pipe", "Cores",
               "Busy (ns)", "Utilisation", "")
    for r in rep["engines"]:
        cores = f"{r['cores']}" + ("" if r["cores_from"] == "chip" else " seen")
        t.add_row(r["device"], r["core_type"], r["pipe"], cores, ns(r["busy_ns"]), pct(r["utilization"]),
                  bar(r["utilization"]))
    console.print(t)

    if rep["core_spread"]:
        t = _table("Pipe busy share per core over the active span (cores seen)", "Device", "Core", "Pipe", "Cores",
                   "Mean", "Least busy", "Most busy")
        for r in rep["core_spread"]:
            t.add_row(r["device"], r["core_type"], r["pipe"], str(r["cores"]), pct(r["mean"]),
                      f"{pct(r['min'])} ({r['min_core']})", f"{pct(r['max'])} ({r['max_core']})")
        console.print(t)

    t = _table("Engine busy share over the kernels (kernel pipe busy / cores with the pipe x first kernel start "
               "to last kernel end; as npu-sim run)", "Device", *ENGINE_PIPES)
    for r in rep["engine_busy"]:
        t.add_row(r["device"] + ("" if r["cores_from"] == "chip" else " (cores seen)"),
                  *(pct(r["shares"][p]) for p in ENGINE_PIPES))
    console.print(t)

    t = _table("Copy / compute overlap", "Device", "Level", "Copy (ns)", "Compute (ns)", "Both (ns)",
               "Copy hidden", "Idle (ns)")
    for r in rep["overlap"]:
        level = "pipes (MTE*/FIXPIPE vs CUBE/VECTOR)" if r["level"] == "pipe" else "tasks (MEMCPY vs kernels)"
        t.add_row(r["device"], level, ns(r["copy_ns"]), ns(r["compute_ns"]), ns(r["both_ns"]),
                  pct(r["copy_hidden_share"]), ns(r["idle_ns"]))
    console.print(t)

    t = _table("Streams", "Device", "Stream", "Tasks", "Kernels", "Memcpy", "Busy (ns)", "Wait (ns)", "Idle (ns)",
               "Span (ns)", "Busy share")
    for r in rep["streams"]:
        t.add_row(r["device"], r["stream"], str(r["tasks"]), str(r["kernels"]), str(r["memcpys"]), ns(r["busy_ns"]),
                  ns(r["wait_ns"]), ns(r["idle_ns"]), ns(r["span_ns"]), pct(r["utilization"]))
    console.print(t)
    for r in rep["critical_path"]:
        console.print(f"[bold]Longest stream chain[/bold] {r['device']}: {r['stream']}: "
                      f"{r['task_count']} tasks over {ns(r['span_ns'])} ns = busy {ns(r['busy_ns'])} + wait "
                      f"{ns(r['wait_ns'])} + idle {ns(r['idle_ns'])} ns "
                      f"({ns(r['host_bound_idle_ns'])} ns of it waiting for host launches)")

    hd = rep["host_device"]
    t = _table("Host time against device time", "Run (ns)", "Host busy (ns)", "Host blocked (ns)",
               "Device busy (ns)", "Both (ns)", "Host calls")
    t.add_row(ns(hd["run_ns"]), ns(hd["host_busy_ns"]), ns(hd["host_blocked_ns"]), ns(hd["device_busy_ns"]),
              ns(hd["both_ns"]), str(hd["host_calls"]))
    console.print(t)
    cp = rep["path"]
    t = _table(f"Critical path: {ns(cp['length_ns'])} ns from {ns(cp['start_ns'])} to the last span's end at "
               f"{ns(cp['end_ns'])} ns (top {top})", "Kind", "Op or wait", "Count", "Time (ns)", "Share")
    for r in cp["by_name"][:top]:
        t.add_row(r["kind"], escape(r["name"]), str(r["count"]), ns(r["dur_ns"]), pct(r["share"]))
    console.print(t)

    t = _table(f"Idle gaps (longest {top})", "Device", "Stream", "Start (ns)", "Gap (ns)", "After", "Before",
               "Cause")
    for r in rep["idle_gaps"]:
        t.add_row(r["device"], r["stream"], ns(r["start_ns"]), ns(r["dur_ns"]), r["after"], r["before"],
                  "host launch" if r["host_bound"] else "")
    if rep["idle_gaps"]:
        console.print(t)
    else:
        console.print("[bold]Idle gaps[/bold]: none")

    if rep["counters"]:
        t = _table("Counters", "Track", "Series", "Samples", "Min", "Max", "Last", "Peak at (ns)")
        for r in rep["counters"]:
            t.add_row(r["track"], r["name"], str(r["samples"]), f"{r['min']:,.0f}", f"{r['max']:,.0f}",
                      f"{r['last']:,.0f}", ns(r["peak_ts_ns"]))
        console.print(t)
