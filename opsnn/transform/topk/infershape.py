"""Topk shape inference: ``self``'s shape with ``dim`` set to k; indices INT64."""
from __future__ import annotations


def topk_shape(shape, k: int, axis: int) -> tuple[int, ...]:
    shape = tuple(shape)
    return shape[:axis] + (int(k),) + shape[axis + 1:]


def infer_shape(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    from ...base.dtypes import aclDataType as T
    shape = tuple(self[0])
    axis = int(dim) % max(len(shape), 1)
    return [(topk_shape(shape, k, axis), self[1]), (topk_shape(shape, k, axis), T.ACL_INT64)]
