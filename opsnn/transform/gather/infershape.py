"""Gather (elements) / GatherNd shape inference: pure, no status codes."""
from __future__ import annotations


def gather_nd_shape(self_shape, idx_shape) -> tuple[int, ...]:
    """indices.shape[:-1] + self.shape[indices.shape[-1]:]."""
    return tuple(idx_shape[:-1]) + tuple(self_shape[idx_shape[-1]:])


def infer_gather(self, dim, index):
    return [(tuple(index[0]), self[1])]


def infer_gather_nd(self, indices, negativeIndexSupport=False):  # noqa: N803
    return [(gather_nd_shape(self[0], indices[0]), self[1])]
