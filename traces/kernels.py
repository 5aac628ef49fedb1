"""Per-op rows and engine busy shares from kernel args: one definition for every report.

A kernel's args are the same dict in two places: the args of its stream task span in
a trace, and its record in ``Device.kernel_records`` (plus name, stream, start_ns,
dur_ns). ``npu-trace summary`` (:func:`traces.analysis.op_summary`) and ``npu-sim
run`` (``frontend/summary.py``) both compute from these args with the functions
here, so they print the same numbers for the same run. The keys read:

* ``flops`` (what the op states), ``bytes`` (the op's useful GM bytes, when it
  states them) and ``gm_bytes`` (what the simulator's stages moved, re-reads
  included): an op's bytes are ``bytes`` when stated, else ``gm_bytes``
  (:func:`kernel_bytes`); GB/s = bytes / device ns;
* ``pipe_busy_ns`` and ``core_ns``: msprof-style pipe ratios (a pipe's busy time
  over the time of the cores that have it), summed per op;
* ``compute_util``, ``memory_util``, ``bound``: weighted by duration per op.

Engine busy share (:func:`engine_busy_shares`): per pipe kind, the kernels'
``pipe_busy_ns`` summed, over (cores that have the pipe x a window). Cores come from
chip figures shaped like the trace metadata ``otherData.devices[<device>]``:
``aic_count``, ``aiv_count`` and ``architecture`` ("separated" or "coupled").

The pipe-ratio names and which core types have each pipe are those ``npu_sim``
writes into kernel args (``npu_sim/metrics.py``); this package reads trace data
only and imports nothing of the simulator.
"""
from __future__ import annotations

from typing import Any, Iterable

from .load import finite

#: msprof op-summary name of each pipe's ratio, as kernel args spell them
RATIO_NAMES = {"CUBE": "mac_ratio", "VECTOR": "vec_ratio", "SCALAR": "scalar_ratio", "MTE1": "mte1_ratio",
               "MTE2": "mte2_ratio", "MTE3": "mte3_ratio", "FIXPIPE": "fixpipe_ratio"}
#: core types that have each pipe (AIC: MTE2 MTE1 CUBE FIXPIPE; AIV: MTE2 VECTOR MTE3; both: SCALAR)
PIPE_UNITS = {"CUBE": ("AIC",), "MTE1": ("AIC",), "FIXPIPE": ("AIC",), "VECTOR": ("AIV",), "MTE3": ("AIV",),
              "MTE2": ("AIC", "AIV"), "SCALAR": ("AIC", "AIV")}
#: pipes of the engine busy table, in data-flow order
ENGINE_PIPES = ("MTE2", "MTE1", "CUBE", "FIXPIPE", "VECTOR", "MTE3")
BOUNDS = ("compute", "memory", "latency")


def kernel_bytes(args: dict) -> tuple[float, bool] | None:
    """(bytes, counted) of one kernel: the op's stated ``bytes``, else the simulator's
    ``gm_bytes`` (counted=True); None when the args have neither (an old trace)."""
    if "bytes" in args:
        return finite(args.get("bytes")), False
    if "gm_bytes" in args:
        return finite(args.get("gm_bytes")), True
    return None


def ratios(busy: dict[str, float], unit_ns: dict[str, float]) -> dict[str, float]:
    """{ratio name: busy of the pipe / summed ns of the core types that have it}, in
    [0, 1]; 0 where those cores have no time."""
    out = {}
    for pipe, name in RATIO_NAMES.items():
        time = sum(unit_ns.get(u, 0.0) for u in PIPE_UNITS[pipe])
        out[name] = min(busy.get(pipe, 0.0) / time, 1.0) if time > 0 else 0.0
    return out


def op_rows(items: Iterable[tuple[str, float, dict]]) -> dict[str, dict[str, Any]]:
    """Per-op totals from (name, device ns, kernel args) of many kernel runs.

    Returns {name: row}: count, total_ns, flops, bytes (:func:`kernel_bytes`; 0 when
    unknown), bytes_counted (some came from ``gm_bytes``), gm_bytes, hbm_bytes,
    l2_hit_bytes, pipe_busy_ns (summed), the :data:`RATIO_NAMES` ratios (summed busy
    over summed core time), compute_util and memory_util (means weighted by
    duration), bound_ns ({bound: ns of the runs so classified}), bound (the class
    with the most time), tflops (flops / total_ns / 1e3), gb_per_s (bytes /
    total_ns), flop_per_s and gm_bytes_per_s (per second).
    """
    rows: dict[str, dict[str, Any]] = {}
    for name, dur, args in items:
        r = rows.get(name)
        if r is None:
            r = rows[name] = {"count": 0, "total_ns": 0.0, "flops": 0.0, "bytes": 0.0, "bytes_counted": False,
                              "gm_bytes": 0.0, "hbm_bytes": 0.0, "l2_hit_bytes": 0.0, "pipe_busy_ns": {},
                              "_unit": {}, "_cu": 0.0, "_mu": 0.0, "bound_ns": dict.fromkeys(BOUNDS, 0.0)}
        r["count"] += 1
        r["total_ns"] += dur
        for key in ("flops", "gm_bytes", "hbm_bytes", "l2_hit_bytes"):
            r[key] += finite(args.get(key))
        nb = kernel_bytes(args)
        if nb is not None:
            r["bytes"] += nb[0]
            r["bytes_counted"] |= nb[1]
        for sums, key in ((r["pipe_busy_ns"], "pipe_busy_ns"), (r["_unit"], "core_ns")):
            vals = args.get(key)
            for k, v in (vals.items() if isinstance(vals, dict) else ()):
                sums[k] = sums.get(k, 0.0) + finite(v)
        r["_cu"] += dur * finite(args.get("compute_util"))
        r["_mu"] += dur * finite(args.get("memory_util"))
        if args.get("bound") in r["bound_ns"]:
            r["bound_ns"][args["bound"]] += dur
    for r in rows.values():
        tot = r["total_ns"]
        r.update(ratios(r["pipe_busy_ns"], r.pop("_unit")))
        r["compute_util"] = r.pop("_cu") / tot if tot else 0.0
        r["memory_util"] = r.pop("_mu") / tot if tot else 0.0
        r["bound"] = max(BOUNDS, key=r["bound_ns"].get) if any(r["bound_ns"].values()) else ""
        r["tflops"] = r["flops"] / tot / 1e3 if tot >= 1.0 else 0.0   # no rate from a sliver of time
        r["gb_per_s"] = r["bytes"] / tot if tot >= 1.0 else 0.0       # (a span cut by --window)
        r["flop_per_s"] = r["flops"] / tot * 1e9 if tot else 0.0
        r["gm_bytes_per_s"] = r["gm_bytes"] / tot * 1e9 if tot else 0.0
    return rows


def engine_cores(figures: dict) -> dict[str, int]:
    """{pipe: cores that have it} from chip figures (module doc). A coupled chip's AI
    Cores also have the vector pipes; MTE2 and SCALAR count every physical core."""
    aic, aiv = int(finite(figures.get("aic_count"))), int(finite(figures.get("aiv_count")))
    vec = aiv + (aic if figures.get("architecture") == "coupled" else 0)
    return {p: aic + aiv if p in ("MTE2", "SCALAR") else aic if PIPE_UNITS[p] == ("AIC",) else vec
            for p in PIPE_UNITS}


def engine_busy_shares(kernel_args: Iterable[dict], figures: dict, window_ns: float) -> dict[str, float]:
    """{pipe: summed ``pipe_busy_ns`` / (cores with the pipe x ``window_ns``)} for
    :data:`ENGINE_PIPES`; 0 where the window or the cores are 0."""
    busy: dict[str, float] = {}
    for args in kernel_args:
        vals = args.get("pipe_busy_ns")
        for p, b in (vals.items() if isinstance(vals, dict) else ()):
            busy[p] = busy.get(p, 0.0) + finite(b)
    cores = engine_cores(figures)
    return {p: busy.get(p, 0.0) / (cores[p] * window_ns) if window_ns > 0 and cores[p] else 0.0
            for p in ENGINE_PIPES}


def kernel_window(starts_ends: Iterable[tuple[float, float]]) -> tuple[float, float]:
    """(first start, last end) ns of kernel runs; (0, 0) if none."""
    pairs = list(starts_ends)
    if not pairs:
        return 0.0, 0.0
    return min(s for s, _ in pairs), max(e for _, e in pairs)


__all__ = ["RATIO_NAMES", "PIPE_UNITS", "ENGINE_PIPES", "BOUNDS", "kernel_bytes", "ratios", "op_rows",
           "engine_cores", "engine_busy_shares", "kernel_window"]
