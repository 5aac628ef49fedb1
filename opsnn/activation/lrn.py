"""aclnnLrn: local response normalisation across channels (ONNX LRN semantics).

No public CANN aclnn entry point for LRN was found (CANN has an LRN graph op, but no
``aclnnLrn`` in the aclnn API references); this name and signature are ours,
shaped like the other aclnn ops:
  aclnnLrnGetWorkspaceSize(self, size, alpha, beta, bias, out)
  aclnnLrn(workspace, workspaceSize, executor, stream)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``); ``self`` is N x C x D1 x ... x Dk
(rank 2 to 8; NCHW for images), normalised across dim 1.

Formula (ONNX LRN-13): for channel c,
  square_sum[n, c, ...] = sum of x[n, i, ...]^2 over
      max(0, c - floor((size-1)/2)) <= i <= min(C-1, c + ceil((size-1)/2))
  y = x / (bias + alpha / size * square_sum) ^ beta
computed in fp32. ``size`` is an int >= 1; ``alpha``, ``beta``, ``bias`` are finite
numbers (or aclScalar); ONNX defaults are alpha=1e-4, beta=0.75, bias=1.0.

Tiling: a unit is one spatial position's channel column (C elements, strided by
the spatial size in GM), key 0. If a column does not fit UB double-buffered, a
unit is a chunk of ``cc`` channels plus its ``size - 1`` halo channels (key 1).
Vector passes per element: square, ``size`` window adds, scale, add bias, ln, mul
beta, exp, divide (+ casts for fp16/bf16); scratch: fp32 squares and sums.
"""
from __future__ import annotations

import math

import numpy as np

from ..base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type,
                           invalid)
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.memview import tensor_view, write_out
from ..base.op import execute, prepare
from ..base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ..base.tensor import aclScalar
from ..base.tiling import ceil_div, vector_kernel


def lrn_compute(x: np.ndarray, size: int, alpha: float, beta: float, bias: float) -> np.ndarray:
    """ONNX LRN across axis 1, in fp32 (fp64 stays fp64)."""
    ct = np.float64 if x.dtype == np.float64 else np.float32
    x = np.asarray(x).astype(ct, copy=False)
    c = x.shape[1]
    before = (size - 1) // 2
    after = size - 1 - before                      # ceil((size - 1) / 2)
    sq = np.square(x)
    pad = [(0, 0)] * x.ndim
    pad[1] = (before, after)
    sqp = np.pad(sq, pad)
    if size <= 16:
        ss = sqp[:, 0:c].copy()
        for k in range(1, size):
            ss += sqp[:, k:k + c]
    else:  # long windows: difference of a running sum (fp64 keeps it exact enough)
        cs = np.cumsum(sqp, axis=1, dtype=np.float64)
        cs = np.concatenate([np.zeros_like(cs[:, :1]), cs], axis=1)
        ss = (cs[:, size:size + c] - cs[:, 0:c]).astype(ct)
    return x / np.power(ct(bias) + ct(alpha / size) * ss, ct(beta))


def _body(x_t, out_t, size, alpha, beta, bias):
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            write_out(mem, addrs[1], out_t, lrn_compute(x, size, alpha, beta, bias))
        return body
    return make


def _number(op: str, name: str, v) -> float:
    if isinstance(v, aclScalar):
        v = v.to_python()
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise invalid(op, f"{name} must be a number, got {v!r}")
    if not math.isfinite(float(v)):
        raise invalid(op, f"{name} must be finite, got {v!r}")
    return float(v)


def lrn_tiling(chip, n: int, c: int, spatial: int, size: int, item: int, args: dict, buffer_num: int = 2):
    """Unit = a channel column (or channel chunk + halo). Returns ``(spec, info)``."""
    tmp = 8 + (4 if item != 4 else 0)              # fp32 square + sum (+ cast) per channel
    passes = size + 7 + (2 if item != 4 else 0)

    def slot(cc: int, halo: int) -> int:
        return buffer_num * ((cc + halo) * item + cc * item) + cc * tmp

    cc, key = c, 0
    if slot(c, 0) > chip.ub_bytes:
        key = 1
        per = buffer_num * 2 * item + tmp
        cc = (chip.ub_bytes - buffer_num * (size - 1) * item) // per
        cc = min(cc, c)
        if cc < 1:
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                             f"Lrn: a window of size {size} needs {slot(1, size - 1)} B of UB but {chip.name} has "
                             f"{chip.ub_bytes} B")
    n_cc = ceil_div(c, cc)
    units = n * spatial * n_cc
    in_total = n * spatial * (c + (n_cc - 1) * (size - 1)) * item
    out_total = n * spatial * c * item
    vec_total = n * spatial * c * passes * 4
    spec, td = vector_kernel(chip, "Lrn", units, in_total / units, out_total / units, vec_total / units,
                             tmp_bytes_per_unit=cc * tmp,
                             buffer_num=buffer_num, tiling_key=key,
                             args=dict(args, bytes=int(in_total + out_total), unit_channels=cc))
    strategy = ("channel_column", "channel_chunk")[key]
    spec.args["strategy"] = strategy
    return spec, {"strategy": strategy, "unit_channels": cc, "tiling": spec.args["tiling"]}


def aclnnLrnGetWorkspaceSize(self, size, alpha, beta, bias, out):  # noqa: N802
    """Phase 1 of ONNX LRN (see the module docstring; the name is this simulator's,
    no public CANN aclnnLrn exists). Parameters: self (FLOAT/FLOAT16/BF16, rank
    2..8, channels on dim 1), size (int >= 1), alpha, beta, bias (finite numbers),
    out (self's dtype and shape). Returns (workspace_size, executor, status):
    161001 null; 161002 not a tensor, dtype, rank, attribute or out shape."""
    def build(chip):
        op = "aclnnLrn"
        check_not_null(op, self=self, size=size, alpha=alpha, beta=beta, bias=bias, out=out)
        check_tensor_type(op, self=self, out=out)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        check_rank(op, "self", self, range(2, 9))
        if isinstance(size, bool) or not hasattr(size, "__index__") or int(size) < 1:
            raise invalid(op, f"size must be an integer >= 1, got {size!r}")
        sz = int(size)
        a, b, k = _number(op, "alpha", alpha), _number(op, "beta", beta), _number(op, "bias", bias)
        check_shape(op, "out", out, self.view_shape)
        if self.numel == 0:
            return aclOpExecutor("Lrn", [], [self], [out], 0, info={"strategy": "empty"})
        shape = self.view_shape
        n, c = shape[0], shape[1]
        spatial = self.numel // (n * c)
        args = {"shapes": [list(shape)], "dtype": self.dtype_name, "size": sz, "alpha": a, "beta": b, "bias": k}
        spec, info = lrn_tiling(chip, n, c, spatial, sz, self.itemsize, args)
        return aclOpExecutor("Lrn", [PreparedKernel(spec, _body(self, out, sz, a, b, k))], [self], [out], 0,
                             info=info)
    return prepare("Lrn", build)


def aclnnLrn(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("Lrn", workspace, workspaceSize, executor, stream)
