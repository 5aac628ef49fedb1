"""LRN shape inference: ``out`` has self's shape and dtype."""
from __future__ import annotations


def infer_shape(self_shape: tuple[int, ...], self_dtype):
    """[(out shape, out dtype)] = [(self shape, self dtype)]."""
    return [(tuple(self_shape), self_dtype)]
