"""float64 reference for ApplyRotaryPosEmb (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def rotate(x, interleaved: bool = False):
    """rotate_half(x) = cat(-x2, x1) (half mode) or, interleaved, pairs (x0, x1) -> (-x1, x0):
    the last axis seen as [2, D/2] (half) or [D/2, 2] (pairs), its two parts swapped and the
    new first one negated."""
    d = x.shape[-1]
    if interleaved:
        pairs = x.reshape(x.shape[:-1] + (d // 2, 2))[..., ::-1] * np.array([-1.0, 1.0])
        return pairs.reshape(x.shape)
    halves = x.reshape(x.shape[:-1] + (2, d // 2))[..., ::-1, :] * np.array([[-1.0], [1.0]])
    return halves.reshape(x.shape)


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
