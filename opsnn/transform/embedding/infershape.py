"""Embedding shape inference: out is indices.shape + [embedding_dim], weight's dtype."""
from __future__ import annotations


def infer_shape(weight_shape, weight_dtype, indices_shape):
    """[(out shape, weight dtype)]."""
    return [(tuple(indices_shape) + (weight_shape[-1],), weight_dtype)]
