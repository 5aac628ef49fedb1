"""The host half ReduceSum and Mean share: phase-1 checks in ops-nn's order (null
pointers, dtypes, then dims and shapes), the empty-output early return, the
contiguous copies, then tiling -> kernel -> aclOpExecutor. Each op's ``op_api.py``
calls :func:`build` with its dtype tables; the CANN parameter tables are there.

Axis handling (phase 1): the reduced axes are normalised, then adjacent axes of the
same kind merged, giving a pattern such as "AR" (rows reduced along the last axis),
"RA" (columns) or "ARA"; the pattern and merged sizes go to ``executor.info`` and
the trace. Cost model: ``tiling.py``.
"""
from __future__ import annotations

import numpy as np

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.executor import PreparedKernel, aclOpExecutor
from ...common.contiguous import WorkspacePlan
from .infershape import out_shape, reduce_pattern
from .kernel import reduce_body, tile_program
from .tiling import reduce_tiling

MAX_RANK = 8


def normalise_dims(op: str, name: str, dims, rank: int) -> list[int]:
    """Distinct axes in [0, rank) from an aclIntArray; ``rank`` 0 counts as 1.
    161002 for a non-integer, out-of-range or repeated axis."""
    if isinstance(dims, (str, bytes)) or not hasattr(dims, "__iter__"):
        raise invalid(op, f"{name} must be an aclIntArray, got {type(dims).__name__}")
    r = max(rank, 1)
    out: list[int] = []
    for d in dims:
        if isinstance(d, (bool, np.bool_)) or not hasattr(d, "__index__"):
            raise invalid(op, f"{name} must hold integers, got {d!r}")
        d = int(d)
        if not -r <= d < r:
            raise invalid(op, f"{name} value {d} out of range [{-r}, {r}) for a {rank}-D self")
        if d % r in out:
            raise invalid(op, f"{name} repeats axis {d % r}")
        out.append(d % r)
    return out


def _as_bool(op: str, name: str, v) -> bool:
    if isinstance(v, (bool, np.bool_)) or (isinstance(v, (int, np.integer)) and int(v) in (0, 1)):
        return bool(v)
    raise invalid(op, f"{name} must be a bool, got {v!r}")


def build(chip, op: str, self, dim, keepDim, dtype, out, *, self_types, out_types, mean: bool):  # noqa: N803
    """Phase 1 of ``op`` ("aclnnReduceSum" / "aclnnMean"): ``self_types`` /
    ``out_types`` are the dtypes self and ``dtype`` may have; ``mean`` divides by the
    reduced count. Returns the aclOpExecutor; raises AclnnError (161001 / 161002)."""
    # 1. null pointers and types
    check_not_null(op, self=self, dim=dim, out=out)
    check_tensor_type(op, self=self, out=out)
    # 2. dtypes
    check_dtype(op, "self", self, self_types)
    try:
        dt = T(dtype)
    except (TypeError, ValueError):
        raise invalid(op, f"dtype {dtype!r} is not an aclDataType") from None
    if dt not in out_types:
        raise invalid(op, f"dtype {dt.name} not supported; expected one of {', '.join(t.name for t in out_types)}")
    if self.data_type in FLOAT_TYPES_BF16 and dt not in FLOAT_TYPES_BF16:
        raise invalid(op, f"self dtype {self.data_type.name} cannot be reduced into integer dtype {dt.name}")
    check_dtype(op, "out", out, (dt,))
    # 3. dims and shapes
    shape = tuple(self.view_shape)
    if len(shape) > MAX_RANK:
        raise invalid(op, f"self must be at most {MAX_RANK}-D, got shape {list(shape)}")
    axes = normalise_dims(op, "dim", dim, len(shape))
    keep = _as_bool(op, "keepDim", keepDim)
    if not shape:
        axes = []
    elif not axes:
        axes = list(range(len(shape)))
    axes.sort()
    check_shape(op, "out", out, out_shape(shape, axes, keep))
    name = op[5:]
    pattern, sizes = reduce_pattern(shape, axes)
    info = {"pattern": pattern, "merged_shape": sizes, "axes": axes, "keepDim": keep}
    # 4. empty output: nothing to launch
    if out.numel == 0:
        return aclOpExecutor(name, [], [self], [out], 0, info=dict(info, strategy="empty"))
    # 5. contiguous copies, tiling (host) -> tile program (kernel)
    plan = WorkspacePlan(chip, op)
    body = reduce_body(plan.input(self, 0), plan.output(out, 1), tuple(axes), keep, mean)
    res = reduce_tiling(chip, name, self.numel, out.numel, self.data_type, dt, self.itemsize, out.itemsize)
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "out_dtype": out.dtype_name, "dim": axes,
            "keepDim": keep, "pattern": pattern}
    spec = tile_program(name, res.data, args, res.tiling_key)
    main = PreparedKernel(spec, body)
    kernels = plan.kernels([main])
    return aclOpExecutor(name, kernels, [self], [out], plan.size,
                         info=dict(info, strategy=res.strategy, tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))
