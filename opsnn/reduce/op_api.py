"""aclnnReduceSum and aclnnMean: phase 1 (checks, shape inference, axis handling,
vector tiling) and phase 2 (the shared executor run).

CANN prototypes (aclnn_reduce_sum.h, aclnn_mean.h):
  aclnnReduceSumGetWorkspaceSize(self, dim, keepDim, dtype, out, workspaceSize, executor)
  aclnnMeanGetWorkspaceSize(self, dim, keepDim, dtype, out, workspaceSize, executor)
Parameters (CANN order):
  self: ReduceSum FLOAT, FLOAT16, BF16, INT8, UINT8, INT32, INT64, BOOL; Mean FLOAT,
    FLOAT16, BF16. ND, 0-8 dims; a non-contiguous view goes through the shared
    Contiguous copy first (a non-contiguous ``out`` through a ViewCopy after).
  dim: aclIntArray (or int sequence) of distinct axes in [-rank, rank) (a 0-D self
    counts as rank 1); empty means every axis (assumption: torch's sum(dim=[])).
  keepDim: bool; reduced axes stay as size 1 when true.
  dtype: aclDataType of the result; ``self`` is cast to it before reducing (as
    torch's ``dtype=`` argument). ReduceSum: FLOAT, FLOAT16, BF16, INT8, UINT8, INT32,
    INT64; Mean: FLOAT, FLOAT16, BF16. A float ``self`` with an integer ``dtype`` is
    refused (the conversion rule never casts float to integer).
  out: dtype ``dtype``; shape self's with the reduced axes removed (or 1 with keepDim).
Status: 161001 null self/dim/out; 161002 not a tensor, dtype, dim (range, duplicate,
not integers), keepDim not a bool or out shape/dtype mismatch.
Numbers: float results accumulate in fp32 (16-bit inputs cast up first) and round
once; integer results are exact and wrap to the output width; a sum over an empty
axis is 0 and a mean NaN. An empty ``out`` prepares no kernel.

Axis handling (phase 1): the reduced axes are normalised, then adjacent axes of the
same kind merged, giving a pattern such as "AR" (rows reduced along the last axis),
"RA" (columns) or "ARA"; the pattern and merged sizes go to ``executor.info`` and
the trace. Tile program (assumption, a bandwidth-bound model): one unit per input
element; MTE2 reads it once (itemsize bytes); the Vector unit does one fp32 add per
element (4 B) plus a cast pass when the input is not already fp32/int of the output
width; MTE3 writes the outputs, spread evenly over the units. A reduction with an
empty axis but a non-empty ``out`` runs a fill kernel of one unit per output element.
The cross-block combine of a reduction split over blocks is not modelled.
"""
from __future__ import annotations

import numpy as np

from ..base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ..base.dtypes import aclDataType as T
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.op import execute, prepare
from ..base.tiling import vector_kernel
from ..common.contiguous import WorkspacePlan
from .kernel import reduce_body

SUM_SELF_TYPES = FLOAT_TYPES_BF16 + (T.ACL_INT8, T.ACL_UINT8, T.ACL_INT32, T.ACL_INT64, T.ACL_BOOL)
SUM_OUT_TYPES = FLOAT_TYPES_BF16 + (T.ACL_INT8, T.ACL_UINT8, T.ACL_INT32, T.ACL_INT64)
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


def reduce_pattern(shape: tuple[int, ...], axes: list[int]) -> tuple[str, list[int]]:
    """Merge adjacent axes of one kind: returns e.g. ("ARA", [a0, r, a1]). Size-1 axes
    are dropped (they change nothing); an all-size-1 shape gives ("A", [1])."""
    pattern, sizes = "", []
    for i, n in enumerate(shape):
        if n == 1:
            continue
        kind = "R" if i in axes else "A"
        if pattern.endswith(kind):
            sizes[-1] *= n
        else:
            pattern += kind
            sizes.append(n)
    return (pattern, sizes) if pattern else ("A", [1])


def _as_bool(op: str, name: str, v) -> bool:
    if isinstance(v, (bool, np.bool_)) or (isinstance(v, (int, np.integer)) and int(v) in (0, 1)):
        return bool(v)
    raise invalid(op, f"{name} must be a bool, got {v!r}")


def _build(chip, op: str, self, dim, keepDim, dtype, out, mean: bool):  # noqa: A002,N803
    check_not_null(op, self=self, dim=dim, out=out)
    check_tensor_type(op, self=self, out=out)
    self_types, out_types = (FLOAT_TYPES_BF16, FLOAT_TYPES_BF16) if mean else (SUM_SELF_TYPES, SUM_OUT_TYPES)
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
    out_shape = tuple((1 if keep else None) if i in axes else n for i, n in enumerate(shape))
    out_shape = tuple(n for n in out_shape if n is not None)
    check_shape(op, "out", out, out_shape)
    name = op[5:]
    pattern, sizes = reduce_pattern(shape, axes)
    info = {"pattern": pattern, "merged_shape": sizes, "axes": axes, "keepDim": keep}
    if out.numel == 0:
        return aclOpExecutor(name, [], [self], [out], 0, info=dict(info, strategy="empty"))
    plan = WorkspacePlan(chip, op)
    body = reduce_body(plan.input(self, 0), plan.output(out, 1), tuple(axes), keep, mean)
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "out_dtype": out.dtype_name, "dim": axes,
            "keepDim": keep, "pattern": pattern}
    n_out, item, oitem = out.numel, self.itemsize, out.itemsize
    if self.numel == 0:  # empty reduction: write 0 (sum) or NaN (mean)
        spec, _ = vector_kernel(chip, name, n_out, 0, oitem, oitem, args=dict(args, strategy="fill",
                                                                               bytes=n_out * oitem))
        kernels = plan.kernels([PreparedKernel(spec, body)])
        return aclOpExecutor(name, kernels, [self], [out], plan.size,
                             info=dict(info, strategy="fill", tiling=spec.args["tiling"],
                                       copies=[k.spec.name for k in kernels[1:]]))
    n = self.numel
    cast = 0 if (self.data_type == dt and item == 4) or (self.data_type in (T.ACL_INT32, T.ACL_INT64)
                                                         and dt == self.data_type) else 1
    spec, _ = vector_kernel(chip, name, n, item, n_out * oitem / n, 4 * (1 + cast),
                            args=dict(args, strategy="reduce", bytes=n * item + n_out * oitem))
    main = PreparedKernel(spec, body)
    kernels = plan.kernels([main])
    return aclOpExecutor(name, kernels, [self], [out], plan.size,
                         info=dict(info, strategy="reduce", tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))


def aclnnReduceSumGetWorkspaceSize(self, dim, keepDim, dtype, out):  # noqa: N802,N803
    """Phase 1 of out = sum(self.to(dtype), dim, keepDim) (module doc). Returns
    ``(workspace_size, executor, status)``; 161001 null, 161002 invalid argument."""
    return prepare("ReduceSum", lambda chip: _build(chip, "aclnnReduceSum", self, dim, keepDim, dtype, out, False))


def aclnnReduceSum(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ReduceSum: bind addresses and enqueue on ``stream``."""
    return execute("ReduceSum", workspace, workspaceSize, executor, stream)


def aclnnMeanGetWorkspaceSize(self, dim, keepDim, dtype, out):  # noqa: N802,N803
    """Phase 1 of out = mean(self.to(dtype), dim, keepDim) (module doc). Returns
    ``(workspace_size, executor, status)``; 161001 null, 161002 invalid argument."""
    return prepare("Mean", lambda chip: _build(chip, "aclnnMean", self, dim, keepDim, dtype, out, True))


def aclnnMean(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Mean: bind addresses and enqueue on ``stream``."""
    return execute("Mean", workspace, workspaceSize, executor, stream)
