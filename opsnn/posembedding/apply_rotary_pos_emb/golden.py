"""float64 reference for ApplyRotaryPosEmb (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def rotate(x, interleaved: bool = False):
    """rotate_half(x) = cat(-x2, x1) (half mode) or, interleaved, pairs (x0, x1) -> (-x1, x0)."""
    if interleaved:
        r = np.empty_like(x)
        r[..., 0::2] = -x[..., 1::2]
        r[..., 1::2] = x[..., 0::2]
        return r
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def apply_rotary_pos_emb_golden(query, key, cos, sin, layout=1, interleaved=False):
    """float64 (q * cos + rotate(q) * sin, k * cos + rotate(k) * sin); ``key`` may be None."""
    c, s = np.asarray(cos, np.float64), np.asarray(sin, np.float64)
    out = []
    for t in (query, key):
        if t is None:
            out.append(None)
            continue
        x = np.asarray(t, np.float64)
        out.append(x * c + rotate(x, interleaved) * s)
    return tuple(out)
