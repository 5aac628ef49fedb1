"""GatherV2 shape inference for dim 0: out is index.shape + self.shape[1:], self's dtype."""
from __future__ import annotations


def infer_shape(self_shape, self_dtype, index_shape):
    """[(out shape, self dtype)]."""
    return [(tuple(index_shape) + tuple(self_shape[1:]), self_dtype)]
