"""aclnnSplitTensor / aclnnSplitWithSize: cut a tensor into pieces along one axis.

CANN prototypes (aclnn_split_tensor.h, aclnn_split_with_size.h):
  aclnnSplitTensorGetWorkspaceSize(self, splitSections, dim, out, workspaceSize, executor)
  aclnnSplitWithSizeGetWorkspaceSize(self, splitSize, dim, out, workspaceSize, executor)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: any dtype this simulator has; ND; 1-8 dims.
  splitSections (SplitTensor): uint64 > 0, the size of every piece but the last
    (torch.split with an int). splitSize (SplitWithSize): aclIntArray of sizes >= 0
    summing to self.shape[dim].
  dim: int64 in [-rank, rank).
  out: aclTensorList (or a sequence of aclTensor), one tensor per piece, self's dtype.
Status: 161001 null self/sizes/out or a null element; 161002 not a tensor, sizes,
dim, piece count, dtype or shape. All-empty pieces prepare no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_not_null, check_tensor_type, invalid
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, int_arg, int_list, norm_dim
from .infershape import section_sizes, split_shapes
from .kernel import split_fn
from .tiling import split_tiling


def _outs(op, out):
    if isinstance(out, (str, bytes)) or not hasattr(out, "__iter__"):
        raise invalid(op, f"out must be an aclTensorList, got {type(out).__name__}")
    items = list(out)
    check_not_null(op, **{f"out[{i}]": t for i, t in enumerate(items)})
    check_tensor_type(op, **{f"out[{i}]": t for i, t in enumerate(items)})
    return items


def _build(chip, name, self, sizes_of, dim, out):
    op = f"aclnn{name}"
    check_tensor_type(op, self=self)
    outs = _outs(op, out)
    shape = tuple(self.view_shape)
    if not 1 <= len(shape) <= 8:
        raise invalid(op, f"self must be 1-D to 8-D, got shape {list(shape)}")
    axis = norm_dim(op, dim, len(shape))
    sizes = sizes_of(op, shape[axis])
    shapes = split_shapes(shape, sizes, axis)
    if len(outs) != len(shapes):
        raise invalid(op, f"out has {len(outs)} tensors, the split gives {len(shapes)}")
    for i, (o, s) in enumerate(zip(outs, shapes)):
        check_out(op, f"out[{i}]", o, s, self.data_type)
    res = split_tiling(chip, shape, axis, sizes, self.itemsize) if self.numel else None
    return build_executor(chip, op, name, [self], outs, res, split_fn(sizes, axis),
                          {"shapes": [list(shape)], "dtype": self.dtype_name, "dim": axis, "sizes": sizes},
                          {"dim": axis, "sizes": sizes})


def _prepare(name, self, sizes_arg, sizes_name, sizes_of, dim, out):
    def build(chip):
        check_not_null(f"aclnn{name}", self=self, **{sizes_name: sizes_arg}, dim=dim, out=out)
        return _build(chip, name, self, sizes_of, dim, out)
    return prepare(name, build)


def _sections(splitSections):  # noqa: N803
    def sizes(op, extent):
        s = int_arg(op, "splitSections", splitSections)
        if s <= 0:
            raise invalid(op, f"splitSections {s} must be positive")
        return section_sizes(extent, s)
    return sizes


def _explicit(splitSize):  # noqa: N803
    def sizes(op, extent):
        s = int_list(op, "splitSize", splitSize)
        if not s or any(v < 0 for v in s) or sum(s) != extent:
            raise invalid(op, f"splitSize {s} must be non-negative sizes summing to {extent}")
        return s
    return sizes


def aclnnSplitTensorGetWorkspaceSize(self, splitSections, dim, out):  # noqa: N802,N803
    """Phase 1 of pieces = self.split(splitSections, dim) (module doc). Returns
    ``(workspace_size, executor, status)``: 161001 null, 161002 invalid."""
    return _prepare("SplitTensor", self, splitSections, "splitSections", _sections(splitSections), dim, out)


def aclnnSplitTensor(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of SplitTensor."""
    return execute("SplitTensor", workspace, workspaceSize, executor, stream)


def aclnnSplitWithSizeGetWorkspaceSize(self, splitSize, dim, out):  # noqa: N802,N803
    """Phase 1 of pieces = self.split(splitSize, dim) with explicit sizes (module
    doc). Returns ``(workspace_size, executor, status)``: 161001 null, 161002 invalid."""
    return _prepare("SplitWithSize", self, splitSize, "splitSize", _explicit(splitSize), dim, out)


def aclnnSplitWithSize(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of SplitWithSize."""
    return execute("SplitWithSize", workspace, workspaceSize, executor, stream)
