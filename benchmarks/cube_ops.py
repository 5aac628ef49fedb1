"""One GEMM through every cube operator: ``python -m benchmarks.cube_ops [--n N] [--chip NAME]``.

An fp32 N x N x N GEMM (default 4096) as aclnnMatmul, as aclnnBatchMatMul of one
batch, and as a 1x1 aclnnConvolution (input [1, N, sqrt(N), sqrt(N)] viewed as the
K x M operand, weight [N, N, 1, 1]) under each cubeMathType 0..3. All three pick the
Cube's compute type with one function, ``opsnn.matmul.common.cube_math.
cube_compute_dtype`` (CANN aclnnMatmul docs, Atlas A2: fp32 stays fp32 under 0, goes
HF32 under 1 and 3, fp16 under 2), and tile with one cube tiling, so the simulated
kernel times agree; the ratio columns show it. The device runs timing-only
(``acl.init(timing_only=True)``: the same simulated times, no numbers).
"""
from __future__ import annotations

import argparse
import math

import numpy as np
from rich.console import Console
from rich.table import Table

import opsnn
from acl_runtime import acl, profiler


def _tensor(shape) -> object:
    nbytes = int(np.prod(shape)) * 4
    ptr, ret = acl.rt.malloc(nbytes, 0)
    if ret:
        raise SystemExit(f"malloc of {nbytes} B failed: {acl.get_recent_err_msg()}")
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    return opsnn.aclCreateTensor(list(shape), opsnn.aclDataType.ACL_FLOAT, strides, 0,
                                 opsnn.aclFormat.ACL_FORMAT_ND, list(shape), ptr)


def _kernel_us(stream, prepared, launch) -> float:
    """Simulated device time (us) of the kernels one aclnn call enqueues."""
    ws, ex, ret = prepared
    if ret:
        raise SystemExit(f"phase 1 failed: {opsnn.aclGetRecentErrMsg()}")
    wptr = acl.rt.malloc(ws, 0)[0] if ws else 0
    first = profiler.kernels_completed()
    if launch(wptr, ws, ex, stream):
        raise SystemExit(f"phase 2 failed: {opsnn.aclGetRecentErrMsg()}")
    acl.rt.synchronize_stream(stream)
    return sum(r["dur_ns"] for r in profiler.kernel_records(first)) / 1e3


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=4096, help="GEMM size N (a perfect square; default 4096)")
    ap.add_argument("--chip", default="ascend910b2")
    a = ap.parse_args(argv)
    side = math.isqrt(a.n)
    if side * side != a.n:
        ap.error(f"--n must be a perfect square (the conv's H*W), got {a.n}")
    n = a.n
    acl.init(chip=a.chip, timing_only=True)
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    t = Table(title=f"fp32 {n}^3 GEMM on {a.chip}: simulated kernel time (us) per cube operator")
    for c in ("cubeMathType", "Matmul", "BatchMatMul (1 batch)", "1x1 Convolution", "BMM / MM", "Conv / MM"):
        t.add_column(c, justify="right")
    for cmt in range(4):
        mm = _kernel_us(stream, opsnn.aclnnMatmulGetWorkspaceSize(_tensor((n, n)), _tensor((n, n)),
                                                                   _tensor((n, n)), cmt), opsnn.aclnnMatmul)
        bmm = _kernel_us(stream, opsnn.aclnnBatchMatMulGetWorkspaceSize(_tensor((1, n, n)), _tensor((1, n, n)),
                                                                         _tensor((1, n, n)), cmt),
                         opsnn.aclnnBatchMatMul)
        ia = opsnn.aclCreateIntArray
        conv = _kernel_us(stream, opsnn.aclnnConvolutionGetWorkspaceSize(
            _tensor((1, n, side, side)), _tensor((n, n, 1, 1)), None, ia([1, 1]), ia([0, 0]), ia([1, 1]), False,
            None, 1, _tensor((1, n, side, side)), cmt), opsnn.aclnnConvolution)
        t.add_row(str(cmt), f"{mm:.1f}", f"{bmm:.1f}", f"{conv:.1f}", f"{bmm / mm:.3f}", f"{conv / mm:.3f}")
        acl.rt.reset_device(0)
        acl.rt.set_device(0)
        stream, _ = acl.rt.create_stream()
    acl.finalize()
    Console().print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
