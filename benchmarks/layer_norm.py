"""Fused vs multi-pass LayerNorm, simulated: ``python -m benchmarks.layer_norm [--quick]
[--dtype float16|float32|bfloat16] [--rows 8,2048] [--chip ascend910b2]``.

For each row count and each row length ``d`` the script prepares aclnnLayerNorm on
``[rows, d]`` with weight and bias (same dtype as the input) and meanOut/rstdOut,
twice: forcing the ``fused`` strategy and forcing ``multi_pass`` (the
``strategy=`` keyword of ``aclnnLayerNormGetWorkspaceSize``, a simulator extension),
runs each through phase 2 on a timing-only device and reports the simulated device
time from the first kernel's start to the last kernel's end (kernel launch overhead
included: the multi-pass strategy launches two kernels). It also shows which
strategy phase 1 picks on its own, the UB the fused kernel would need, and the
multi-pass chunking.

Reported per row count: the *crossover*, the shortest simulated row length at which
multi-pass is no slower than fused (or that fused wins everywhere it fits), and
``d_max``, the longest row the fused kernel fits in UB (found by bisection on the
phase-1 plan, no simulation). Above ``d_max`` multi-pass is the only strategy.

All hardware figures come from the chip preset (``npu_sim/chips/presets.py``; HBM
bandwidth, launch overheads and per-stage costs there are assumptions). The
simulator times stages; it does not execute numbers here (timing-only mode): the
tests check that both strategies produce the same numbers.
"""
from __future__ import annotations

import argparse

import ml_dtypes
import numpy as np
from rich.console import Console
from rich.table import Table

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from npu_sim.chips.presets import get_chip
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.norm.common.kernel import row_norm_kernels
from opsnn.norm.layer_norm.tiling import REGISTRY

DTYPES = {"float16": np.dtype(np.float16), "float32": np.dtype(np.float32), "bfloat16": np.dtype(ml_dtypes.bfloat16)}
FULL_D = [64, 256, 768, 1024, 2048, 4096, 6144, 8192, 12288, 16384, 32768, 65536]
QUICK_D = [256, 1024, 4096, 8192, 16384]


def _check(ret: int) -> None:
    if ret != 0:
        raise RuntimeError(f"status {ret}: {opsnn.aclGetRecentErrMsg() or acl.get_recent_err_msg()}")


def _tensor(shape, dt: np.dtype, ptrs: list[int]):
    nbytes = int(np.prod(shape)) * dt.itemsize
    ptr, ret = acl.rt.malloc(max(nbytes, 32), 0)
    _check(ret)
    ptrs.append(ptr)
    t = opsnn.aclCreateTensor(shape, from_numpy_dtype(dt), None, 0, 2, shape, ptr)
    if t is None:
        raise RuntimeError(opsnn.aclGetRecentErrMsg())
    return t


def simulate(rows: int, d: int, dt: np.dtype, strategy: str | None) -> dict:
    """Prepare and run one LayerNorm; returns its simulated time (ns) and plan."""
    ptrs: list[int] = []
    x = _tensor((rows, d), dt, ptrs)
    w, b = _tensor((d,), dt, ptrs), _tensor((d,), dt, ptrs)
    y = _tensor((rows, d), dt, ptrs)
    m, r = _tensor((rows, 1), dt, ptrs), _tensor((rows, 1), dt, ptrs)
    ws, ex, ret = opsnn.aclnnLayerNormGetWorkspaceSize(x, [d], w, b, 1e-5, y, m, r, strategy=strategy)
    if ret != 0:
        return {"error": opsnn.aclGetRecentErrMsg()}
    info = dict(ex.info)
    wptr = 0
    if ws:
        wptr, ret = acl.rt.malloc(ws, 0)
        _check(ret)
        ptrs.append(wptr)
    dev = runtime().device
    before = len(dev.kernel_records)
    _check(opsnn.aclnnLayerNorm(wptr, ws, ex, 0))
    _check(acl.rt.synchronize_stream(0))
    recs = dev.kernel_records[before:]
    for p in ptrs:
        acl.rt.free(p)
    start = min(rec["start_ns"] for rec in recs)
    end = max(rec["start_ns"] + rec["dur_ns"] for rec in recs)
    return {"ns": end - start, "kernels": len(recs), "blocks": [rec["block_dim"] for rec in recs],
            "strategy": info["strategy"], "chunks_per_row": info.get("chunks_per_row", 1),
            "ub_fused": info.get("ub_bytes_needed_fused", 0), "workspace": ws}


def fused_d_max(chip_name: str, rows: int, dt: np.dtype) -> int:
    """Longest row (elements) the fused kernel fits in UB, by bisection on the plan."""
    chip = get_chip(chip_name)
    item = dt.itemsize

    def fits(d: int) -> bool:
        _, td = row_norm_kernels(REGISTRY, chip, rows, d, item, item, 2, 2 * item, True, None, {})
        return td.strategy == "fused"
    lo, hi = 1, 1
    while fits(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer row lengths (a CI smoke run)")
    ap.add_argument("--dtype", default="float16", choices=sorted(DTYPES))
    ap.add_argument("--rows", default="8,2048", help="comma-separated row counts (default 8,2048)")
    ap.add_argument("--chip", default="ascend910b2")
    args = ap.parse_args(argv)
    dt = DTYPES[args.dtype]
    row_counts = [int(v) for v in args.rows.split(",")]
    ds = QUICK_D if args.quick else FULL_D
    console = Console(width=120)
    _check(acl.init(chip=args.chip, timing_only=True))
    _check(acl.rt.set_device(0))
    try:
        for rows in row_counts:
            d_max = fused_d_max(args.chip, rows, dt)
            table = Table(title=f"LayerNorm [{rows}, d] {args.dtype}, weight+bias+mean/rstd, {args.chip} "
                                f"(simulated device time)")
            for col in ("d", "fused (us)", "multi-pass (us)", "multi / fused", "phase 1 picks", "fused UB (KiB)",
                        "chunks/row", "blocks f / m"):
                table.add_column(col, justify="right")
            crossover = None
            ratios = []
            for d in ds:
                f = simulate(rows, d, dt, "fused")
                mp = simulate(rows, d, dt, "multi_pass")
                auto = simulate(rows, d, dt, None)["strategy"]
                fused_ok = "error" not in f
                ratio = mp["ns"] / f["ns"] if fused_ok else None
                if ratio:
                    ratios.append(ratio)
                if fused_ok and crossover is None and mp["ns"] <= f["ns"]:
                    crossover = d
                table.add_row(str(d), f"{f['ns'] / 1e3:.2f}" if fused_ok else "does not fit",
                              f"{mp['ns'] / 1e3:.2f}", f"{ratio:.2f}" if ratio else "-", auto,
                              f"{mp['ub_fused'] / 1024:.0f}", str(mp["chunks_per_row"]),
                              f"{f['blocks'][0] if fused_ok else '-'} / {mp['blocks'][0]}")
            console.print(table)
            if ratios:
                console.print(f"rows={rows}: where both fit, multi-pass takes {min(ratios):.2f}x to "
                              f"{max(ratios):.2f}x the fused time.")
            if crossover is not None:
                console.print(f"rows={rows}: crossover at d = {crossover} (first simulated row length where "
                              f"multi-pass is no slower than fused); fused fits up to d_max = {d_max}.")
            else:
                console.print(f"rows={rows}: no crossover: fused is faster at every simulated length where it "
                              f"fits; it fits up to d_max = {d_max}, above which phase 1 must pick multi-pass.")
    finally:
        acl.finalize()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
