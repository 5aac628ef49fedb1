"""aclnnRepeat: tile a tensor along every axis (ONNX Tile, torch.Tensor.repeat).

CANN prototype (aclnn_repeat.h):
  aclnnRepeatGetWorkspaceSize(self, repeats, out, workspaceSize, executor)
  aclnnRepeat(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: any dtype this simulator has; ND; 0-8 dims.
  repeats: aclIntArray, entries >= 0, at least as many as self's rank, at most 8
    (extra leading entries add axes).
  out: self's dtype; shape ``(1,)*(len(repeats)-rank) + self.shape`` times repeats.
Status: 161001 null self/repeats/out; 161002 not a tensor, repeats, dtype or shape. An
empty ``out`` prepares no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_not_null, check_tensor_type, invalid
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, int_list
from .infershape import repeated_shape
from .kernel import repeat_fn
from .tiling import repeat_tiling

OP = "aclnnRepeat"


def _build(chip, self, repeats, out):
    check_not_null(OP, self=self, repeats=repeats, out=out)
    check_tensor_type(OP, self=self, out=out)
    reps = int_list(OP, "repeats", repeats)
    shape = tuple(self.view_shape)
    if len(reps) < len(shape) or len(reps) > 8:
        raise invalid(OP, f"repeats {reps} must have {len(shape)} to 8 entries for a {len(shape)}-D self")
    if any(r < 0 for r in reps):
        raise invalid(OP, f"repeats {reps} must not be negative")
    oshape = repeated_shape(shape, reps)
    check_out(OP, "out", out, oshape, self.data_type)
    ishape = (1,) * (len(reps) - len(shape)) + shape
    res = repeat_tiling(chip, ishape, oshape, self.itemsize) if out.numel else None
    return build_executor(chip, OP, "Repeat", [self], [out], res, repeat_fn(reps),
                          {"shapes": [list(shape)], "dtype": self.dtype_name, "repeats": reps}, {"repeats": reps})


def aclnnRepeatGetWorkspaceSize(self, repeats, out):  # noqa: N802
    """Phase 1 of out = self.repeat(repeats) (module doc). Returns ``(workspace_size,
    executor, status)``: 161001 null, 161002 invalid."""
    return prepare("Repeat", lambda chip: _build(chip, self, repeats, out))


def aclnnRepeat(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Repeat."""
    return execute("Repeat", workspace, workspaceSize, executor, stream)
