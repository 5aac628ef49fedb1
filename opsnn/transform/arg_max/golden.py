"""ArgMax / ArgMin reference (exact, per-row scan), tests only."""
from __future__ import annotations

import numpy as np


def arg_golden(x, axis, keepdim=False, is_max=True):
    xm = np.moveaxis(x, axis, -1)
    out = np.empty(xm.shape[:-1], np.int64)
    for pos in np.ndindex(xm.shape[:-1]):
        row = [float(v) for v in xm[pos]]
        best = 0
        for i, v in enumerate(row):
            if (v > row[best]) if is_max else (v < row[best]):
                best = i
        out[pos] = best
    return np.expand_dims(out, axis) if keepdim else out
