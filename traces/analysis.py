"""What a trace says about the device: ops, engines, copy/compute overlap.

(Over 300 lines on purpose, about 350: every per-device analysis ``npu-trace summary`` shows, kept in
one module until traces/ grows an analysis/ package.)

Each function takes any trace source (:func:`traces.load.as_trace_data`: a file
path, a loaded trace dict, a ``TraceRecorder``, a ``Device`` or a span list) and
returns a list of plain dict rows (JSON-able; times in ns, bandwidths in bytes/ns,
which equals GB/s). ``device`` picks one device process ("device 0"); by default
every device gets its own rows. Stream timelines (stream_summary, idle_gaps,
critical_path) live in :mod:`traces.streams` and are re-exported here.

Definitions:

* *device time* of an op: the summed duration of its stream task spans (kernel
  launch overhead included, as msprof's "Task Duration");
* *active span* of a device: first start to last end of any span on it;
* *utilisation* of a pipe: busy time summed over the cores of that type, divided
  by (cores x active span); cores are the chip's when the trace metadata gives its
  figures (:func:`chip_figures`: ``otherData.devices[<device>]`` or
  ``otherData.chip_figures``, keys ``aic_count``, ``aiv_count``, ``architecture``),
  else the cores seen in the trace;
* per-op bytes, GB/s, ratios and the engine busy shares ``npu-sim run`` prints come
  from the kernels' task args through :mod:`traces.kernels`, the one definition
  both reports use.

This package reads trace data only: it imports nothing of npu_sim, acl_runtime,
opsnn or frontend (chip facts come from the trace metadata).
"""
from __future__ import annotations

import bisect
from typing import Any

from .intervals import end_ns, intersection, is_kernel, is_sync, is_task, task_type, total, union
from .kernels import RATIO_NAMES, engine_busy_shares, kernel_bytes, kernel_window, op_rows, ratios
from .columns import (columns_of, copy_compute, pipe_arrays, pipe_busy, plain_spans, span_bounds,
                      task_bytes_from_columns)
from .load import TraceData, as_trace_data, finite
from .streams import critical_path, idle_gaps, stream_summary
from .tracks import COMPUTE_PIPES, COPY_PIPES, CORE_PIPES, GM_PIPES, PIPE_ORDER, parse_core_track

__all__ = ["op_summary", "engine_utilization", "engine_busy", "overlap", "stream_summary", "idle_gaps",
           "critical_path", "counter_summary", "device_span", "core_counts", "chip_figures"]


def _devices(data: TraceData, device: str | None) -> list[str]:
    if device is None:
        return data.devices
    if device not in data.devices:
        known = ", ".join(data.devices) or "none"
        raise ValueError(f"no spans on {device!r} (devices in this trace: {known})")
    return [device]


def device_span(source: Any, device: str) -> tuple[float, float]:
    """(first start, last end) in ns of all spans on ``device``; (0, 0) if none."""
    data = as_trace_data(source)
    if columns_of(data) is not None:
        return span_bounds(data, device) or (0.0, 0.0)
    spans = [s for s in data.spans if s.track[0] == device]
    if not spans:
        return 0.0, 0.0
    return min(s.start_ns for s in spans), max(end_ns(s) for s in spans)


def chip_figures(source: Any, device: str) -> dict[str, Any]:
    """The chip figures of ``device`` the trace metadata gives (``aic_count``,
    ``aiv_count``, ``architecture``, ...): ``otherData.devices[device]`` (written for
    each device), else the trace-wide ``otherData.chip_figures``; {} if neither (a
    trace naming only its chip, or an old one)."""
    meta = as_trace_data(source).metadata
    devs = meta.get("devices")
    if isinstance(devs, dict) and isinstance(devs.get(device), dict):
        return devs[device]
    figs = meta.get("chip_figures")
    return figs if isinstance(figs, dict) else {}


def core_counts(source: Any, device: str) -> dict[str, tuple[int, str]]:
    """{core type: (count, "chip" | "trace")} for ``device`` (module docstring): the
    ``aic_count`` / ``aiv_count`` of :func:`chip_figures`, else the cores seen."""
    data = as_trace_data(source)
    seen: dict[str, set[int]] = {"AIC": set(), "AIV": set()}
    cols = columns_of(data)
    tracks = cols.tracks() if cols is not None else (s.track for s in data.spans)
    for track in tracks:
        if track[0] == device:
            ct = parse_core_track(track[1])
            if ct is not None:
                seen.setdefault(ct.core_type, set()).add(ct.core_index)
    figs = chip_figures(data, device)
    chip = ({"AIC": int(finite(figs.get("aic_count"))), "AIV": int(finite(figs.get("aiv_count")))}
            if "aic_count" in figs or "aiv_count" in figs else {})
    out = {}
    for ct, idx in seen.items():
        n_seen = len(idx)
        if ct in chip and chip[ct] >= n_seen:
            out[ct] = (chip[ct], "chip")
        else:
            out[ct] = (n_seen, "trace")
    return out


def _task_bytes_from_pipes(data: TraceData, tasks: list) -> dict[int, float]:
    """GM bytes of each kernel task (by index in ``tasks``) from its pipe spans: a
    pipe span belongs to the task of the same name on the same device whose window
    holds its start (the latest-starting one if several do)."""
    windows: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
    for i, t in enumerate(tasks):
        windows.setdefault((t.track[0], t.name), []).append((t.start_ns, end_ns(t), i))
    for w in windows.values():
        w.sort()
    starts = {k: [w[0] for w in v] for k, v in windows.items()}
    cols = columns_of(data)
    if cols is not None:
        return task_bytes_from_columns(cols, windows)
    out: dict[int, float] = {}
    for s in data.spans:
        if s.cat != "pipe" or not isinstance(s.args, dict):
            continue
        ct = parse_core_track(s.track[1])
        key = (s.track[0], s.name)
        if ct is None or ct.pipe not in GM_PIPES or key not in windows:
            continue
        j = bisect.bisect_right(starts[key], s.start_ns) - 1
        if j >= 0 and s.start_ns <= windows[key][j][1]:
            idx = windows[key][j][2]
            out[idx] = out.get(idx, 0.0) + finite(s.args.get("bytes"))
    return out


def op_summary(source: Any, device: str | None = None, include_sync: bool = False) -> list[dict[str, Any]]:
    """One row per op name (stream task name, e.g. "Matmul", "MEMCPY H2D"), sorted
    by device time, largest first.

    Row keys: name, task_type, count, total_ns, mean_ns, min_ns, max_ns, share (of
    all summed task time), flops, bytes (``args["bytes"]``; for kernels without it,
    the useful GM bytes the simulator counted (``args["gm_bytes"]``) or, in older
    traces, the bytes of their MTE2/MTE3/FIXPIPE spans, and ``bytes_from_pipes`` is
    True), tflops (achieved TFLOP/s = flops / total_ns / 1e3), gb_per_s (bytes /
    total_ns), pipe_busy_ns (summed over tasks), pipe_ratio (per pipe: busy / time
    of the cores that have the pipe, msprof's per-pipe ratios; older traces without
    ``core_ns``: busy / (task time x blocks on cores)).

    Kernel rows also carry the CANN op-summary ratios ``mac_ratio``, ``vec_ratio``,
    ``scalar_ratio``, ``mte1_ratio``, ``mte2_ratio``, ``mte3_ratio``,
    ``fixpipe_ratio``, and ``hbm_bytes``, ``l2_hit_bytes``, ``compute_util``,
    ``memory_util``, ``bound_ns`` ({"compute"|"memory"|"latency": device ns}) and
    ``bound`` (the class with the most device time); see :mod:`traces.kernels`.
    Sync tasks (EVENT_RECORD, STREAM_WAIT_EVENT) are left out unless ``include_sync``.
    """
    data = as_trace_data(source)
    devs = set(_devices(data, device))
    tasks = [s for s in plain_spans(data) if is_task(s) and s.track[0] in devs and (include_sync or not is_sync(s))]
    need_bytes = [t for t in tasks if is_kernel(t) and kernel_bytes(t.args if isinstance(t.args, dict) else {}) is None]
    pipe_bytes = _task_bytes_from_pipes(data, need_bytes) if need_bytes else {}
    fallback = {id(t): pipe_bytes.get(i, 0.0) for i, t in enumerate(need_bytes)}
    cores = {d: core_counts(data, d) for d in devs}
    rows: dict[str, dict[str, Any]] = {}
    kernel_items = []
    for t in tasks:
        args = t.args if isinstance(t.args, dict) else {}
        tt = task_type(t)
        r = rows.setdefault(t.name, {"name": t.name, "task_type": tt, "count": 0, "total_ns": 0.0,
                                     "min_ns": float("inf"), "max_ns": 0.0, "flops": 0.0, "bytes": 0.0,
                                     "bytes_from_pipes": False, "pipe_busy_ns": {}, "_core_ns": 0.0,
                                     "_unit_ns": {}})
        dur = float(t.dur_ns)
        r["count"] += 1
        r["total_ns"] += dur
        r["min_ns"] = min(r["min_ns"], dur)
        r["max_ns"] = max(r["max_ns"], dur)
        r["flops"] += finite(args.get("flops"))
        if id(t) in fallback:
            r["bytes"] += fallback[id(t)]
            r["bytes_from_pipes"] = True
        elif not is_kernel(t):
            r["bytes"] += finite(args.get("bytes"))
        busy = args.get("pipe_busy_ns")
        if isinstance(busy, dict):
            for p, b in busy.items():
                r["pipe_busy_ns"][p] = r["pipe_busy_ns"].get(p, 0.0) + finite(b)
            unit_ns = args.get("core_ns")
            if isinstance(unit_ns, dict):
                for u, ns in unit_ns.items():
                    r["_unit_ns"][u] = r["_unit_ns"].get(u, 0.0) + finite(ns)
            else:
                ct = "AIV" if tt == "AI_VECTOR_CORE" else "AIC"
                n_cores = cores[t.track[0]].get(ct, (0, ""))[0]
                blocks = int(finite(args.get("block_dim"), 1)) or 1
                r["_core_ns"] += dur * (min(blocks, n_cores) if n_cores else blocks)
        if is_kernel(t):
            kernel_items.append((t.name, dur, args))
    kern = op_rows(kernel_items)
    grand = sum(r["total_ns"] for r in rows.values())
    out = []
    order = {p: i for i, p in enumerate(PIPE_ORDER)}
    for r in rows.values():
        tot = r["total_ns"]
        core_ns = r.pop("_core_ns")
        unit_ns = r.pop("_unit_ns")
        k = kern.get(r["name"])
        if k is not None:   # kernel bytes: the op's stated bytes, else the simulator's count (kernels.py)
            r["bytes"] += k["bytes"]
            r["bytes_from_pipes"] |= k["bytes_counted"]
        r["mean_ns"] = tot / r["count"]
        r["share"] = tot / grand if grand else 0.0
        # rates need at least 1 ns of time: a span cut to a sliver by --window/--phase
        # keeps its whole byte count, and bytes / 1e-9 ns is no rate (0 = "-" in the table)
        r["tflops"] = r["flops"] / tot / 1e3 if tot >= 1.0 else 0.0
        r["gb_per_s"] = r["bytes"] / tot if tot >= 1.0 else 0.0
        r["pipe_busy_ns"] = dict(sorted(r["pipe_busy_ns"].items(), key=lambda kv: order.get(kv[0], 99)))
        if unit_ns:
            named = ratios(r["pipe_busy_ns"], unit_ns)
            r["pipe_ratio"] = {p: named[RATIO_NAMES[p]] if p in RATIO_NAMES else 0.0 for p in r["pipe_busy_ns"]}
        else:
            r["pipe_ratio"] = {p: (b / core_ns if core_ns else 0.0) for p, b in r["pipe_busy_ns"].items()}
        if k is not None:
            for key in tuple(RATIO_NAMES.values()) + ("hbm_bytes", "l2_hit_bytes", "compute_util", "memory_util",
                                                       "bound_ns", "bound"):
                r[key] = k[key]
        out.append(r)
    out.sort(key=lambda r: (-r["total_ns"], r["name"]))
    return out


def engine_busy(source: Any, device: str | None = None) -> list[dict[str, Any]]:
    """Engine busy shares as ``npu-sim run`` prints them, one row per device: per pipe
    kind, the kernels' ``pipe_busy_ns`` over (cores with the pipe x the kernels'
    window, first kernel start to last kernel end); :func:`traces.kernels.engine_busy_shares`.
    Cores from :func:`chip_figures`; when the trace has none, from the cores seen.

    Row keys: device, start_ns, end_ns, cores_from ("chip" | "trace"), shares
    ({pipe: share}).
    """
    data = as_trace_data(source)
    out = []
    for dev in _devices(data, device):
        kernels = [s for s in plain_spans(data) if s.track[0] == dev and is_kernel(s)]
        start, end = kernel_window((s.start_ns, end_ns(s)) for s in kernels)
        figs = chip_figures(data, dev)
        src = "chip"
        if "aic_count" not in figs and "aiv_count" not in figs:
            seen = core_counts(data, dev)
            figs = {"aic_count": seen.get("AIC", (0, ""))[0], "aiv_count": seen.get("AIV", (0, ""))[0]}
            src = "trace"
        shares = engine_busy_shares((s.args for s in kernels if isinstance(s.args, dict)), figs, end - start)
        out.append({"device": dev, "start_ns": start, "end_ns": end, "cores_from": src, "shares": shares})
    return out


def _pipe_spans(data: TraceData, device: str):
    for s in data.spans:
        if s.track[0] == device and s.dur_ns > 0:
            ct = parse_core_track(s.track[1])
            if ct is not None:
                yield ct, s


def _pipe_busy(data: TraceData, device: str) -> dict[tuple[str, str], float]:
    """{(core type, pipe): summed busy ns} of the pipe spans of ``device``."""
    arrays = pipe_arrays(data, device)
    busy: dict[tuple[str, str], float] = {}
    if arrays is None:
        for ct, s in _pipe_spans(data, device):
            busy[(ct.core_type, ct.pipe)] = busy.get((ct.core_type, ct.pipe), 0.0) + s.dur_ns
        return busy
    return pipe_busy(arrays)


def engine_utilization(source: Any, device: str | None = None) -> list[dict[str, Any]]:
    """One row per (device, core type, pipe): busy share of that pipe kind over the
    device's active span and all cores of that type.

    Row keys: device, core_type, pipe, cores, cores_from ("chip" or "trace"),
    busy_ns (summed over cores), span_ns, utilization (in [0, 1]). A core type's
    standard pipes (AIC: MTE2, MTE1, CUBE, FIXPIPE; AIV: MTE2, VECTOR, MTE3) get a
    row even when idle, if the chip's core count is known.
    """
    data = as_trace_data(source)
    out = []
    for dev in _devices(data, device):
        start, end = device_span(data, dev)
        span = end - start
        busy = _pipe_busy(data, dev)
        counts = core_counts(data, dev)
        keys = set(busy)
        for ct, (n, src) in counts.items():
            if src == "chip" and n:
                keys |= {(ct, p) for p in CORE_PIPES.get(ct, ())}
        order = {p: i for i, p in enumerate(PIPE_ORDER)}
        for ct, pipe in sorted(keys, key=lambda k: (k[0], order.get(k[1], 99), k[1])):
            n, src = counts.get(ct, (0, "trace"))
            b = busy.get((ct, pipe), 0.0)
            util = b / (n * span) if n and span > 0 else 0.0
            out.append({"device": dev, "core_type": ct, "pipe": pipe, "cores": n, "cores_from": src,
                        "busy_ns": b, "span_ns": span, "utilization": min(max(util, 0.0), 1.0)})
    return out


def overlap(source: Any, device: str | None = None, level: str = "pipe") -> list[dict[str, Any]]:
    """How much copying runs at the same time as computing, one row per device.

    ``level="pipe"``: copy = any MTE1/MTE2/MTE3/FIXPIPE span, compute = any CUBE or
    VECTOR span, on any core. ``level="task"``: copy = MEMCPY stream tasks, compute
    = kernel stream tasks, on any stream.

    Row keys: device, level, span_ns (active span), copy_ns, compute_ns (time at
    least one copy / compute runs), both_ns (both at once), copy_only_ns,
    compute_only_ns, idle_ns (neither), copy_hidden_share (both / copy: the share
    of copy time hidden behind compute), overlap_share (both / min(copy, compute)).
    """
    if level not in ("pipe", "task"):
        raise ValueError(f"level must be 'pipe' or 'task', not {level!r}")
    data = as_trace_data(source)
    out = []
    for dev in _devices(data, device):
        start, end = device_span(data, dev)
        arrays = pipe_arrays(data, dev) if level == "pipe" else None
        if arrays is not None:
            out.append(_overlap_row(dev, start, end, *copy_compute(arrays)))
            continue
        if level == "pipe":
            pairs = [(ct.pipe, (s.start_ns, end_ns(s))) for ct, s in _pipe_spans(data, dev)]
            copy = union(iv for p, iv in pairs if p in COPY_PIPES)
            comp = union(iv for p, iv in pairs if p in COMPUTE_PIPES)
        else:
            tasks = [s for s in plain_spans(data) if s.track[0] == dev and is_task(s) and s.dur_ns > 0]
            copy = union((s.start_ns, end_ns(s)) for s in tasks if task_type(s) == "MEMCPY")
            comp = union((s.start_ns, end_ns(s)) for s in tasks if is_kernel(s))
        out.append(_overlap_row(dev, start, end, total(copy), total(comp), total(intersection(copy, comp)),
                                level))
    return out


def _overlap_row(dev: str, start: float, end: float, c: float, k: float, both: float,
                 level: str = "pipe") -> dict[str, Any]:
    either = c + k - both
    return {"device": dev, "level": level, "span_ns": end - start, "copy_ns": c, "compute_ns": k,
            "both_ns": both, "copy_only_ns": c - both, "compute_only_ns": k - both,
            "idle_ns": max(end - start - either, 0.0), "copy_hidden_share": both / c if c else 0.0,
            "overlap_share": both / min(c, k) if min(c, k) > 0 else 0.0}


def counter_summary(source: Any) -> list[dict[str, Any]]:
    """One row per counter series: track, name, samples, min, max, last, peak_ts_ns."""
    data = as_trace_data(source)
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for c in sorted(data.counters, key=lambda c: c.ts_ns):
        v = finite(c.value)
        r = rows.setdefault((c.track, c.name), {"track": c.track, "name": c.name, "samples": 0, "min": v,
                                                "max": v, "last": v, "peak_ts_ns": c.ts_ns})
        r["samples"] += 1
        r["min"] = min(r["min"], v)
        if v > r["max"]:
            r["max"], r["peak_ts_ns"] = v, c.ts_ns
        r["last"] = v
    return list(rows.values())
