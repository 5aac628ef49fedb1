"""aclnnDynamicQuantizeLinear: phase 1 (checks, shape inference, two-pass tiling) and phase 2.

CANN has no aclnn entry point with ONNX DynamicQuantizeLinear's semantics: CANN's
aclnnDynamicQuant (CANN aolapi doc) quantizes symmetrically to int8 with one scale
per token (row), max|x| / 127. The name and parameters here are npu-sim's, in CANN's
style:
  aclnnDynamicQuantizeLinearGetWorkspaceSize(x, y, yScale, yZeroPoint, workspaceSize, executor)
  aclnnDynamicQuantizeLinear(workspace, workspaceSize, executor, stream)
Formula: kernel module doc (per tensor, asymmetric, uint8).

| param | dtype | shape |
|---|---|---|
| x | FLOAT | any, non-empty |
| y | UINT8 | x's shape |
| yScale | FLOAT | 0-D or [1] |
| yZeroPoint | UINT8 | 0-D or [1] |

Workspace: 8 B per block of the min/max pass (the partials), plus any Contiguous copy.
Status: 161001 null tensor; 161002 not a tensor, a dtype (named), empty x, shapes.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as DT
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from .kernel import minmax_body, quantize_body, tile_programs
from .tiling import dynamic_quantize_tiling

OP = "aclnnDynamicQuantizeLinear"


def _build(chip, x, y, y_scale, y_zp):
    check_not_null(OP, x=x, y=y, yScale=y_scale, yZeroPoint=y_zp)
    check_tensor_type(OP, x=x, y=y, yScale=y_scale, yZeroPoint=y_zp)
    check_dtype(OP, "x", x, (DT.ACL_FLOAT,))
    check_dtype(OP, "y", y, (DT.ACL_UINT8,))
    check_dtype(OP, "yScale", y_scale, (DT.ACL_FLOAT,))
    check_dtype(OP, "yZeroPoint", y_zp, (DT.ACL_UINT8,))
    if x.numel == 0:
        raise invalid(OP, "x must not be empty (its range defines the scale)")
    check_shape(OP, "y", y, tuple(x.view_shape))
    for name, t in (("yScale", y_scale), ("yZeroPoint", y_zp)):
        if t.numel != 1 or len(t.view_shape) > 1:
            raise invalid(OP, f"{name} must be 0-D or [1], got {list(t.view_shape)}")
    res = dynamic_quantize_tiling(chip, x.numel, x.itemsize)
    args = {"shape": list(x.view_shape), "dtype": x.dtype_name, "out_dtype": "uint8"}
    red, quant = tile_programs(res.data, x.itemsize, args, res.tiling_key)
    plan = WorkspacePlan(chip, OP)
    x_ref = plan.input(x, 0)
    ws_off = plan.alloc(res.workspace_bytes)
    outs = [plan.output(t, i + 1, n) for i, (t, n) in enumerate(((y, "y"), (y_scale, "yScale"),
                                                                  (y_zp, "yZeroPoint")))]
    kernels = [PreparedKernel(red, minmax_body(x_ref, ws_off)),
               PreparedKernel(quant, quantize_body(x_ref, *outs, ws_off))]
    return aclOpExecutor("DynamicQuantizeLinear", plan.kernels(kernels), [x], [y, y_scale, y_zp], plan.size,
                         info={"tiling": quant.args["tiling"], "minmax_blocks": res.data.reduce.block_dim})


def aclnnDynamicQuantizeLinearGetWorkspaceSize(x, y, yScale, yZeroPoint):  # noqa: N802,N803
    """Phase 1 (module doc). Returns (workspace_size, executor, status)."""
    return prepare("DynamicQuantizeLinear", lambda chip: _build(chip, x, y, yScale, yZeroPoint))


def aclnnDynamicQuantizeLinear(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of DynamicQuantizeLinear. Returns a status."""
    return execute("DynamicQuantizeLinear", workspace, workspaceSize, executor, stream)
