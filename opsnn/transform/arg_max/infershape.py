"""ArgMax / ArgMin shape inference: ``dim`` removed (kept as 1 with keepdim); INT64."""
from __future__ import annotations


def arg_shape(shape, axis: int, keepdim: bool) -> tuple[int, ...]:
    shape = tuple(shape)
    if not shape:
        return ()
    return shape[:axis] + ((1,) if keepdim else ()) + shape[axis + 1:]


def infer_shape(self, dim, keepdim=False):
    from ...base.dtypes import aclDataType as T
    return [(arg_shape(self[0], int(dim) % max(len(self[0]), 1), bool(keepdim)), T.ACL_INT64)]
