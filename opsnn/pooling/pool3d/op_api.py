"""aclnnMaxPool3dWithArgmax and aclnnAvgPool3d: phase-1 checks in ops-nn's order, then
tiling (two separable passes, ``tiling.py``) and kernel; phase 2 runs the executor.

CANN prototypes (aclnn_max_pool3d_with_argmax.h, aclnn_avgpool3d.h), ``workspaceSize,
executor`` returned instead of passed:
  aclnnMaxPool3dWithArgmaxGetWorkspaceSize(self, kernelSize, stride, padding, dilation, ceilMode, out, indices)
  aclnnAvgPool3dGetWorkspaceSize(self, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride, out)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``); ``indices`` INT32 (CANN's only
index type for this op). Formats: NCDHW (5-D) or CDHW (4-D), ND.
kernelSize: 1 or 3 ints > 0. stride: 0 (= kernelSize), 1 or 3 ints > 0. padding: 1 or
3 ints >= 0 (symmetric, CANN), or 6 = ONNX's [d_b, h_b, w_b, d_e, h_e, w_e] (npu-sim's
extension for the ONNX frontend); each at most half the (dilated) kernel.
dilation (max only): 1 or 3 ints > 0. divisorOverride: 0 (none) or > 0.
Statuses: 161001 null; 161002 type, dtype, rank, attribute or shape; 561002 one kernel
row of a pass does not fit UB.
"""
from __future__ import annotations

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type,
                            invalid)
from ...base.dtypes import aclDataType
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ..common.checks import int_array
from .infershape import out_shape, pads6, passes, triple
from .kernel import avg_pool3d_bodies, max_pool3d_bodies, tile_programs
from .tiling import pool3d_tiling


def _geom(op: str, self, k, s, p, d, ceil_mode):
    k3 = triple(k)
    s3 = triple(s, k3)
    d3 = triple(d, (1, 1, 1))
    p6 = pads6(p)
    for i, axis in enumerate("DHW"):
        eff = (k3[i] - 1) * d3[i] + 1
        if max(p6[i], p6[i + 3]) > eff // 2:
            raise invalid(op, f"padding along {axis} ({p6[i]}, {p6[i + 3]}) must be at most half the kernel "
                              f"size {eff}")
    shape = self.view_shape
    if any(v == 0 for v in shape[-4:]):
        raise invalid(op, f"self shape {list(shape)} has an empty C/D/H/W dimension")
    g_hw, g_d = passes(shape, k3, s3, d3, p6, bool(ceil_mode))
    if min(g_d.ho, g_hw.ho, g_hw.wo) < 1:
        raise invalid(op, f"output size [{g_d.ho}, {g_hw.ho}, {g_hw.wo}] is too small for input {list(shape)} "
                          f"with kernel {list(k3)}, stride {list(s3)}, dilation {list(d3)}, padding {list(p6)}")
    return k3, s3, d3, p6, g_hw, g_d


def _args(self, k3, s3, d3, p6, g_hw, g_d, **extra):
    return dict({"shapes": [list(self.view_shape)], "dtype": self.dtype_name, "kernel": list(k3),
                 "stride": list(s3), "dilation": list(d3), "pads": list(p6),
                 "out": [g_d.ho, g_hw.ho, g_hw.wo]}, **extra)


def _executor(name, specs, bodies, inputs, outputs, res):
    kernels = [PreparedKernel(sp, b) for sp, b in zip(specs, bodies)]
    info = {"strategy": res.strategy, "passes": [res.data.pass_hw.strategy, res.data.pass_d.strategy],
            "tiling": [specs[0].args["tiling"], specs[1].args["tiling"]]}
    return aclOpExecutor(name, kernels, inputs, outputs, res.workspace_bytes, info=info, tiling=res)


def aclnnMaxPool3dWithArgmaxGetWorkspaceSize(self, kernelSize, stride, padding, dilation, ceilMode,  # noqa: N802,N803
                                             out, indices):
    """Phase 1 of 3-D max pooling with the argmax (module doc): ``indices`` holds the
    flat ``d*H*W + h*W + w`` of the first maximum of each window within its (n, c)
    volume. Returns (workspace_size, executor, status)."""
    op, name = "aclnnMaxPool3dWithArgmax", "MaxPool3dWithArgmax"

    def build(chip):
        check_not_null(op, self=self, kernelSize=kernelSize, stride=stride, padding=padding, dilation=dilation,
                       out=out, indices=indices)
        check_tensor_type(op, self=self, out=out, indices=indices)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        check_dtype(op, "indices", indices, (aclDataType.ACL_INT32,))
        check_rank(op, "self", self, (4, 5))
        k3, s3, d3, p6, g_hw, g_d = _geom(op, self, int_array(op, "kernelSize", kernelSize, (1, 3), 1),
                                          int_array(op, "stride", stride, (0, 1, 3), 1),
                                          int_array(op, "padding", padding, (1, 3, 6), 0),
                                          int_array(op, "dilation", dilation, (1, 3), 1), ceilMode)
        shape = out_shape(self.view_shape, g_hw, g_d)
        check_shape(op, "out", out, shape)
        check_shape(op, "indices", indices, shape)
        res = pool3d_tiling(chip, name, g_hw, g_d, self.itemsize, indices.itemsize)
        specs = tile_programs(name, res.data, _args(self, k3, s3, d3, p6, g_hw, g_d), res.tiling_key)
        return _executor(name, specs, max_pool3d_bodies(self, out, indices, g_hw, g_d), [self], [out, indices],
                         res)
    return prepare(name, build)


def aclnnMaxPool3dWithArgmax(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of MaxPool3dWithArgmax: bind addresses and enqueue the two passes."""
    return execute("MaxPool3dWithArgmax", workspace, workspaceSize, executor, stream)


def aclnnAvgPool3dGetWorkspaceSize(self, kernelSize, stride, padding, ceilMode, countIncludePad,  # noqa: N802,N803
                                   divisorOverride, out):
    """Phase 1 of 3-D average pooling (module doc; torch's divisor rule, per axis).
    Returns (workspace_size, executor, status)."""
    op, name = "aclnnAvgPool3d", "AvgPool3d"

    def build(chip):
        check_not_null(op, self=self, kernelSize=kernelSize, stride=stride, padding=padding, out=out)
        check_tensor_type(op, self=self, out=out)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        check_rank(op, "self", self, (4, 5))
        if isinstance(divisorOverride, bool) or not isinstance(divisorOverride, int) or divisorOverride < 0:
            raise invalid(op, f"divisorOverride must be an int >= 0 (0 = none), got {divisorOverride!r}")
        k3, s3, d3, p6, g_hw, g_d = _geom(op, self, int_array(op, "kernelSize", kernelSize, (1, 3), 1),
                                          int_array(op, "stride", stride, (0, 1, 3), 1),
                                          int_array(op, "padding", padding, (1, 3, 6), 0), (1,), ceilMode)
        check_shape(op, "out", out, out_shape(self.view_shape, g_hw, g_d))
        res = pool3d_tiling(chip, name, g_hw, g_d, self.itemsize)
        args = _args(self, k3, s3, d3, p6, g_hw, g_d, countIncludePad=bool(countIncludePad),
                     divisorOverride=divisorOverride)
        specs = tile_programs(name, res.data, args, res.tiling_key)
        bodies = avg_pool3d_bodies(self, out, g_hw, g_d, bool(countIncludePad), divisorOverride)
        return _executor(name, specs, bodies, [self], [out], res)
    return prepare(name, build)


def aclnnAvgPool3d(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of AvgPool3d: bind addresses and enqueue the two passes."""
    return execute("AvgPool3d", workspace, workspaceSize, executor, stream)
