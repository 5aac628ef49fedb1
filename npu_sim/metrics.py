"""Per-kernel metrics in the shape of CANN's op summary, and roofline classification.

Each kernel record (``Device.kernel_records``, and the args of the kernel's stream
task span in the trace) carries what this module computes from the pipeline's
counters:

* ``pipe_ratio``: msprof's per-pipe ratios ``mac_ratio`` (CUBE), ``vec_ratio``,
  ``scalar_ratio``, ``mte1_ratio``, ``mte2_ratio``, ``mte3_ratio``,
  ``fixpipe_ratio``: a pipe's busy time over the time of the cores that have it
  (``core_ns``: block start to block end, summed over blocks; AIC pipes over AIC
  time, AIV pipes over AIV time, MTE2 and SCALAR over both). In [0, 1].
* ``flop_per_s`` (``flops`` / duration), ``gm_bytes_per_s`` (useful GM bytes /
  duration), ``hbm_bytes`` and ``l2_hit_bytes`` (bus bytes served by each).
* ``compute_util``: the busiest compute pipe's throughput time (busy minus fixed
  per-issue and per-tile costs) over duration x the cores the kernel could use
  (``min(block_dim, cores)``).
* ``memory_util``: the largest of each copy pipe's throughput time measured the
  same way, HBM bytes / (duration x HBM bandwidth) and L2 hit bytes / (duration x
  L2 bandwidth).
* ``bound``: "latency" when both utilisations are below :data:`LATENCY_BOUND_BELOW`
  (launch, dispatch, DMA latency, issue overhead and pipeline fill take most of
  the time), else "compute" or "memory", whichever is higher; ``bound_by`` names
  the resource ("CUBE", "VECTOR", "MTE2", "HBM", "L2", ... or "overhead").

Per-op sums of these args (what ``npu-sim run`` and ``npu-trace summary`` print)
are the trace tools' job: ``traces/kernels.py``.

The 0.5 threshold is an assumption [A]: a kernel whose busiest resource works less
than half its duration gains more from fewer launches or larger tiles than from a
faster engine.
"""
from __future__ import annotations

from typing import Any

from .hardware.bandwidth import l2_read_bytes_per_ns, sustained_hbm_bytes_per_ns

#: CANN op-summary name of each pipe's ratio
RATIO_NAMES = {"CUBE": "mac_ratio", "VECTOR": "vec_ratio", "SCALAR": "scalar_ratio", "MTE1": "mte1_ratio",
               "MTE2": "mte2_ratio", "MTE3": "mte3_ratio", "FIXPIPE": "fixpipe_ratio"}
#: which core types have each pipe
PIPE_UNITS = {"CUBE": ("AIC",), "MTE1": ("AIC",), "FIXPIPE": ("AIC",), "VECTOR": ("AIV",), "MTE3": ("AIV",),
              "MTE2": ("AIC", "AIV"), "SCALAR": ("AIC", "AIV")}
COMPUTE_PIPES = ("CUBE", "VECTOR")
COPY_PIPES = ("MTE2", "MTE1", "MTE3", "FIXPIPE")
#: (pipe, ratio name, core types) in RATIO_NAMES order, and (pipe, core types) of the
#: pipes with a utilisation (all but SCALAR) in PIPE_UNITS order: the loops' tables
_RATIO_UNITS = tuple((p, n, PIPE_UNITS[p]) for p, n in RATIO_NAMES.items())
_UTIL_UNITS = tuple((p, u) for p, u in PIPE_UNITS.items() if p != "SCALAR")
#: below this utilisation of every resource a kernel is latency-bound [A]
LATENCY_BOUND_BELOW = 0.5
BOUNDS = ("compute", "memory", "latency")
_MEM_BY = COPY_PIPES + ("HBM", "L2")
#: id(chip) -> (chip, sustained HBM rate, L2 read rate): computed once per chip object
_RATES: dict[int, tuple] = {}


def pipe_ratios(busy: dict[str, float], core_ns: dict[str, float]) -> dict[str, float]:
    """CANN-style ratios (``mac_ratio`` ...) from busy ns per pipe and core ns per
    core type; pipes the kernel never used are 0."""
    out = {}
    get = core_ns.get
    for pipe, name, units in _RATIO_UNITS:
        denom = 0
        for u in units:   # the sum in PIPE_UNITS order, as sum() adds (0 + a + b)
            denom += get(u, 0.0)
        out[name] = min(busy.get(pipe, 0.0) / denom, 1.0) if denom > 0 else 0.0
    return out


def classify(compute_util: float, memory_util: float) -> str:
    """"compute", "memory" or "latency" (module docstring)."""
    if max(compute_util, memory_util) < LATENCY_BOUND_BELOW:
        return "latency"
    return "compute" if compute_util >= memory_util else "memory"


def kernel_metrics(chip, dur_ns: float, busy: dict[str, float], fixed: dict[str, float], core_ns: dict[str, float],
                   used: dict[str, int], flops: float, gm_bytes: float, hbm_bytes: float,
                   l2_hit_bytes: float) -> dict[str, Any]:
    """Metrics of one kernel run (module docstring).

    Args:
        chip: the ChipConfig (HBM and L2 bandwidth).
        dur_ns: task duration (launch included), ns.
        busy, fixed: per pipe name, busy ns and the fixed part of it, summed over blocks.
        core_ns: per core type ("AIC", "AIV"), block time summed over blocks, ns.
        used: per core type, how many cores the kernel could use at once.
        flops, gm_bytes, hbm_bytes, l2_hit_bytes: totals of the kernel.
    """
    T = dur_ns if dur_ns > 0 else 0.0
    util: dict[str, float] = {}
    bget, fget, uget = busy.get, fixed.get, used.get
    for pipe, units in _UTIL_UNITS:
        cores = 0
        for u in units:
            cores += uget(u, 0)
        util[pipe] = (bget(pipe, 0.0) - fget(pipe, 0.0)) / (T * cores) if T and cores else 0.0
    # against the rates the shared servers really run at (npu_sim.hardware.bandwidth:
    # sustained HBM, the ini L2 read rate), so "memory-bound" means what limits the run
    rates = _RATES.get(id(chip))
    if rates is None or rates[0] is not chip:
        if len(_RATES) > 64:
            _RATES.clear()
        rates = _RATES[id(chip)] = (chip, sustained_hbm_bytes_per_ns(chip), l2_read_bytes_per_ns(chip))
    util["HBM"] = hbm_bytes / (T * rates[1]) if T else 0.0
    util["L2"] = l2_hit_bytes / (T * rates[2]) if T else 0.0
    comp_by = max(COMPUTE_PIPES, key=util.__getitem__)   # the first of the largest, as a lambda would pick
    mem_by = max(_MEM_BY, key=util.__getitem__)
    cu, mu = min(util[comp_by], 1.0), min(util[mem_by], 1.0)
    bound = classify(cu, mu)
    return {
        "pipe_ratio": pipe_ratios(busy, core_ns),
        "core_ns": dict(core_ns),
        "flop_per_s": flops / T * 1e9 if T else 0.0,
        "gm_bytes_per_s": gm_bytes / T * 1e9 if T else 0.0,
        "compute_util": cu,
        "memory_util": mu,
        "bound": bound,
        "bound_by": comp_by if bound == "compute" else mem_by if bound == "memory" else "overhead",
    }


__all__ = ["RATIO_NAMES", "PIPE_UNITS", "LATENCY_BOUND_BELOW", "BOUNDS", "pipe_ratios", "classify", "kernel_metrics"]
