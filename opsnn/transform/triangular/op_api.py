"""aclnnTriu / aclnnTril: keep the upper / lower triangle of the last two axes.

CANN prototypes (aclnn_triu.h, aclnn_tril.h):
  aclnnTriuGetWorkspaceSize(self, diagonal, out, workspaceSize, executor)
  aclnnTrilGetWorkspaceSize(self, diagonal, out, workspaceSize, executor)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: any dtype this simulator has; 2-8 dims.
  diagonal: int64; 0 the main diagonal, > 0 above it, < 0 below it. Triu keeps
    ``j - i >= diagonal``, Tril keeps ``j - i <= diagonal`` (zeros elsewhere).
  out: self's dtype and shape.
Status: 161001 null; 161002 not a tensor, rank, diagonal, dtype or shape. An empty
``out`` prepares no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_not_null, check_tensor_type, invalid
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, int_arg
from .kernel import triangular_fn
from .tiling import triangular_tiling


def _build(chip, name, self, diagonal, out):
    op = f"aclnn{name}"
    check_not_null(op, self=self, diagonal=diagonal, out=out)
    check_tensor_type(op, self=self, out=out)
    k = int_arg(op, "diagonal", diagonal)
    shape = tuple(self.view_shape)
    if not 2 <= len(shape) <= 8:
        raise invalid(op, f"self must be 2-D to 8-D, got shape {list(shape)}")
    check_out(op, "out", out, shape, self.data_type)
    res = triangular_tiling(chip, name, self.numel, self.itemsize, k) if out.numel else None
    return build_executor(chip, op, name, [self], [out], res, triangular_fn(name == "Triu", k),
                          {"shapes": [list(shape)], "dtype": self.dtype_name}, {"diagonal": k})


def aclnnTriuGetWorkspaceSize(self, diagonal, out):  # noqa: N802
    """Phase 1 of out = triu(self, diagonal) (module doc): ``(workspace_size, executor, status)``."""
    return prepare("Triu", lambda chip: _build(chip, "Triu", self, diagonal, out))


def aclnnTriu(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Triu."""
    return execute("Triu", workspace, workspaceSize, executor, stream)


def aclnnTrilGetWorkspaceSize(self, diagonal, out):  # noqa: N802
    """Phase 1 of out = tril(self, diagonal) (module doc): ``(workspace_size, executor, status)``."""
    return prepare("Tril", lambda chip: _build(chip, "Tril", self, diagonal, out))


def aclnnTril(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Tril."""
    return execute("Tril", workspace, workspaceSize, executor, stream)
