"""``npu-trace diff A B``: two runs of the same model (two chips, two settings)
compared per op and in total.

Per op: calls and device time (summed stream-task ns, as :func:`traces.analysis.op_summary`)
in A and in B, the change B - A (ns) and the ratio B / A (None when A has none
of it); rows sorted by the absolute change, largest first. The total row compares
the summed device time and the run length (first start to last end of any span).
"""
from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .analysis import op_summary
from .columns import span_bounds
from .load import TraceData


def _run_ns(data: TraceData) -> float:
    bounds = span_bounds(data)
    return bounds[1] - bounds[0] if bounds else 0.0


def _ratio(a: float, b: float) -> float | None:
    return b / a if a else None


def diff_data(a: TraceData, b: TraceData) -> dict[str, Any]:
    """{"ops": [{name, calls_a, calls_b, total_a_ns, total_b_ns, delta_ns, ratio}],
    "total": {device_a_ns, device_b_ns, delta_ns, ratio, run_a_ns, run_b_ns,
    run_delta_ns, run_ratio}}; ops sorted by |delta_ns|, largest first."""
    ra = {r["name"]: r for r in op_summary(a)}
    rb = {r["name"]: r for r in op_summary(b)}
    ops = []
    for name in sorted(ra.keys() | rb.keys()):
        x, y = ra.get(name, {}), rb.get(name, {})
        ta, tb = x.get("total_ns", 0.0), y.get("total_ns", 0.0)
        ops.append({"name": name, "calls_a": x.get("count", 0), "calls_b": y.get("count", 0), "total_a_ns": ta,
                    "total_b_ns": tb, "delta_ns": tb - ta, "ratio": _ratio(ta, tb)})
    ops.sort(key=lambda r: (-abs(r["delta_ns"]), r["name"]))
    da, db = sum(r["total_a_ns"] for r in ops), sum(r["total_b_ns"] for r in ops)
    wa, wb = _run_ns(a), _run_ns(b)
    return {"ops": ops, "total": {"device_a_ns": da, "device_b_ns": db, "delta_ns": db - da, "ratio": _ratio(da, db),
                                  "run_a_ns": wa, "run_b_ns": wb, "run_delta_ns": wb - wa,
                                  "run_ratio": _ratio(wa, wb)}}


def _r(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}x"


def render_diff(console: Console, rep: dict[str, Any], name_a: str, name_b: str, top: int | None = None) -> None:
    """Print :func:`diff_data` as tables (times in ns)."""
    tot = rep["total"]
    t = Table(title=f"A = {escape(name_a)}   B = {escape(name_b)}", title_justify="left", header_style="bold")
    for c in ("", "A (ns)", "B (ns)", "B - A (ns)", "B / A"):
        t.add_column(c, justify="left" if not c else "right")
    t.add_row("device time (summed tasks)", f"{tot['device_a_ns']:,.0f}", f"{tot['device_b_ns']:,.0f}",
              f"{tot['delta_ns']:+,.0f}", _r(tot["ratio"]))
    t.add_row("run length", f"{tot['run_a_ns']:,.0f}", f"{tot['run_b_ns']:,.0f}", f"{tot['run_delta_ns']:+,.0f}",
              _r(tot["run_ratio"]))
    console.print(t)
    t = Table(title="Per op, by absolute change", title_justify="left", header_style="bold")
    for c in ("Op", "Calls A", "Calls B", "A (ns)", "B (ns)", "B - A (ns)", "B / A"):
        t.add_column(c, justify="left" if c == "Op" else "right")
    for r in rep["ops"][:top]:
        style = "red" if r["delta_ns"] > 0 else ("green" if r["delta_ns"] < 0 else "")
        t.add_row(escape(r["name"]), str(r["calls_a"]), str(r["calls_b"]), f"{r['total_a_ns']:,.0f}",
                  f"{r['total_b_ns']:,.0f}", f"[{style}]{r['delta_ns']:+,.0f}[/]" if style else "0", _r(r["ratio"]))
    console.print(t)
