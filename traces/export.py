"""``npu-trace export``: the per-op table as CSV, msprof-style op_summary CSV, and a
PNG Gantt chart with the rows of ``npu-trace view``.

msprof columns: the op_summary_*.csv fields of CANN's profiling tool (Ascend
"op_summary (Operator Details)" / "AI Core和AI CPU算子数据" pages of the CANN
profiling manual, and msprof's ``analysis/msconfig/prof_header_mapping.json``,
groups "Common Info" and "Op Info"): one row per device task, durations in us.
What the trace does not record is "N/A" (msprof's own placeholder): the formats
and the output types, which npu-sim kernels do not write into their args (the
output shapes come from the kernel's ``output_shapes`` arg).
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Iterable

from .analysis import op_summary
from .columns import plain_spans
from .intervals import end_ns, is_task, task_type
from .load import TraceData
from .tracks import parse_stream

OP_CSV_COLUMNS = ("name", "task_type", "count", "total_ns", "mean_ns", "min_ns", "max_ns", "share", "bound",
                  "flops", "bytes", "tflops", "gb_per_s")
MSPROF_COLUMNS = ("Device_id", "Op Name", "OP Type", "Task Type", "Stream ID", "Task Start Time(us)",
                  "Task Duration(us)", "Task Wait Time(us)", "Block Dim", "Input Shapes", "Input Data Types",
                  "Input Formats", "Output Shapes", "Output Data Types", "Output Formats", "mac_ratio", "vec_ratio",
                  "scalar_ratio", "mte1_ratio", "mte2_ratio", "mte3_ratio", "fixpipe_ratio")


def write_op_csv(data: TraceData, out: str | Path) -> Path:
    """The per-op table (:func:`traces.analysis.op_summary`, times ns) as CSV."""
    out = Path(out)
    with out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(OP_CSV_COLUMNS)
        for r in op_summary(data):
            w.writerow([r.get(c, "") if r.get(c) is not None else "" for c in OP_CSV_COLUMNS])
    return out


def _shape_text(shapes: Any) -> str:
    """msprof spells shapes "8,32;32,16" (dims by commas, tensors by semicolons)."""
    if not isinstance(shapes, list):
        return "N/A"
    return ";".join(",".join(str(d) for d in s) if isinstance(s, list) else str(s) for s in shapes)


def msprof_rows(data: TraceData) -> list[dict[str, Any]]:
    """One dict per device task (MEMCPY, kernels, sync), in start order, keyed by
    :data:`MSPROF_COLUMNS`. Task Wait Time: the gap since the previous task on
    the same stream ended (msprof's definition), in us. Ratios from the task's
    ``pipe_busy_ns`` over its ``core_ns`` (as :mod:`traces.kernels`), else N/A."""
    from .kernels import RATIO_NAMES, ratios
    tasks = sorted((s for s in plain_spans(data) if is_task(s)), key=lambda s: (s.start_ns, s.track))
    last_end: dict[tuple, float] = {}
    rows = []
    for t in tasks:
        a = t.args if isinstance(t.args, dict) else {}
        prev = last_end.get(t.track)
        last_end[t.track] = max(prev or 0.0, end_ns(t))
        shapes = a.get("shapes")
        dtype = a.get("dtype")
        n_in = len(shapes) if isinstance(shapes, list) else 0
        r = {"Device_id": t.track[0].replace("device", "").strip(), "Op Name": t.name,
             "OP Type": str(a.get("kernel", t.name)), "Task Type": task_type(t),
             "Stream ID": parse_stream(t.track[1]), "Task Start Time(us)": f"{t.start_ns / 1e3:.3f}",
             "Task Duration(us)": f"{t.dur_ns / 1e3:.3f}",
             "Task Wait Time(us)": f"{max(t.start_ns - prev, 0.0) / 1e3:.3f}" if prev is not None else "0",
             "Block Dim": a.get("block_dim", 0 if task_type(t) != "MEMCPY" else "N/A"),
             "Input Shapes": _shape_text(shapes),
             "Input Data Types": ";".join([str(dtype).upper()] * n_in) if dtype and n_in else "N/A",
             "Input Formats": "N/A", "Output Shapes": _shape_text(a.get("output_shapes")), "Output Data Types": "N/A", "Output Formats": "N/A"}
        busy, core_ns = a.get("pipe_busy_ns"), a.get("core_ns")
        named = ratios(busy, core_ns) if isinstance(busy, dict) and isinstance(core_ns, dict) else {}
        for col in ("mac_ratio", "vec_ratio", "scalar_ratio", "mte1_ratio", "mte2_ratio", "mte3_ratio",
                    "fixpipe_ratio"):
            r[col] = f"{named[col]:.3f}" if col in named and col in RATIO_NAMES.values() else "N/A"
        rows.append(r)
    return rows


def write_msprof_csv(data: TraceData, out: str | Path) -> Path:
    """:func:`msprof_rows` as a CSV with msprof's header line."""
    out = Path(out)
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=MSPROF_COLUMNS)
        w.writeheader()
        w.writerows(msprof_rows(data))
    return out


def write_png(data: TraceData, out: str | Path, tracks: Iterable[str] = ("streams", "cores"),
              collapse: bool = False) -> Path:
    """A Gantt chart of the rows ``npu-trace view`` draws (:func:`traces.view.build_rows`),
    coloured by category. Raises ImportError without matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .timeline import save_gantt
    from .view import MPL_COLOURS, build_rows
    rows = build_rows(data, tracks, collapse)
    fig, ax = plt.subplots(figsize=(14, max(2.0, 0.3 * len(rows) + 1.5)))
    try:
        seen = set()
        for y, r in enumerate(rows):
            for cat, (st, en) in r.parts.items():
                bars = [(a, b - a) for a, b in zip(st, en) if b > a]
                if bars:
                    ax.broken_barh(bars, (y - 0.4, 0.8), facecolors=MPL_COLOURS[cat], linewidth=0,
                                   label=None if cat in seen else cat)
                    seen.add(cat)
        return save_gantt(fig, ax, [r.label for r in rows], out, legend=bool(seen))
    finally:
        plt.close(fig)
