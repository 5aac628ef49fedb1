"""Cumsum reference (float64 / exact integers), tests only."""
from __future__ import annotations

import numpy as np


def cumsum_golden(x, axis, exclusive=False, reverse=False):
    a = np.moveaxis(x.astype(np.float64 if x.dtype.kind == "f" or x.dtype.kind == "V" else np.int64), axis, -1)
    out = np.zeros_like(a)
    n = a.shape[-1]
    for i in range(n):
        idx = range(i + 1, n) if reverse else range(0, i)
        s = sum((a[..., j] for j in idx), np.zeros_like(a[..., 0]))
        out[..., i] = s if exclusive else s + a[..., i]
    return np.moveaxis(out, -1, axis)
