"""Extra summary tables: device time grouped ``--by op|kernel|stream|core``, host
time against device time, and the spread of engine busy time over cores.

Times are ns. *Device time* is summed stream-task duration (sync tasks left out),
as :func:`traces.analysis.op_summary` counts it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .columns import ColumnSpans, columns_of, is_aggregate, merged_total, plain_spans, span_bounds
from .intervals import end_ns, intersection, is_sync, is_task, total, union
from .load import TraceData
from .tracks import parse_core_track

BY = ("op", "kernel", "stream", "core")


def _key(s, by: str) -> str | None:
    if by == "core":
        ct = parse_core_track(s.track[1])
        return f"{s.track[0]} / {ct.core}" if ct is not None else None
    if not is_task(s) or is_sync(s):
        return None
    if by == "op":
        return s.name
    if by == "stream":
        return f"{s.track[0]} / {s.track[1]}"
    a = s.args if isinstance(s.args, dict) else {}
    if "tiling_key" in a or "block_dim" in a:
        return f"{s.name} (tiling_key {a.get('tiling_key', '-')}, block_dim {a.get('block_dim', '-')})"
    return s.name


def group_summary(data: TraceData, by: str = "op") -> list[dict[str, Any]]:
    """Rows {name, count, total_ns, mean_ns, min_ns, max_ns, share}, largest total
    first. ``by="core"``: each core's pipe spans (total = the union of its pipes'
    busy time, so overlapping pipes count once; count = pipe spans)."""
    if by not in BY:
        raise ValueError(f"--by must be one of {', '.join(BY)}, not {by!r}")
    rows: dict[str, dict[str, Any]] = {}
    ivs: dict[str, list] = {}
    cols = columns_of(data)
    if cols is not None and by == "core":
        _core_rows(cols, rows)
    for s in (cols.kept if cols is not None else data.spans):
        k = _key(s, by)
        if k is None:
            continue
        r = rows.setdefault(k, {"name": k, "count": 0, "total_ns": 0.0, "min_ns": float("inf"), "max_ns": 0.0})
        r["count"] += 1
        r["total_ns"] += s.dur_ns
        r["min_ns"] = min(r["min_ns"], s.dur_ns)
        r["max_ns"] = max(r["max_ns"], s.dur_ns)
        if by == "core":
            ivs.setdefault(k, []).append((s.start_ns, end_ns(s)))
    for k, v in ivs.items():
        rows[k]["total_ns"] = total(union(v))
    grand = sum(r["total_ns"] for r in rows.values())
    out = sorted(rows.values(), key=lambda r: (-r["total_ns"], r["name"]))
    for r in out:
        r["mean_ns"] = r["total_ns"] / r["count"]
        r["share"] = r["total_ns"] / grand if grand else 0.0
    return out


def _core_rows(cols: ColumnSpans, rows: dict[str, dict[str, Any]]) -> None:
    """``--by core`` rows of the pipe columns of a streamed trace into ``rows``."""
    p = cols.pipes
    if is_aggregate(p):
        _core_rows_aggregate(p, rows)
        return
    keys = {}
    for i, t in enumerate(p.tracks):
        ct = parse_core_track(t[1])
        if ct is not None:
            keys.setdefault(f"{t[0]} / {ct.core}", []).append(i)
    group = np.full(max(len(p.tracks), 1), -1, np.int64)
    names = list(keys)
    for g, k in enumerate(names):
        group[keys[k]] = g
    g = group[p.track]
    end = p.start + p.dur
    order = np.argsort(g, kind="stable")
    bounds = np.searchsorted(g[order], np.arange(len(names) + 1))
    for j, k in enumerate(names):
        idx = order[bounds[j]:bounds[j + 1]]
        if len(idx):
            d = p.dur[idx]
            rows[k] = {"name": k, "count": len(idx), "total_ns": merged_total(p.start[idx], end[idx]),
                       "min_ns": float(d.min()), "max_ns": float(d.max())}


def _core_rows_aggregate(p, rows: dict[str, dict[str, Any]]) -> None:
    """``--by core`` rows of a :class:`traces.bounded.PipeAggregate` (built with ``core_unions``)."""
    keys: dict[str, list] = {}
    for i in p.present():
        t = p.tracks[i]
        ct = parse_core_track(t[1])
        if ct is not None:
            keys.setdefault((t[0], ct.core), []).append(i)
    for (dev, core), ids in sorted(keys.items(), key=lambda kv: min(kv[1])):
        s, e = p.core_union(dev, core)
        rows[f"{dev} / {core}"] = {"name": f"{dev} / {core}", "count": int(p.count[ids].sum()),
                                   "total_ns": float((e - s).sum()), "min_ns": float(p.dmin[ids].min()),
                                   "max_ns": float(p.dmax[ids].max())}


def _core_busy(cols: ColumnSpans, data: TraceData) -> tuple[dict, dict]:
    """:func:`core_spread`'s active spans and busy ns per core of a streamed trace."""
    p = cols.pipes
    if is_aggregate(p):
        per_track, present = p.busy, p.count > 0
    else:
        per_track = np.bincount(p.track, weights=p.dur, minlength=len(p.tracks))   # sequential, in file order
        present = np.bincount(p.track, minlength=len(p.tracks)) > 0
    span = {}
    busy: dict[tuple, dict[int, float]] = {}
    for i, t in enumerate(p.tracks):
        ct = parse_core_track(t[1])
        if ct is None or not present[i]:
            continue
        if t[0] not in span:
            span[t[0]] = list(span_bounds(data, t[0]))
        per = busy.setdefault((t[0], ct.core_type, ct.pipe), {})
        per[ct.core_index] = per.get(ct.core_index, 0.0) + float(per_track[i])
    return span, busy


def host_device(data: TraceData) -> dict[str, Any]:
    """Host busy time (union of host-track spans, the "blocked (waiting for the
    device)" ones counted apart as ``host_blocked_ns``), device busy time (union of
    stream tasks), both at once, and the run length; all ns."""
    host = [s for s in plain_spans(data) if s.track[0] == "host"]
    blocked = union((s.start_ns, end_ns(s)) for s in host if s.name.startswith("blocked"))
    work = union((s.start_ns, end_ns(s)) for s in host if not s.name.startswith("blocked"))
    dev = union((s.start_ns, end_ns(s)) for s in plain_spans(data) if is_task(s) and not is_sync(s))
    bounds = span_bounds(data)
    run = bounds[1] - bounds[0] if bounds else 0.0
    return {"run_ns": run, "host_busy_ns": total(work), "host_blocked_ns": total(blocked), "device_busy_ns": total(dev),
            "both_ns": total(intersection(work, dev)), "host_calls": len(host)}


def core_spread(data: TraceData) -> list[dict[str, Any]]:
    """Per (device, core type, pipe): busy share of the mean core, and of the least
    and the most busy core, over the device's active span. Cores are those seen."""
    span: dict[str, list[float]] = {}
    busy: dict[tuple, dict[int, float]] = {}
    cols = columns_of(data)
    if cols is not None:
        span, busy = _core_busy(cols, data)
    for s in (() if cols is not None else data.spans):
        d = s.track[0]
        lo_hi = span.setdefault(d, [s.start_ns, end_ns(s)])
        lo_hi[0], lo_hi[1] = min(lo_hi[0], s.start_ns), max(lo_hi[1], end_ns(s))
        ct = parse_core_track(s.track[1])
        if ct is not None:
            per = busy.setdefault((d, ct.core_type, ct.pipe), {})
            per[ct.core_index] = per.get(ct.core_index, 0.0) + s.dur_ns
    out = []
    for (d, ctype, pipe), per in sorted(busy.items()):
        length = span[d][1] - span[d][0]
        shares = {i: b / length if length > 0 else 0.0 for i, b in per.items()}
        lo = min(shares, key=shares.get)
        hi = max(shares, key=shares.get)
        out.append({"device": d, "core_type": ctype, "pipe": pipe, "cores": len(shares),
                    "mean": sum(shares.values()) / len(shares), "min": shares[lo], "min_core": f"{ctype}{lo}",
                    "max": shares[hi], "max_core": f"{ctype}{hi}"})
    return out
