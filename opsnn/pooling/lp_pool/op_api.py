"""aclnnLpPool: npu-sim's Lp pooling (ONNX LpPool). CANN has no Lp pooling operator
(ops-nn's pooling family has max, average, adaptive and their backward ops); the name
and argument order follow CANN's ONNX-style aclnnMaxPool.

Prototype (npu-sim; ``workspaceSize, executor`` returned):
  aclnnLpPoolGetWorkspaceSize(self, kernelShape, strides, pads, dilations, ceilMode, p, out)
  aclnnLpPool(workspace, workspaceSize, executor, stream)
self: FLOAT, FLOAT16, BF16, [N, C, *S] with 1 to 3 spatial dims (ONNX layout; unlike
aclnnMaxPool, a 3-D tensor is 1-D NCL). kernelShape: one int > 0 per spatial dim.
strides, dilations: empty (1s) or one int > 0 per dim. pads: empty (0s) or 2 per dim in
ONNX order [b..., e...], each >= 0 (no half-kernel limit: not a CANN op). ceilMode:
int, non-zero = ceil. p: number > 0 (ONNX's default 2). out: self's dtype.
Statuses: 161001 null; 161002 type, dtype, rank, attribute or shape; 561002 one kernel
row of a pass does not fit UB.
"""
from __future__ import annotations

import math

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type,
                            invalid)
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ..common.checks import int_array
from .infershape import lp_geoms, out_shape
from .kernel import lp_pool_bodies, tile_programs
from .tiling import lp_pool_tiling

OP = "aclnnLpPool"


def _build(chip, self, kernelShape, strides, pads, dilations, ceilMode, p, out):  # noqa: N803
    check_not_null(OP, self=self, kernelShape=kernelShape, strides=strides, pads=pads, dilations=dilations, out=out)
    check_tensor_type(OP, self=self, out=out)
    check_dtype(OP, "self", self, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (self.data_type,))
    check_rank(OP, "self", self, (3, 4, 5))
    shape = tuple(self.view_shape)
    nsp = len(shape) - 2
    k = int_array(OP, "kernelShape", kernelShape, (nsp,), 1)
    s = int_array(OP, "strides", strides, (0, nsp), 1) or (1,) * nsp
    d = int_array(OP, "dilations", dilations, (0, nsp), 1) or (1,) * nsp
    pd = int_array(OP, "pads", pads, (0, 2 * nsp), 0) or (0,) * (2 * nsp)
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p) or p <= 0:
        raise invalid(OP, f"p must be a finite number > 0, got {p!r}")
    if any(v == 0 for v in shape[1:]):
        raise invalid(OP, f"self shape {list(shape)} has an empty C or spatial dimension")
    geoms = lp_geoms(shape, k, s, d, pd, bool(ceilMode))
    oshape = out_shape(shape, geoms)
    if min(oshape[2:]) < 1:
        raise invalid(OP, f"output size {list(oshape[2:])} is too small for input {list(shape)} with kernel "
                          f"{list(k)}, strides {list(s)}, dilations {list(d)}, pads {list(pd)}")
    check_shape(OP, "out", out, oshape)
    if shape[0] == 0:
        return aclOpExecutor("LpPool", [], [self], [out], 0, info={"strategy": "empty"})
    res, per_pass = lp_pool_tiling(chip, geoms, self.itemsize)
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "kernel": list(k), "stride": list(s),
            "dilation": list(d), "pads": list(pd), "p": float(p), "out": list(oshape[2:])}
    specs = tile_programs(per_pass, args)
    kernels = [PreparedKernel(sp, b) for sp, b in zip(specs, lp_pool_bodies(self, out, geoms, float(p)))]
    info = {"strategy": res.strategy, "passes": [r.strategy for r in per_pass],
            "tiling": [sp.args["tiling"] for sp in specs]}
    return aclOpExecutor("LpPool", kernels, [self], [out], res.workspace_bytes, info=info, tiling=res)


def aclnnLpPoolGetWorkspaceSize(self, kernelShape, strides, pads, dilations, ceilMode, p, out):  # noqa: N802,N803
    """Phase 1 of Lp pooling (module doc). Returns (workspace_size, executor, status)."""
    return prepare("LpPool", lambda chip: _build(chip, self, kernelShape, strides, pads, dilations, ceilMode, p,
                                                 out))


def aclnnLpPool(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of LpPool: bind addresses and enqueue its one or two passes."""
    return execute("LpPool", workspace, workspaceSize, executor, stream)
