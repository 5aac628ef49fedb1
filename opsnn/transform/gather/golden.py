"""Gather / GatherNd references (exact, element loops), tests only."""
from __future__ import annotations

import numpy as np


def gather_golden(x, axis, index):
    out = np.empty(index.shape, x.dtype)
    for pos in np.ndindex(index.shape):
        src = list(pos)
        src[axis] = int(index[pos]) % x.shape[axis]
        out[pos] = x[tuple(src)]
    return out


def gather_nd_golden(x, indices):
    k = indices.shape[-1]
    out = np.empty(indices.shape[:-1] + x.shape[k:], x.dtype)
    for pos in np.ndindex(indices.shape[:-1]):
        out[pos] = x[tuple(int(v) % d for v, d in zip(indices[pos], x.shape))]
    return out
