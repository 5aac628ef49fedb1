"""aclnnDequantizeLinear: phase 1 (checks, shape inference, vector tiling) and phase 2.

CANN has no aclnn entry point with ONNX DequantizeLinear's semantics: the nearest,
aclnnAscendAntiQuant(x, scale, offset, dstType, sqrtMode, y) (CANN aolapi doc),
computes (x + offset) * scale for INT8 x along the last dim only, to FLOAT16/BF16. The
name and parameters here are npu-sim's, in CANN's style (x, scale, zeroPoint, axis,
out), for any axis and a float32 out:
  aclnnDequantizeLinearGetWorkspaceSize(x, scale, zeroPoint, axis, out, workspaceSize, executor)
  aclnnDequantizeLinear(workspace, workspaceSize, executor, stream)
Formula: out = (x - zeroPoint) * scale, the subtraction in float32.

| param | dtype | shape |
|---|---|---|
| x | INT8, UINT8, INT16, INT32 | 0-8 dims |
| scale | FLOAT, FLOAT16, BF16 | [1] or [x.shape[axis]] (0-D allowed) |
| zeroPoint (may be null) | x's dtype | as scale |
| axis | int (negative counts from the end) | |
| out | FLOAT, FLOAT16, BF16 | x's shape |

Status: 161001 null x/scale/out; 161002 not a tensor, a dtype (named), zeroPoint dtype
not x's, rank, axis, scale/zeroPoint shape, out shape.

Blocked dequantization (ONNX DequantizeLinear-21 ``block_size``; no CANN entry point
does it, see :mod:`opsnn.quant.quantize.op_api`), npu-sim's, in CANN's style:
  aclnnDequantizeLinearBlockGetWorkspaceSize(x, scale, zeroPoint, axis, blockSize, out, ...)
scale / zeroPoint of x's rank with ``ceil(x.shape[axis] / blockSize)`` along axis; same
checks and kernel (key PER_BLOCK); 161002 also for blockSize < 1 or a wrong scale shape.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as DT
from ...base.op import execute, prepare
from ..common.affine import dequantize_values
from ..common.affine_op import build_affine, build_blocked
from .kernel import tile_program
from .tiling import dequantize_tiling
from ..common.checks import check_params
from .tiling_data import DequantizeTilingKey

OP = "aclnnDequantizeLinear"
OP_BLOCK = "aclnnDequantizeLinearBlock"
X_TYPES = (DT.ACL_INT8, DT.ACL_UINT8, DT.ACL_INT16, DT.ACL_INT32)
F_TYPES = (DT.ACL_FLOAT, DT.ACL_FLOAT16, DT.ACL_BF16)


def _build(chip, x, scale, zero_point, axis, out, block_size=None):
    op = OP_BLOCK if block_size is not None else OP   # the entry point named in every message
    check_not_null(op, x=x, scale=scale, out=out)
    opt = {"zeroPoint": zero_point} if zero_point is not None else {}
    check_tensor_type(op, x=x, scale=scale, out=out, **opt)
    check_dtype(op, "x", x, X_TYPES)
    check_dtype(op, "scale", scale, F_TYPES)
    if zero_point is not None and zero_point.data_type != x.data_type:
        raise invalid(op, f"zeroPoint dtype {zero_point.data_type.name} differs from x {x.data_type.name}")
    check_dtype(op, "out", out, F_TYPES)
    if len(x.view_shape) > 8:
        raise invalid(op, f"x must have at most 8 dims, got {list(x.view_shape)}")
    if block_size is not None:
        return build_blocked(chip, OP_BLOCK, "DequantizeLinearBlock", x, scale, zero_point, out, axis, block_size,
                             DequantizeTilingKey.PER_BLOCK, dequantize_values, dequantize_tiling, tile_program)
    ax, c = check_params(OP, x, scale, zero_point, axis)
    check_shape(OP, "out", out, tuple(x.view_shape))
    key = DequantizeTilingKey.PER_AXIS if c > 1 else DequantizeTilingKey.PER_TENSOR
    return build_affine(chip, OP, "DequantizeLinear", x, scale, zero_point, out, ax, key,
                        lambda xv, sv, zv: dequantize_values(xv, sv, zv, ax),
                        dequantize_tiling, tile_program)


def aclnnDequantizeLinearGetWorkspaceSize(x, scale, zeroPoint, axis, out):  # noqa: N802,N803
    """Phase 1 of out = (x - zeroPoint) * scale (module doc). Returns (workspace_size,
    executor, status)."""
    return prepare("DequantizeLinear", lambda chip: _build(chip, x, scale, zeroPoint, axis, out))


def aclnnDequantizeLinear(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of DequantizeLinear. Returns a status."""
    return execute("DequantizeLinear", workspace, workspaceSize, executor, stream)


def aclnnDequantizeLinearBlockGetWorkspaceSize(x, scale, zeroPoint, axis, blockSize, out):  # noqa: N802,N803
    """Phase 1 of blocked dequantization, out = (x - zeroPoint[b]) * scale[b] with
    b = i // blockSize along ``axis`` (module doc). Returns (workspace_size, executor,
    status)."""
    return prepare("DequantizeLinearBlock", lambda chip: _build(chip, x, scale, zeroPoint, axis, out, blockSize))


def aclnnDequantizeLinearBlock(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of DequantizeLinearBlock. Returns a status."""
    return execute("DequantizeLinearBlock", workspace, workspaceSize, executor, stream)
