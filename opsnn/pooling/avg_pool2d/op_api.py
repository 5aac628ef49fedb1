"""aclnnAvgPool2d: phase-1 checks in ops-nn's order, then tiling and kernel; phase 2
runs the executor.

CANN prototype (aclnn_avgpool2d.h), ``workspaceSize, executor`` returned:
  aclnnAvgPool2dGetWorkspaceSize(self, kernelSize, strides, paddings, ceilMode, countIncludePad,
                                 divisorOverride, cubeMathType, out)
  aclnnAvgPool2d(workspace, workspaceSize, executor, stream)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``). Formats: NCHW (4-D) or NCL/CHW
(3-D); pooling runs over the last two axes. Integer arrays are aclIntArray.
``paddings``: length 1 or 2 (symmetric, CANN), or length 4 ``[top, left, bottom,
right]`` (ONNX order) -- a simulator extension for the ONNX frontend's asymmetric
pads. Each at most half the kernel (torch's constraint). Padding contributes 0; the
divisor follows torch (``countIncludePad``: window clipped to the padded extent;
otherwise to the input; a non-zero ``divisorOverride`` replaces both).
"""
from __future__ import annotations

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_shape, check_tensor_type,
                            invalid)
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ..common.checks import check_pad_limit, checked_geom, int_array, trace_args
from ..common.kernel import executor_info, tile_program
from .infershape import avg_pool_attrs
from .kernel import avg_pool_body
from .tiling import avg_pool_tiling

OP = "aclnnAvgPool2d"


def _build(chip, self, kernelSize, strides, paddings, ceilMode, countIncludePad, divisorOverride,  # noqa: N803
           cubeMathType, out):
    # 1. null pointers and types
    check_not_null(OP, self=self, kernelSize=kernelSize, strides=strides, paddings=paddings, out=out)
    check_tensor_type(OP, self=self, out=out)
    # 2. dtypes
    check_dtype(OP, "self", self, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (self.data_type,))
    # 3. shapes and attributes
    check_rank(OP, "self", self, (3, 4))
    k, s, p4 = avg_pool_attrs(int_array(OP, "kernelSize", kernelSize, (1, 2), 1),
                              int_array(OP, "strides", strides, (0, 1, 2), 1),
                              int_array(OP, "paddings", paddings, (1, 2, 4), 0))
    if isinstance(divisorOverride, bool) or not isinstance(divisorOverride, int) or divisorOverride < 0:
        raise invalid(OP, f"divisorOverride must be an int >= 0 (0 = none), got {divisorOverride!r}")
    if cubeMathType not in (0, 1, 2, 3) or isinstance(cubeMathType, bool):
        raise invalid(OP, f"cubeMathType must be 0..3, got {cubeMathType!r}")
    check_pad_limit(OP, "paddings", p4, k)
    g = checked_geom(OP, self, k, s, (1, 1), p4, bool(ceilMode))
    check_shape(OP, "out", out, tuple(self.view_shape[:-2]) + (g.ho, g.wo))
    # 4. empty batch: nothing to launch
    if g.planes == 0:
        return aclOpExecutor("AvgPool2d", [], [self], [out], 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile program (kernel)
    res = avg_pool_tiling(chip, g, self.itemsize)
    args = trace_args(self, g, countIncludePad=bool(countIncludePad), divisorOverride=divisorOverride,
                      cubeMathType=cubeMathType)
    spec = tile_program("AvgPool2d", res.data, args, res.tiling_key)
    body = avg_pool_body(self, out, g, bool(countIncludePad), divisorOverride)
    return aclOpExecutor("AvgPool2d", [PreparedKernel(spec, body)], [self], [out], 0,
                         info=executor_info(spec, res.data), tiling=res)


def aclnnAvgPool2dGetWorkspaceSize(self, kernelSize, strides, paddings, ceilMode, countIncludePad,  # noqa: N802,N803
                                   divisorOverride, cubeMathType, out):
    """Phase 1 of torch.nn.functional.avg_pool2d.

    Parameters (CANN order): self (FLOAT/FLOAT16/BF16, 3-D or 4-D); kernelSize (1
    or 2 ints > 0); strides (0, 1 or 2 ints > 0; empty = kernelSize); paddings (1 or
    2 ints >= 0, symmetric; or 4 = [top, left, bottom, right], a simulator extension);
    ceilMode (bool); countIncludePad (bool); divisorOverride (int, 0 = none, else > 0);
    cubeMathType (0..3: validated and recorded; this vector kernel accumulates in
    fp32 whatever it says); out. Each pad at most kernel // 2.
    Returns (workspace_size, executor, status): 161001 null; 161002 type, dtype,
    rank, attribute or shape invalid; 561002 one kernel row does not fit UB.
    """
    return prepare("AvgPool2d", lambda chip: _build(chip, self, kernelSize, strides, paddings, ceilMode,
                                                    countIncludePad, divisorOverride, cubeMathType, out))


def aclnnAvgPool2d(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of AvgPool2d: bind addresses and enqueue the kernel."""
    return execute("AvgPool2d", workspace, workspaceSize, executor, stream)
