"""aclnnCat: concatenate a tensor list along one axis.

CANN prototype (aclnn_cat.h):
  aclnnCatGetWorkspaceSize(tensors, dim, out, workspaceSize, executor)
  aclnnCat(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  tensors: aclTensorList (``aclCreateTensorList``) or a sequence of aclTensor, at least
    one; any dtype this simulator has; 1-8 dims, all of one rank and equal outside
    ``dim``. A 1-D tensor of shape [0] is skipped whatever the others' shape (the
    legacy torch.cat rule; assumption for CANN). Non-contiguous views go through the
    shared Contiguous copy first (``out`` through a ViewCopy after).
  dim: int64 in [-rank, rank).
  out: shape of the inputs with ``dim`` summed; dtype: the promoted dtype of the
    inputs (bool < integers (wider wins; int8 + uint8 -> int16) < floats; float16 +
    bfloat16 -> float32) or one it converts to (never float -> integer, never to bool
    from another type): CANN's deduction and conversion tables, as implemented for
    every op in ``opsnn.base.promotion``.
Status: 161001 null tensors/out or a null element; 161002 empty list, element not a
tensor, dtype, rank, dim or shape mismatch. An empty ``out`` prepares no kernel.
Executor slots: every tensor of the list in order (skipped ones too), then ``out``.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

import numpy as np

from ...base.checks import check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from .infershape import can_cast, is_skipped, promoted_dtype
from .kernel import cat_body, tile_program
from .tiling import cat_tiling

OP = "aclnnCat"
MAX_RANK = 8


def _tensor_items(tensors) -> list:
    if isinstance(tensors, (str, bytes)) or not hasattr(tensors, "__iter__"):
        raise invalid(OP, f"tensors must be an aclTensorList, got {type(tensors).__name__}")
    return list(tensors)


def _build(chip, tensors, dim, out):
    check_not_null(OP, tensors=tensors, dim=dim, out=out)
    items = _tensor_items(tensors)
    if not items:
        raise invalid(OP, "tensors must hold at least one tensor")
    check_not_null(OP, **{f"tensors[{i}]": t for i, t in enumerate(items)})
    check_tensor_type(OP, out=out, **{f"tensors[{i}]": t for i, t in enumerate(items)})
    dt = promoted_dtype(t.data_type for t in items)
    if not can_cast(dt, out.data_type):
        raise invalid(OP, f"out dtype {out.data_type.name} cannot hold the promoted dtype {dt.name} of tensors")
    used = [i for i, t in enumerate(items) if not is_skipped(t.view_shape)]
    ref_i = used[0] if used else 0
    ref = tuple(items[ref_i].view_shape)
    rank = len(ref)
    if not 1 <= rank <= MAX_RANK:
        raise invalid(OP, f"tensors[{ref_i}] must be 1-D to {MAX_RANK}-D, got shape {list(ref)}")
    if isinstance(dim, (bool, np.bool_)) or not hasattr(dim, "__index__"):
        raise invalid(OP, f"dim must be an integer, got {dim!r}")
    if not -rank <= int(dim) < rank:
        raise invalid(OP, f"dim {int(dim)} out of range [{-rank}, {rank}) for {rank}-D tensors")
    axis = int(dim) % rank
    total = 0
    for i in used:
        s = tuple(items[i].view_shape)
        if len(s) != rank or s[:axis] + s[axis + 1:] != ref[:axis] + ref[axis + 1:]:
            raise invalid(OP, f"tensors[{i}] shape {list(s)} does not match tensors[{ref_i}] shape {list(ref)} "
                              f"outside dim {axis}")
        total += s[axis]
    shape = ref[:axis] + (total,) + ref[axis + 1:] if used else ref
    if tuple(out.view_shape) != shape:
        raise invalid(OP, f"out shape {list(out.view_shape)} does not match expected {list(shape)}")
    info = {"dim": axis, "inputs": len(items), "concatenated": len(used), "dtype": T(dt).name}
    if out.numel == 0:
        return aclOpExecutor("Cat", [], items, [out], 0, info=dict(info, strategy="empty"))
    cast = any(items[i].data_type != out.data_type for i in used)
    res = cat_tiling(chip, shape, axis, [items[i].view_shape[axis] for i in used], [items[i].nbytes for i in used],
                     out.itemsize, cast)
    spec = tile_program(res.data, {"shapes": [list(items[i].view_shape) for i in used], "dim": axis,
                                   "dtype": out.dtype_name}, res.tiling_key)
    plan = WorkspacePlan(chip, OP)
    refs = [plan.input(items[i], i) for i in used]
    main = PreparedKernel(spec, cat_body(refs, plan.output(out, len(items)), axis))
    kernels = plan.kernels([main])
    return aclOpExecutor("Cat", kernels, items, [out], plan.size,
                         info=dict(info, strategy=res.strategy, tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))


def aclnnCatGetWorkspaceSize(tensors, dim, out):  # noqa: N802
    """Phase 1 of out = cat(tensors, dim) (module doc). Returns ``(workspace_size,
    executor, status)``: 161001 null, 161002 invalid list, dim, dtype or shape."""
    return prepare("Cat", lambda chip: _build(chip, tensors, dim, out))


def aclnnCat(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Cat: bind addresses and enqueue on ``stream``."""
    return execute("Cat", workspace, workspaceSize, executor, stream)
