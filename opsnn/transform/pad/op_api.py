"""The Pad family: grow (or, for a constant pad, crop) a tensor's axes.

CANN prototypes (aclnn_constant_pad_nd.h, aclnn_reflection_pad2d.h, ...):
  aclnnConstantPadNdGetWorkspaceSize(self, pad, value, out, workspaceSize, executor)
  aclnnReflectionPad{1,2,3}dGetWorkspaceSize(self, padding, out, workspaceSize, executor)
  aclnnReplicationPad{1,2,3}dGetWorkspaceSize(self, padding, out, workspaceSize, executor)
  aclnnCircularPad{2,3}dGetWorkspaceSize(self, padding, out, workspaceSize, executor)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters (CANN order; CANN aclnnConstantPadNd doc: pad length even and at most twice
self's rank, out dtype equal to self's):
  self: any dtype this simulator has; ND; 0-8 dims (ConstantPadNd), or at least
    N dims for an N-d pad (the last N axes are padded). Non-contiguous views go
    through the shared Contiguous copy (``out``: ViewCopy).
  pad / padding: aclIntArray of (begin, end) pairs, LAST axis first. ConstantPadNd:
    any length up to 2 * rank, negative entries crop. The N-d pads: exactly 2 * N
    entries, all >= 0; reflection needs each pad < the axis size, circular <= the
    axis size, replication a non-empty axis.
  value (ConstantPadNd): aclScalar, converted to self's dtype.
  out: self's dtype, padded shape.
Modes: constant (ConstantPadNd), reflect (Reflection, mirror without the edge), edge
(Replication), wrap (Circular; CANN's aclnnCircularPad2d/3d).
Status: 161001 null self/pad/value/out; 161002 not a tensor, odd or too long pad, a
pad out of range, rank, out dtype or shape. An empty ``out`` prepares no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_not_null, check_tensor_type, invalid
from ...base.op import execute, prepare
from ...base.tensor import aclScalar
from ..common.phase1 import build_executor, check_out, int_list
from .infershape import padded_shape, per_axis
from .kernel import pad_fn
from .tiling import pad_tiling

MAX_RANK = 8


def _build(chip, name, self, pad, out, mode, ndim, value=0):
    op = f"aclnn{name}"
    check_not_null(op, self=self, **{"pad" if ndim is None else "padding": pad}, out=out)
    check_tensor_type(op, self=self, out=out)
    pname = "pad" if ndim is None else "padding"
    p = int_list(op, pname, pad)
    shape = tuple(self.view_shape)
    rank = len(shape)
    if rank > MAX_RANK:
        raise invalid(op, f"self must be at most {MAX_RANK}-D, got shape {list(shape)}")
    if len(p) % 2:
        raise invalid(op, f"{pname} {p} must have an even length")
    if ndim is None:
        if len(p) > 2 * rank:
            raise invalid(op, f"{pname} {p} has {len(p)} entries, more than twice self's rank {rank}")
    else:
        if len(p) != 2 * ndim:
            raise invalid(op, f"{pname} {p} must have {2 * ndim} entries")
        if rank < ndim:
            raise invalid(op, f"self must be at least {ndim}-D, got shape {list(shape)}")
        for ax, (b, e) in enumerate(per_axis(p, rank)):
            n = shape[ax]
            if b < 0 or e < 0:
                raise invalid(op, f"{pname} {p} must not be negative")
            if mode == "reflect" and (b >= n or e >= n) and (b or e):
                raise invalid(op, f"{pname} ({b}, {e}) must be less than the size {n} of axis {ax}")
            if mode == "wrap" and (b > n or e > n):
                raise invalid(op, f"{pname} ({b}, {e}) must not exceed the size {n} of axis {ax}")
            if mode == "edge" and n == 0 and (b or e):
                raise invalid(op, f"axis {ax} is empty: nothing to replicate")
    oshape = padded_shape(shape, p)
    if any(d < 0 for d in oshape):
        raise invalid(op, f"{pname} {p} crops self {list(shape)} below zero")
    check_out(op, "out", out, oshape, self.data_type)
    if ndim is None:
        check_not_null(op, value=value)
        if not isinstance(value, aclScalar):
            raise invalid(op, f"value must be an aclScalar, got {type(value).__name__}")
        value = value.to_python()
    info = {"pad": p, "mode": mode}
    res = pad_tiling(chip, shape, oshape, mode, self.itemsize) if out.numel else None
    return build_executor(chip, op, name, [self], [out], res, pad_fn(p, mode, value),
                          {"shapes": [list(shape)], "dtype": self.dtype_name, "pad": p}, info)


def aclnnConstantPadNdGetWorkspaceSize(self, pad, value, out):  # noqa: N802
    """Phase 1 of out = constant-pad(self, pad, value) (module doc). Returns
    ``(workspace_size, executor, status)``: 161001 null, 161002 invalid."""
    return prepare("ConstantPadNd", lambda chip: _build(chip, "ConstantPadNd", self, pad, out, "constant", None,
                                                        value))


def aclnnConstantPadNd(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ConstantPadNd."""
    return execute("ConstantPadNd", workspace, workspaceSize, executor, stream)


def _entry(name: str, mode: str, ndim: int):
    def get_ws(self, padding, out):
        return prepare(name, lambda chip: _build(chip, name, self, padding, out, mode, ndim))

    def launch(workspace, workspaceSize, executor, stream):  # noqa: N803
        return execute(name, workspace, workspaceSize, executor, stream)
    get_ws.__name__ = get_ws.__qualname__ = f"aclnn{name}GetWorkspaceSize"
    get_ws.__doc__ = (f"Phase 1 of aclnn{name}: {mode} pad of the last {ndim} axes by ``padding`` "
                      f"({2 * ndim} entries, last axis first; module doc). Returns (workspace_size, executor, "
                      "status): 161001 null, 161002 invalid.")
    launch.__name__ = launch.__qualname__ = f"aclnn{name}"
    launch.__doc__ = f"Phase 2 of aclnn{name}."
    return get_ws, launch


aclnnReflectionPad1dGetWorkspaceSize, aclnnReflectionPad1d = _entry("ReflectionPad1d", "reflect", 1)
aclnnReflectionPad2dGetWorkspaceSize, aclnnReflectionPad2d = _entry("ReflectionPad2d", "reflect", 2)
aclnnReflectionPad3dGetWorkspaceSize, aclnnReflectionPad3d = _entry("ReflectionPad3d", "reflect", 3)
aclnnReplicationPad1dGetWorkspaceSize, aclnnReplicationPad1d = _entry("ReplicationPad1d", "edge", 1)
aclnnReplicationPad2dGetWorkspaceSize, aclnnReplicationPad2d = _entry("ReplicationPad2d", "edge", 2)
aclnnReplicationPad3dGetWorkspaceSize, aclnnReplicationPad3d = _entry("ReplicationPad3d", "edge", 3)
aclnnCircularPad2dGetWorkspaceSize, aclnnCircularPad2d = _entry("CircularPad2d", "wrap", 2)
aclnnCircularPad3dGetWorkspaceSize, aclnnCircularPad3d = _entry("CircularPad3d", "wrap", 3)
