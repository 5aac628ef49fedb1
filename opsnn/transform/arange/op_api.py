"""aclnnArange: the progression start, start + step, ... below end (ONNX Range).

CANN prototype (aclnn_arange.h):
  aclnnArangeGetWorkspaceSize(start, end, step, out, workspaceSize, executor)
  aclnnArange(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  start, end, step: aclScalar; step != 0, and (end - start) / step >= 0.
  out: 1-D of length ceil((end - start) / step); FLOAT, FLOAT16, BF16, INT8, UINT8,
    INT16, INT32, INT64 or DOUBLE (values computed in float64, or int64 for integer
    start and step, then cast to out's dtype).
Status: 161001 null; 161002 not a scalar, step 0, wrong sign, out dtype, rank or
length. An empty ``out`` prepares no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

import math

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ...base.tensor import aclScalar
from ..common.phase1 import build_executor
from .infershape import arange_length
from .kernel import arange_fn
from .tiling import arange_tiling

OP = "aclnnArange"
OUT_TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT16, T.ACL_INT32,
             T.ACL_INT64, T.ACL_DOUBLE)


def _build(chip, start, end, step, out):
    check_not_null(OP, start=start, end=end, step=step, out=out)
    for n, s in (("start", start), ("end", end), ("step", step)):
        if not isinstance(s, aclScalar):
            raise invalid(OP, f"{n} must be an aclScalar, got {type(s).__name__}")
    check_tensor_type(OP, out=out)
    check_dtype(OP, "out", out, OUT_TYPES)
    a, b, d = start.to_python(), end.to_python(), step.to_python()
    if d == 0 or not all(math.isfinite(float(v)) for v in (a, b, d)):
        raise invalid(OP, f"step {d} must be non-zero and start/end/step finite")
    if (b - a) * d < 0:
        raise invalid(OP, f"step {d} has the wrong sign for start {a} and end {b}")
    n = arange_length(a, b, d)
    if tuple(out.view_shape) != (n,):
        raise invalid(OP, f"out shape {list(out.view_shape)} does not match expected [{n}]")
    res = arange_tiling(chip, n, out.itemsize) if n else None
    return build_executor(chip, OP, "Arange", [], [out], res, arange_fn(a, d, n, out.np_dtype),
                          {"shapes": [[n]], "dtype": out.dtype_name}, {"start": a, "end": b, "step": d})


def aclnnArangeGetWorkspaceSize(start, end, step, out):  # noqa: N802
    """Phase 1 of out = arange(start, end, step) (module doc): ``(workspace_size, executor, status)``."""
    return prepare("Arange", lambda chip: _build(chip, start, end, step, out))


def aclnnArange(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Arange."""
    return execute("Arange", workspace, workspaceSize, executor, stream)
