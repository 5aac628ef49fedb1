"""Resize reference (float64), tests only: per output element, 1-D interpolation
along each resized axis in turn, with the neighbour rule of the ONNX reference
(the ``n`` input indices closest to the source coordinate, edge-clamped)."""
from __future__ import annotations

import numpy as np

from .kernel import _coeffs, source_coord


def _interp_1d(line, x_out, n_out, s, mode, coord, nearest, a):
    n = len(line)
    xo = source_coord(x_out, n, n_out, s, coord)
    taps = 4 if mode == "cubic" else 2
    lo = int(np.floor(xo))
    ratio = 1.0 if xo == lo else xo - lo
    order = sorted(range(-taps, n + taps), key=lambda i: (abs(xo - i), i))[:taps]
    order.sort()
    c = _coeffs(mode, ratio, nearest, a)
    return sum(v * line[min(max(i, 0), n - 1)] for v, i in zip(c, order))


def resize_golden(x, out_shape, scales, mode="nearest", coord="half_pixel", nearest="round_prefer_floor", a=-0.75):
    y = x.astype(np.float64)
    for ax, (n_out, s) in enumerate(zip(out_shape, scales)):
        if y.shape[ax] == n_out:
            continue
        ym = np.moveaxis(y, ax, -1)
        out = np.empty(ym.shape[:-1] + (n_out,))
        for pos in np.ndindex(ym.shape[:-1]):
            for j in range(n_out):
                out[pos + (j,)] = _interp_1d(ym[pos], j, n_out, s, mode, coord, nearest, a)
        y = np.moveaxis(out, -1, ax)
    return y
