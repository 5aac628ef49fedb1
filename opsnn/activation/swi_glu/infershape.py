"""SwiGlu shape inference: out is x with the ``dim`` axis halved, x's dtype."""
from __future__ import annotations


def norm_dim(dim: int, rank: int) -> int | None:
    """``dim`` in [0, rank) or None when out of [-rank, rank)."""
    return dim % rank if rank and -rank <= dim < rank else None


def infer_shape(x_shape, x_dtype, dim: int = -1):
    """[(out shape, dtype)]: x's shape with x.shape[dim] // 2 at ``dim``."""
    d = norm_dim(dim, len(x_shape))
    shape = list(x_shape)
    if d is not None:
        shape[d] //= 2
    return [(tuple(shape), x_dtype)]
