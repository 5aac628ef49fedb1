"""aclnnQuantize: phase 1 (checks, shape inference, vector tiling) and phase 2.

CANN prototype (aclnn_quantize.h; CANN aolapi doc "aclnnQuantize", ops-nn
``quant/quantize``):
  aclnnQuantizeGetWorkspaceSize(x, scales, zeroPoints, dtype, axis, out, workspaceSize, executor)
  aclnnQuantize(workspace, workspaceSize, executor, stream)
Formula: out = round(x / scales + zeroPoints), saturated to ``dtype``'s range (round
half to even).

| param | dtype | shape |
|---|---|---|
| x | FLOAT, FLOAT16, BF16 | 1-8 dims |
| scales | FLOAT, FLOAT16, BF16 (x's dtype unless x is FLOAT) | [1] or [x.shape[axis]] |
| zeroPoints (may be null) | INT32, INT8, UINT8, FLOAT, BF16 | as scales |
| dtype | ACL_INT8, ACL_UINT8, ACL_INT32 | |
| axis | int (negative counts from the end) | |
| out | ``dtype`` | x's shape |

CANN also lists ACL_HIFLOAT8 / ACL_FLOAT8_E4M3FN / ACL_FLOAT8_E5M2 for ``dtype``;
npu-sim has no fp8 aclDataType, and any other dtype (ACL_INT16 ...) is refused, 161002
naming it. Non-contiguous inputs get a Contiguous copy, a non-contiguous out a ViewCopy.
Status: 161001 null x/scales/out; 161002 not a tensor, a dtype (named), dtype/out
mismatch, rank, axis, scales/zeroPoints shape, out shape.

Blocked quantization (ONNX QuantizeLinear-21 ``block_size``): CANN has no static
per-block aclnn quantize (aclnnGroupQuant's groups are row ranges given by a
groupIndex tensor, the block quant entry points are dynamic and fp8), so npu-sim adds
one in CANN's style:
  aclnnQuantizeBlockGetWorkspaceSize(x, scales, zeroPoints, dtype, axis, blockSize, out, ...)
with scales / zeroPoints of x's rank, ``ceil(x.shape[axis] / blockSize)`` along axis
and x's dims elsewhere; element i along axis uses block i // blockSize. Same checks,
dtypes and kernel (key PER_BLOCK; the scale tensor is resident in UB when it fits a
quarter of it, else streamed beside x); 161002 also for blockSize < 1 or a scale shape
that is not the blocked one.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as DT
from ...base.op import execute, prepare
from ..common.affine import quantize_values
from ..common.affine_op import build_affine, build_blocked
from .kernel import tile_program
from .tiling import quantize_tiling
from ..common.checks import check_params
from .tiling_data import QuantizeTilingKey

OP = "aclnnQuantize"
OP_BLOCK = "aclnnQuantizeBlock"
X_TYPES = (DT.ACL_FLOAT, DT.ACL_FLOAT16, DT.ACL_BF16)
ZP_TYPES = (DT.ACL_INT32, DT.ACL_INT8, DT.ACL_UINT8, DT.ACL_FLOAT, DT.ACL_BF16)
OUT_TYPES = (DT.ACL_INT8, DT.ACL_UINT8, DT.ACL_INT32)


def _build(chip, x, scales, zero_points, dtype, axis, out, block_size=None):
    op = OP_BLOCK if block_size is not None else OP   # the entry point named in every message
    check_not_null(op, x=x, scales=scales, out=out)
    opt = {"zeroPoints": zero_points} if zero_points is not None else {}
    check_tensor_type(op, x=x, scales=scales, out=out, **opt)
    check_dtype(op, "x", x, X_TYPES)
    check_dtype(op, "scales", scales, X_TYPES)
    if x.data_type != DT.ACL_FLOAT and scales.data_type != x.data_type:
        raise invalid(op, f"scales dtype {scales.data_type.name} must equal x dtype {x.data_type.name} "
                          "when x is not ACL_FLOAT")
    if zero_points is not None:
        check_dtype(op, "zeroPoints", zero_points, ZP_TYPES)
    try:
        dst = DT(int(dtype))
    except (TypeError, ValueError):
        raise invalid(op, f"dtype {dtype!r} is not an aclDataType") from None
    if dst not in OUT_TYPES:
        raise invalid(op, f"dtype {dst.name} not supported; expected one of {', '.join(t.name for t in OUT_TYPES)}")
    check_dtype(op, "out", out, (dst,))
    eight_bit = (DT.ACL_INT8, DT.ACL_UINT8)
    if block_size is not None and zero_points is not None and zero_points.data_type in eight_bit \
            and dst in eight_bit and zero_points.data_type != dst:
        raise invalid(op, f"zeroPoints dtype {zero_points.data_type.name} must equal the output dtype {dst.name} "
                          "(ONNX QuantizeLinear: y_zero_point has y's type)")
    if not 1 <= len(x.view_shape) <= 8:
        raise invalid(op, f"x must have 1 to 8 dims, got {list(x.view_shape)}")
    if block_size is not None:
        return build_blocked(chip, OP_BLOCK, "QuantizeBlock", x, scales, zero_points, out, axis, block_size,
                             QuantizeTilingKey.PER_BLOCK,
                             lambda xv, sv, zv, ax: quantize_values(xv, sv, zv, ax, out.np_dtype),
                             quantize_tiling, tile_program)
    ax, c = check_params(OP, x, scales, zero_points, axis)
    check_shape(OP, "out", out, tuple(x.view_shape))
    key = QuantizeTilingKey.PER_AXIS if c > 1 else QuantizeTilingKey.PER_TENSOR
    return build_affine(chip, OP, "Quantize", x, scales, zero_points, out, ax, key,
                        lambda xv, sv, zv: quantize_values(xv, sv, zv, ax, out.np_dtype),
                        quantize_tiling, tile_program)


def aclnnQuantizeGetWorkspaceSize(x, scales, zeroPoints, dtype, axis, out):  # noqa: N802,N803
    """Phase 1 of out = saturate(round(x / scales + zeroPoints)) (module doc). Returns
    (workspace_size, executor, status)."""
    return prepare("Quantize", lambda chip: _build(chip, x, scales, zeroPoints, dtype, axis, out))


def aclnnQuantize(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Quantize: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("Quantize", workspace, workspaceSize, executor, stream)


def aclnnQuantizeBlockGetWorkspaceSize(x, scales, zeroPoints, dtype, axis, blockSize, out):  # noqa: N802,N803
    """Phase 1 of blocked quantization (module doc): out = saturate(round(x / scales[b]
    + zeroPoints[b])) with b = i // blockSize along ``axis``. Returns (workspace_size,
    executor, status); statuses as aclnnQuantize plus 161002 for blockSize / the
    blocked scale shape."""
    return prepare("QuantizeBlock", lambda chip: _build(chip, x, scales, zeroPoints, dtype, axis, out, blockSize))


def aclnnQuantizeBlock(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of QuantizeBlock. Returns a status."""
    return execute("QuantizeBlock", workspace, workspaceSize, executor, stream)
