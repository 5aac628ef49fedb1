"""Scatter / ScatterNd references (exact, element loops), tests only."""
from __future__ import annotations

import numpy as np


def scatter_golden(x, axis, index, src, reduce="none"):
    out = x.copy()
    for pos in np.ndindex(index.shape):
        dst = list(pos)
        dst[axis] = int(index[pos]) % x.shape[axis]
        dst = tuple(dst)
        v = src[pos]
        out[dst] = {"none": lambda a, b: b, "add": lambda a, b: a + b, "mul": lambda a, b: a * b,
                    "max": max, "min": min}[reduce](out[dst], v)
    return out


def scatter_nd_golden(data, indices, updates, reduce="none"):
    out = data.copy()
    for pos in np.ndindex(indices.shape[:-1]):
        dst = tuple(int(v) % d for v, d in zip(indices[pos], data.shape))
        old, new = out[dst], updates[pos]
        out[dst] = {"none": new, "add": old + new, "mul": old * new,
                    "max": np.maximum(old, new), "min": np.minimum(old, new)}[reduce]
    return out
