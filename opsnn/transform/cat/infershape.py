"""Cat shape and dtype inference: pure, no status codes."""
from __future__ import annotations

from ...base.dtypes import aclDataType as T
from ...base.promotion import can_cast, promote_types  # noqa: F401 (can_cast: the conversion rule Cat checks)


def promote(a: T, b: T) -> T:
    """Tensor-tensor dtype promotion (``opsnn.base.promotion.promote_types``)."""
    return T(promote_types(a, b))


def promoted_dtype(dtypes) -> T:
    """The promoted dtype of every tensor of the list, left to right."""
    dtypes = list(dtypes)
    dt = dtypes[0]
    for d in dtypes[1:]:
        dt = promote(dt, d)
    return T(dt)


def is_skipped(shape) -> bool:
    """A 1-D tensor of shape [0] is left out whatever the others' shape (legacy torch.cat)."""
    return len(shape) == 1 and shape[0] == 0


def cat_shape(shapes, axis: int) -> tuple[int, ...]:
    """The shape of the concatenation of ``shapes`` (all used, matching outside ``axis``)."""
    used = [tuple(s) for s in shapes if not is_skipped(s)]
    if not used:
        return tuple(shapes[0])
    ref = used[0]
    return ref[:axis] + (sum(s[axis] for s in used),) + ref[axis + 1:]


def infer_shape(tensors, dim: int):
    """[(out shape, promoted dtype)] for ``tensors`` given as (shape, dtype) pairs."""
    shapes = [tuple(s) for s, _ in tensors]
    used = [s for s in shapes if not is_skipped(s)] or shapes[:1]
    rank = max(len(used[0]), 1)
    return [(cat_shape(shapes, int(dim) % rank), promoted_dtype(d for _, d in tensors))]
