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

Tile program (one unit per output element; assumption): pure data movement. MTE2
reads each input once; MTE3 writes each input's part of ``out`` as ``outer`` runs of
``size_i * inner`` elements, each run rounded up to whole 32 B DMA blocks (Ascend C
DataCopy granule); the Vector unit does one cast pass (out itemsize per element) only
when some input's dtype differs from ``out``'s.
"""
from __future__ import annotations

import numpy as np

from ..base.checks import check_not_null, check_tensor_type, invalid
from ..base.dtypes import aclDataType as T
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.op import execute, prepare
from ..base.promotion import can_cast, promote_types
from ..base.tiling import align_up, vector_kernel
from ..common.contiguous import WorkspacePlan
from .kernel import cat_body

OP = "aclnnCat"
MAX_RANK = 8


def promote(a: T, b: T) -> T:
    """Tensor-tensor dtype promotion (``opsnn.base.promotion.promote_types``)."""
    return T(promote_types(a, b))


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
    dt = items[0].data_type
    for t in items[1:]:
        dt = promote(dt, t.data_type)
    if not can_cast(dt, out.data_type):
        raise invalid(OP, f"out dtype {out.data_type.name} cannot hold the promoted dtype {dt.name} of tensors")
    used = [i for i, t in enumerate(items) if not (len(t.view_shape) == 1 and t.view_shape[0] == 0)]
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
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    n, e = out.numel, out.itemsize
    mte2 = sum(items[i].nbytes for i in used)
    mte3 = sum(outer * align_up(items[i].view_shape[axis] * inner * e, 32) for i in used)
    cast = any(items[i].data_type != out.data_type for i in used)
    spec, _ = vector_kernel(chip, "Cat", n, mte2 / n, mte3 / n, e if cast else 0,
                            args={"shapes": [list(items[i].view_shape) for i in used], "dim": axis,
                                  "dtype": out.dtype_name, "bytes": mte2 + mte3})
    plan = WorkspacePlan(chip, OP)
    refs = [plan.input(items[i], i) for i in used]
    main = PreparedKernel(spec, cat_body(refs, plan.output(out, len(items)), axis))
    kernels = plan.kernels([main])
    return aclOpExecutor("Cat", kernels, items, [out], plan.size,
                         info=dict(info, strategy="copy", tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))


def aclnnCatGetWorkspaceSize(tensors, dim, out):  # noqa: N802
    """Phase 1 of out = cat(tensors, dim) (module doc). Returns ``(workspace_size,
    executor, status)``: 161001 null, 161002 invalid list, dim, dtype or shape."""
    return prepare("Cat", lambda chip: _build(chip, tensors, dim, out))


def aclnnCat(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Cat: bind addresses and enqueue on ``stream``."""
    return execute("Cat", workspace, workspaceSize, executor, stream)
