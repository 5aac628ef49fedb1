"""The extra reductions (ONNX ReduceMax/Min/Prod/SumSquare/L1/L2/LogSum/LogSumExp),
one table (:data:`ROWS`); the entry points are generated from it.

CANN prototypes (aclnn API reference, CANN 8.x):
  aclnnAmax(self, dim, keepDim, out), aclnnAmin(self, dim, keepDim, out)
  aclnnNorm(self, pScalar, dim, keepDim, out)          (sum |x|^p)^(1/p); p 1, 2, inf, 0, other > 0
  aclnnLogSumExp(self, dim, keepDim, out)
Not in CANN as such (this simulator's names, CANN's reduction signature):
  aclnnReduceProd(self, dim, keepDim, out)             (CANN's aclnnProdDim takes one dim)
  aclnnReduceSumSquare(self, dim, keepDim, out), aclnnReduceLogSum(self, dim, keepDim, out)
Parameters: ``dim`` an aclIntArray of distinct axes in [-rank, rank), empty for every
axis; ``keepDim`` bool; ``out`` ``self``'s dtype, the reduced shape. dtypes: Amax,
Amin every type (BOOL too); ReduceProd, ReduceSumSquare the numeric types; Norm,
LogSumExp, ReduceLogSum FLOAT, FLOAT16, BF16, DOUBLE. Floats accumulate in float32
(float64 for DOUBLE), integers exactly and wrap; an empty reduction writes the
identity. Errors: 161001 null self/dim/pScalar/out; 161002 not a tensor, dtype, out
dtype or shape, dim (range, repeat, not integers), keepDim not a bool, rank > 8.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...base.promotion import ALL_TYPES, FLOATS
from ...common.contiguous import WorkspacePlan
from ...math.common.host import scalar_of
from ..common.host import MAX_RANK, normalise_dims
from ..common.infershape import out_shape, reduce_pattern
from .kernel import reduce_ext_body, tile_program
from .tiling import reduce_ext_tiling

NUMERIC_TYPES = tuple(t for t in ALL_TYPES if t != T.ACL_BOOL)


@dataclass(frozen=True)
class ReduceRow:
    """One reduction: CANN op type, kernel, accepted dtypes, doc; ``p``: takes the
    aclScalar ``pScalar`` after ``self`` (aclnnNorm)."""

    op_type: str
    kernel: str
    dtypes: tuple
    doc: str
    p: bool = False


ROWS = (
    ReduceRow("Amax", "Max", ALL_TYPES, "max of self over dim"),
    ReduceRow("Amin", "Min", ALL_TYPES, "min of self over dim"),
    ReduceRow("ReduceProd", "Prod", NUMERIC_TYPES, "product of self over dim (not a CANN op)"),
    ReduceRow("ReduceSumSquare", "SumSquare", NUMERIC_TYPES, "sum of self^2 over dim (not a CANN op)"),
    ReduceRow("Norm", "Lp", FLOATS, "(sum |self|^p)^(1/p) over dim", p=True),
    ReduceRow("ReduceLogSum", "LogSum", FLOATS, "log(sum(self)) over dim (not a CANN op)"),
    ReduceRow("LogSumExp", "LogSumExp", FLOATS, "log(sum(exp(self))) over dim"),
)


def _keep(op, v) -> bool:
    if isinstance(v, (bool, np.bool_)) or (isinstance(v, (int, np.integer)) and int(v) in (0, 1)):
        return bool(v)
    raise invalid(op, f"keepDim must be a bool, got {v!r}")


def _build(chip, row: ReduceRow, self, p, dim, keepDim, out):  # noqa: N803
    op = f"aclnn{row.op_type}"
    nulls = {"self": self, **({"pScalar": p} if row.p else {}), "dim": dim, "out": out}
    check_not_null(op, **nulls)
    check_tensor_type(op, self=self, out=out)
    check_dtype(op, "self", self, row.dtypes)
    check_dtype(op, "out", out, (self.data_type,))
    attrs = {}
    if row.p:
        pv, _ = scalar_of(op, "pScalar", p)
        if float(pv) < 0:
            raise invalid(op, f"pScalar must be >= 0, got {pv}")
        attrs["p"] = float(pv)
    shape = tuple(self.view_shape)
    if len(shape) > MAX_RANK:
        raise invalid(op, f"self must be at most {MAX_RANK}-D, got shape {list(shape)}")
    axes = normalise_dims(op, "dim", dim, len(shape))
    keep = _keep(op, keepDim)
    axes = sorted(axes) if shape and axes else (list(range(len(shape))) if shape else [])
    check_shape(op, "out", out, out_shape(shape, axes, keep))
    pattern, sizes = reduce_pattern(shape, axes)
    info = {"pattern": pattern, "merged_shape": sizes, "axes": axes, "keepDim": keep}
    if out.numel == 0:
        return aclOpExecutor(row.op_type, [], [self], [out], 0, info=dict(info, strategy="empty"))
    plan = WorkspacePlan(chip, op)
    body = reduce_ext_body(row.kernel, plan.input(self, 0), plan.output(out, 1), tuple(axes), keep, attrs)
    res = reduce_ext_tiling(chip, row.op_type, row.kernel, self.numel, out.numel, self.data_type, out.data_type,
                            self.itemsize, out.itemsize)
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "out_dtype": out.dtype_name, "dim": axes,
            "keepDim": keep, "pattern": pattern, **attrs}
    spec = tile_program(row.op_type, res.data, args, res.tiling_key)
    main = PreparedKernel(spec, body)
    kernels = plan.kernels([main])
    return aclOpExecutor(row.op_type, kernels, [self], [out], plan.size,
                         info=dict(info, strategy=res.strategy, tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))


def _entries(row: ReduceRow):
    if row.p:
        def gws(self, pScalar, dim, keepDim, out):  # noqa: N803
            return prepare(row.op_type, lambda chip: _build(chip, row, self, pScalar, dim, keepDim, out))
        params = "self, pScalar, dim, keepDim, out"
    else:
        def gws(self, dim, keepDim, out):  # noqa: N803
            return prepare(row.op_type, lambda chip: _build(chip, row, self, None, dim, keepDim, out))
        params = "self, dim, keepDim, out"
    gws.__name__ = gws.__qualname__ = f"aclnn{row.op_type}GetWorkspaceSize"
    gws.__doc__ = f"Phase 1 of aclnn{row.op_type}({params}): {row.doc} (module docstring)."

    def run(workspace, workspaceSize, executor, stream):  # noqa: N803
        return execute(row.op_type, workspace, workspaceSize, executor, stream)
    run.__name__ = run.__qualname__ = f"aclnn{row.op_type}"
    run.__doc__ = f"Phase 2 of aclnn{row.op_type}."
    return {gws.__name__: gws, run.__name__: run}


ENTRY_POINTS = {k: v for row in ROWS for k, v in _entries(row).items()}
globals().update(ENTRY_POINTS)
__all__ = sorted(ENTRY_POINTS) + ["ROWS", "ENTRY_POINTS"]
