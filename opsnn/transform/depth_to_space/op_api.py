"""aclnnDepthToSpace / aclnnSpaceToDepth: move blocks between channels and space (NCHW).

CANN has these as graph ops (DepthToSpace with ``mode`` DCR/CRD, SpaceToDepth) but no
aclnn entry point was found in the aclnn API lists; the names and argument order here
follow CANN's aclnn style (self, attributes, out):
  aclnnDepthToSpaceGetWorkspaceSize(self, blockSize, mode, out, workspaceSize, executor)
  aclnnSpaceToDepthGetWorkspaceSize(self, blockSize, mode, out, workspaceSize, executor)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters:
  self: 4-D NCHW, any dtype this simulator has. DepthToSpace: C divisible by
    blockSize**2; SpaceToDepth: H and W divisible by blockSize.
  blockSize: int64 >= 1. mode: "DCR" (depth-column-row, the default) or "CRD".
  out: self's dtype; [N, C/b^2, H*b, W*b] or [N, C*b^2, H/b, W/b].
Status: 161001 null; 161002 not a tensor, rank, blockSize, mode, divisibility, dtype
or shape. An empty ``out`` prepares no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_not_null, check_rank, check_tensor_type, invalid
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, int_arg
from .infershape import depth_to_space_shape, space_to_depth_shape
from .kernel import depth_to_space_fn, space_to_depth_fn
from .tiling import space_depth_tiling


def _build(chip, name, self, block, mode, out):
    op = f"aclnn{name}"
    check_not_null(op, self=self, blockSize=block, mode=mode, out=out)
    check_tensor_type(op, self=self, out=out)
    check_rank(op, "self", self, (4,))
    b = int_arg(op, "blockSize", block)
    if b < 1:
        raise invalid(op, f"blockSize {b} must be >= 1")
    n, c, h, w = self.view_shape
    if mode not in ("DCR", "CRD"):
        raise invalid(op, f"mode {mode!r} must be 'DCR' or 'CRD'")
    if name == "DepthToSpace":
        if c % (b * b):
            raise invalid(op, f"channels {c} not divisible by blockSize**2 = {b * b}")
        oshape, fn = depth_to_space_shape(self.view_shape, b), depth_to_space_fn(b, mode)
    else:
        if h % b or w % b:
            raise invalid(op, f"H {h} and W {w} must be divisible by blockSize {b}")
        oshape, fn = space_to_depth_shape(self.view_shape, b), space_to_depth_fn(b, mode)
    check_out(op, "out", out, oshape, self.data_type)
    res = space_depth_tiling(chip, name, mode, self.numel, self.itemsize) if out.numel else None
    return build_executor(chip, op, name, [self], [out], res, fn,
                          {"shapes": [list(self.view_shape)], "dtype": self.dtype_name, "block_size": b},
                          {"block_size": b, "mode": mode})


def aclnnDepthToSpaceGetWorkspaceSize(self, blockSize, mode, out):  # noqa: N802,N803
    """Phase 1 of DepthToSpace (module doc): ``(workspace_size, executor, status)``."""
    return prepare("DepthToSpace", lambda chip: _build(chip, "DepthToSpace", self, blockSize, mode, out))


def aclnnDepthToSpace(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of DepthToSpace."""
    return execute("DepthToSpace", workspace, workspaceSize, executor, stream)


def aclnnSpaceToDepthGetWorkspaceSize(self, blockSize, mode, out):  # noqa: N802,N803
    """Phase 1 of SpaceToDepth (module doc): ``(workspace_size, executor, status)``."""
    return prepare("SpaceToDepth", lambda chip: _build(chip, "SpaceToDepth", self, blockSize, mode, out))


def aclnnSpaceToDepth(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of SpaceToDepth."""
    return execute("SpaceToDepth", workspace, workspaceSize, executor, stream)
