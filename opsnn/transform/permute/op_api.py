"""aclnnPermute: reorder a tensor's axes into a new contiguous tensor.

CANN prototype (aclnn_permute.h):
  aclnnPermuteGetWorkspaceSize(self, dims, out, workspaceSize, executor)
  aclnnPermute(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: any dtype this simulator has; ND; 0-8 dims. A non-contiguous ``self`` goes
    through the shared Contiguous copy first, a non-contiguous ``out`` through a
    ViewCopy after (``opsnn.common.contiguous``).
  dims: aclIntArray (or int sequence), a permutation of the axes; negative values
    count from the end.
  out: self's dtype; shape [self.shape[dims[0]], ..., self.shape[dims[-1]]].
Status: 161001 null self/dims/out; 161002 not a tensor, dims not a permutation,
rank, out dtype or shape. An empty tensor prepares no kernel.

Axis handling and cost model: ``tiling.py``. The merged permutation is recorded as
``executor.info["merged_perm"]`` / ``["merged_shape"]`` and in the trace args.
"""
from __future__ import annotations

import numpy as np

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from .infershape import merge_perm, permuted_shape
from .kernel import permute_body, tile_program
from .tiling import permute_tiling

OP = "aclnnPermute"
MAX_RANK = 8


def normalise_perm(op: str, dims, rank: int) -> list[int]:
    """``dims`` as a permutation of range(rank); 161002 otherwise."""
    if isinstance(dims, (str, bytes)) or not hasattr(dims, "__iter__"):
        raise invalid(op, f"dims must be an aclIntArray, got {type(dims).__name__}")
    vals = []
    for d in dims:
        if isinstance(d, (bool, np.bool_)) or not hasattr(d, "__index__"):
            raise invalid(op, f"dims must hold integers, got {d!r}")
        vals.append(int(d))
    if len(vals) != rank:
        raise invalid(op, f"dims {vals} has {len(vals)} entries for a {rank}-D self")
    r = max(rank, 1)
    if any(not -r <= d < r for d in vals):
        raise invalid(op, f"dims {vals} out of range [{-r}, {r})")
    perm = [d % r for d in vals]
    if sorted(perm) != list(range(rank)):
        raise invalid(op, f"dims {vals} is not a permutation of the {rank} axes")
    return perm


def _build(chip, self, dims, out):
    check_not_null(OP, self=self, dims=dims, out=out)
    check_tensor_type(OP, self=self, out=out)
    check_dtype(OP, "out", out, (self.data_type,))
    shape = tuple(self.view_shape)
    if len(shape) > MAX_RANK:
        raise invalid(OP, f"self must be at most {MAX_RANK}-D, got shape {list(shape)}")
    perm = normalise_perm(OP, dims, len(shape))
    oshape = permuted_shape(shape, perm)
    if tuple(out.view_shape) != oshape:
        raise invalid(OP, f"out shape {list(out.view_shape)} does not match expected {list(oshape)}")
    mperm, mshape = merge_perm(shape, perm)
    info = {"perm": perm, "merged_perm": mperm, "merged_shape": mshape}
    if self.numel == 0:
        return aclOpExecutor("Permute", [], [self], [out], 0, info=dict(info, strategy="empty"))
    res = permute_tiling(chip, shape, perm, self.itemsize)
    spec = tile_program(res.data, {"shapes": [list(shape)], "dtype": self.dtype_name, "perm": perm},
                        res.tiling_key)
    plan = WorkspacePlan(chip, OP)
    main = PreparedKernel(spec, permute_body(plan.input(self, 0), plan.output(out, 1), tuple(perm)))
    kernels = plan.kernels([main])
    return aclOpExecutor("Permute", kernels, [self], [out], plan.size,
                         info=dict(info, strategy=res.strategy, tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))


def aclnnPermuteGetWorkspaceSize(self, dims, out):  # noqa: N802
    """Phase 1 of out = self.permute(dims) (module doc). Returns ``(workspace_size,
    executor, status)``: 161001 null, 161002 dims/dtype/shape invalid."""
    return prepare("Permute", lambda chip: _build(chip, self, dims, out))


def aclnnPermute(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Permute: bind addresses and enqueue on ``stream``."""
    return execute("Permute", workspace, workspaceSize, executor, stream)
