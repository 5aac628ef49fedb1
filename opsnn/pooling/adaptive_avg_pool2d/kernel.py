"""AdaptiveAvgPool2d kernel half: the numpy body (the tile program is the family's,
:func:`opsnn.pooling.common.kernel.tile_program`).

Formula: out[i, j] = mean of input rows floor(i*H/Ho) .. ceil((i+1)*H/Ho)-1 and
columns floor(j*W/Wo) .. ceil((j+1)*W/Wo)-1, through an integral image in float64.
"""
from __future__ import annotations

import numpy as np

from ..common.geometry import adaptive_bounds
from ..common.kernel import single_output_body


def adaptive_avg_compute(x: np.ndarray, planes: int, h: int, w: int, ho: int, wo: int) -> np.ndarray:
    """torch adaptive_avg_pool2d via an integral image (float64, so exact enough
    for any window size)."""
    xs = x.reshape(planes, h, w)
    if ho == 1 and wo == 1:
        return xs.mean(axis=(1, 2), dtype=np.float64).reshape(planes, 1, 1)
    s = np.zeros((planes, h + 1, w + 1), np.float64)
    np.cumsum(xs, axis=1, dtype=np.float64, out=s[:, 1:, 1:])
    np.cumsum(s[:, 1:, 1:], axis=2, out=s[:, 1:, 1:])
    hs, he = adaptive_bounds(h, ho)
    ws, we = adaptive_bounds(w, wo)
    tot = (s[:, he[:, None], we[None, :]] - s[:, hs[:, None], we[None, :]]
           - s[:, he[:, None], ws[None, :]] + s[:, hs[:, None], ws[None, :]])
    cnt = (he - hs)[:, None] * (we - ws)[None, :]
    return tot / cnt


def adaptive_avg_body(x_t, out_t, planes: int, h: int, w: int, ho: int, wo: int):
    """Body factory. Slots: self, out."""
    return single_output_body(x_t, out_t, lambda x: adaptive_avg_compute(x, planes, h, w, ho, wo))
