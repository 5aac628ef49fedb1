"""float64 reference for AdaptiveAvgPool2d (tests only), written naively (one output
cell at a time) and independently of the kernel. Arguments follow the op def."""
from __future__ import annotations

import math

import numpy as np

from ..common.golden import golden_planes


def adaptive_avg_pool2d_golden(x, output_size):
    """torch adaptive_avg_pool2d: cell (i, j) averages rows floor(i*H/Ho) ..
    ceil((i+1)*H/Ho) - 1 and the matching columns."""
    xs, lead = golden_planes(x)
    P, H, W = xs.shape
    Ho, Wo = output_size
    out = np.empty((P, Ho, Wo))
    for i in range(Ho):
        hs, he = (i * H) // Ho, math.ceil((i + 1) * H / Ho)
        for j in range(Wo):
            ws, we = (j * W) // Wo, math.ceil((j + 1) * W / Wo)
            out[:, i, j] = xs[:, hs:he, ws:we].mean(axis=(1, 2))
    return out.reshape(lead + (Ho, Wo))
