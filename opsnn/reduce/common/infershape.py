"""Reduce shape inference: reduced axes, the output shape and the merged axis
pattern. No status codes here (the checks are in ``host.py``)."""
from __future__ import annotations

from ...base.dtypes import aclDataType


def reduced_axes(dims, rank: int) -> list[int]:
    """Sorted distinct axes in [0, rank) of ``dims`` (negative count from the end); an
    empty ``dims`` means every axis; a 0-D self reduces nothing."""
    if rank == 0:
        return []
    axes = sorted({int(d) % rank for d in dims})
    return axes or list(range(rank))


def out_shape(shape: tuple[int, ...], axes: list[int], keep: bool) -> tuple[int, ...]:
    """``shape`` with the reduced ``axes`` removed (or kept as 1 with ``keep``)."""
    return tuple(n for n in ((1 if keep else None) if i in axes else n for i, n in enumerate(shape)) if n is not None)


def reduce_pattern(shape: tuple[int, ...], axes: list[int]) -> tuple[str, list[int]]:
    """Merge adjacent axes of one kind: returns e.g. ("ARA", [a0, r, a1]). Size-1 axes
    are dropped (they change nothing); an all-size-1 shape gives ("A", [1])."""
    pattern, sizes = "", []
    for i, n in enumerate(shape):
        if n == 1:
            continue
        kind = "R" if i in axes else "A"
        if pattern.endswith(kind):
            sizes[-1] *= n
        else:
            pattern += kind
            sizes.append(n)
    return (pattern, sizes) if pattern else ("A", [1])


def infer_shape(self_shape, dim, keep_dim: bool, dtype):
    """[(out shape, dtype)] of ReduceSum / Mean."""
    axes = reduced_axes(dim, len(self_shape))
    return [(out_shape(tuple(self_shape), axes, bool(keep_dim)), aclDataType(dtype))]
