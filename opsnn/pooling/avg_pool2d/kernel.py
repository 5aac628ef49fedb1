"""AvgPool2d kernel half: the numpy body (the tile program is the family's,
:func:`opsnn.pooling.common.kernel.tile_program`).

Formula: out = sum of each window's taps (padding adds 0) / divisor, where the
divisor is ``divisorOverride`` if non-zero, else the window clipped to the padded
extent (``countIncludePad``) or to the input (torch's rule). Accumulates in fp32.
"""
from __future__ import annotations

import numpy as np

from ..common.geometry import Pool2dGeom
from ..common.kernel import compute_dtype, padded, planes, single_output_body, window_slices


def avg_divisor(g: Pool2dGeom, count_include_pad: bool, divisor_override: int) -> np.ndarray:
    """torch's avg_pool2d divisor per output (ho, wo): the override if non-zero;
    else the window clipped to the padded extent (countIncludePad) or to the input."""
    if divisor_override:
        return np.full((g.ho, g.wo), float(divisor_override))

    def axis(n_out, s, k, pb, pe, size):
        start = np.arange(n_out, dtype=np.int64) * s - pb
        end = np.minimum(start + k, size + pe)
        full = end - start
        valid = np.minimum(end, size) - np.maximum(start, 0)
        return full, valid

    fh, vh = axis(g.ho, g.sh, g.kh, g.pt, g.pb, g.h)
    fw, vw = axis(g.wo, g.sw, g.kw, g.pl, g.pr, g.w)
    d = (fh[:, None] * fw[None, :]) if count_include_pad else (vh[:, None] * vw[None, :])
    return d.astype(np.float64)


def avg_pool_compute(x: np.ndarray, g: Pool2dGeom, count_include_pad: bool, divisor_override: int) -> np.ndarray:
    """The average of every window of ``x`` ([..., H, W]) as [planes, Ho, Wo]."""
    ct = compute_dtype(x.dtype)
    xp = padded(planes(x, g).astype(ct, copy=False), g, 0.0)
    acc = np.zeros((g.planes, g.ho, g.wo), ct)
    for _, _, rs, cs in window_slices(g):
        acc += xp[:, rs, cs]
    div = avg_divisor(g, count_include_pad, divisor_override).astype(ct)
    return acc / div


def avg_pool_body(x_t, out_t, g: Pool2dGeom, count_include_pad: bool, divisor_override: int):
    """Body factory. Slots: self, out."""
    return single_output_body(x_t, out_t, lambda x: avg_pool_compute(x, g, count_include_pad, divisor_override))
