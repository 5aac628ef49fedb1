"""Triu / Tril shape inference: out has self's shape and dtype."""
from __future__ import annotations


def infer_shape(self_shape, self_dtype, diagonal=0):
    return [(tuple(self_shape), self_dtype)]
