"""GroupNorm shape inference: out has self's shape and dtype; meanOut and rstdOut are
[N, group] in self's dtype (CANN aclnnGroupNorm doc)."""
from __future__ import annotations


def infer_shape(self_shape: tuple[int, ...], self_dtype, n: int, group: int):
    """[(out shape, dtype), (meanOut shape, dtype), (rstdOut shape, dtype)]."""
    return [(tuple(self_shape), self_dtype), ((n, group), self_dtype), ((n, group), self_dtype)]
