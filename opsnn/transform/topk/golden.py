"""Topk reference (exact, per-row selection), tests only."""
from __future__ import annotations

import numpy as np


def topk_golden(x, k, axis=-1, largest=True):
    xm = np.moveaxis(x, axis, -1)
    vals = np.empty(xm.shape[:-1] + (k,), x.dtype)
    idxs = np.empty(xm.shape[:-1] + (k,), np.int64)
    for pos in np.ndindex(xm.shape[:-1]):
        row = [(float(v), i) for i, v in enumerate(xm[pos])]
        row.sort(key=lambda t: (-t[0] if largest else t[0], t[1]))
        idxs[pos] = [i for _, i in row[:k]]
        vals[pos] = xm[pos][idxs[pos]]
    return np.moveaxis(vals, -1, axis), np.moveaxis(idxs, -1, axis)
