"""float64 reference for LpPool (tests only): each window's in-bounds taps, one at a
time over any number of spatial dims; ONNX pads [b..., e...]."""
from __future__ import annotations

import itertools
import math

import numpy as np


def lp_pool_golden(x, k, s, d, pads, p, ceil_mode=False):
    """(sum over each window of |x|^p)^(1/p), padding adding 0."""
    x = np.asarray(x, dtype=np.float64)
    nsp = x.ndim - 2
    sizes = x.shape[2:]
    outs = []
    for i in range(nsp):
        span = (sizes[i] + pads[i] + pads[i + nsp] - d[i] * (k[i] - 1) - 1) / s[i]
        n = (math.ceil(span) if ceil_mode else math.floor(span)) + 1
        if ceil_mode and (n - 1) * s[i] >= sizes[i] + pads[i]:
            n -= 1
        outs.append(n)
    out = np.zeros(x.shape[:2] + tuple(outs))
    for o in itertools.product(*[range(n) for n in outs]):
        acc = np.zeros(x.shape[:2])
        for t in itertools.product(*[range(kk) for kk in k]):
            pos = tuple(o[i] * s[i] - pads[i] + t[i] * d[i] for i in range(nsp))
            if all(0 <= pos[i] < sizes[i] for i in range(nsp)):
                acc += np.abs(x[(slice(None), slice(None)) + pos]) ** p
        out[(slice(None), slice(None)) + o] = acc ** (1.0 / p)
    return out
