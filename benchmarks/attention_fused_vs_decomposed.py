"""Simulated time of attention: one FlashAttentionScore kernel vs the decomposed ops.

    python benchmarks/attention_fused_vs_decomposed.py [--chip ascend910b2] [--dtype float16]

For each (B, N, S, D) the same masked self-attention runs two ways in a timing-only
session (no numbers, so large shapes are cheap):

* fused: ``aclnnFlashAttentionScore`` (BNSD, boolean padding mask [B, 1, S, S]);
* decomposed, as an ONNX export lowers it: ``aclnnMatmul`` Q K^T (K^T a transposed
  view, read in place) -> ``aclnnMuls`` scale -> ``aclnnAdd`` additive mask
  [B, 1, 1, S] -> ``aclnnSoftmax`` -> ``aclnnMatmul`` P V.

It prints the device time of each (sum of kernel spans on one stream, and the
event-to-event latency) and the ratio. These are simulated times from npu-sim's cost
model (docs/timing.md), not measurements of hardware.
"""
from __future__ import annotations

import argparse
import math

import numpy as np

import opsnn
from acl_runtime.api import Session
from frontend.profiling import kernel_records, kernels_completed
from frontend.program import PreparedProgram, prepare_call

SHAPES = [(1, 12, 128, 64), (8, 12, 128, 64), (1, 12, 512, 64), (4, 16, 512, 64), (1, 32, 2048, 128),
          (1, 32, 4096, 128)]


def _run(s: Session, calls) -> tuple[float, float, int]:
    """Prepare ``calls`` [(aclnn, args)] into one PreparedProgram, run it on a new
    stream; returns (event latency ns, summed kernel ns, kernels)."""
    prog = PreparedProgram("attention")
    for aclnn, args in calls:
        prog.add(prepare_call(aclnn, "", aclnn, *args))
    prog.allocate()
    first = kernels_completed()
    latency_ns = prog.launch_timed()
    recs = kernel_records(first)
    return latency_ns, sum(r["dur_ns"] for r in recs), len(recs)


def fused(s: Session, b, n, seq, d, dtype) -> tuple[float, float, int]:
    q, k, v, out = (s.empty((b, n, seq, d), dtype) for _ in range(4))
    mask = s.empty((b, 1, seq, seq), np.uint8)
    sm = [s.empty((b, n, seq, 8), np.float32) for _ in range(2)]
    args = (q.tensor, k.tensor, v.tensor, None, None, None, mask.tensor, None, 1 / math.sqrt(d), 1.0, 2147483647,
            2147483647, n, "BNSD", 0, 0, sm[0].tensor, sm[1].tensor, None, out.tensor)
    return _run(s, [("aclnnFlashAttentionScore", args)])


def decomposed(s: Session, b, n, seq, d, dtype) -> tuple[float, float, int]:
    from opsnn.base.dtypes import from_numpy_dtype
    q, k, v, out = (s.empty((b, n, seq, d), dtype) for _ in range(4))
    kt = opsnn.aclCreateTensor((b, n, d, seq), from_numpy_dtype(dtype), (n * seq * d, seq * d, 1, d), 0, 2,
                               (b, n, seq, d), k.ptr)
    scores, scaled, masked, probs = (s.empty((b, n, seq, seq), dtype) for _ in range(4))
    mask = s.empty((b, 1, 1, seq), dtype)
    scale = opsnn.aclCreateScalar(1 / math.sqrt(d), opsnn.aclDataType.ACL_FLOAT)
    one = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
    calls = [("aclnnMatmul", (q.tensor, kt, scores.tensor, 0)),
             ("aclnnMuls", (scores.tensor, scale, scaled.tensor)),
             ("aclnnAdd", (scaled.tensor, mask.tensor, one, masked.tensor)),
             ("aclnnSoftmax", (masked.tensor, -1, probs.tensor)),
             ("aclnnMatmul", (probs.tensor, v.tensor, out.tensor, 0))]
    return _run(s, calls)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--chip", default="ascend910b2")
    p.add_argument("--dtype", default="float16", choices=("float16", "float32"))
    args = p.parse_args(argv)
    dtype = np.dtype(args.dtype)
    from rich.console import Console
    from rich.table import Table
    t = Table(title=f"masked self-attention on {args.chip} ({args.dtype}), simulated", title_justify="left")
    for c in ("B", "N", "S", "D", "fused us", "decomposed us", "kernels", "decomposed / fused"):
        t.add_column(c, justify="right")
    for b, n, seq, d in SHAPES:
        with Session(args.chip, timing_only=True) as s:
            f_lat, _, f_k = fused(s, b, n, seq, d, dtype)
        with Session(args.chip, timing_only=True) as s:
            d_lat, _, d_k = decomposed(s, b, n, seq, d, dtype)
        t.add_row(str(b), str(n), str(seq), str(d), f"{f_lat / 1e3:,.1f}", f"{d_lat / 1e3:,.1f}", f"{f_k} / {d_k}",
                  f"{d_lat / f_lat:.2f}x")
    Console().print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
