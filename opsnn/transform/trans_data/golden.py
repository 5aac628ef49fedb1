"""TransData float64 references (tests only): the layouts written element by
element from their index formulas, independently of ``kernel.py``'s reshapes."""
from __future__ import annotations

import numpy as np


def golden_nc1hwc0(x: np.ndarray, c0: int) -> np.ndarray:
    """[N, C, H, W] -> [N, C1, H, W, C0]: out[n, c1, h, w, k] = x[n, c1*c0 + k, h, w] or 0."""
    n, c, h, w = x.shape
    c1 = (c + c0 - 1) // c0
    out = np.zeros((n, c1, h, w, c0), np.float64)
    for ch in range(c):
        out[:, ch // c0, :, :, ch % c0] = x[:, ch]
    return out


def golden_nchw(x5: np.ndarray, c: int) -> np.ndarray:
    """[N, C1, H, W, C0] -> [N, C, H, W]."""
    n, _, h, w, c0 = x5.shape
    out = np.zeros((n, c, h, w), np.float64)
    for ch in range(c):
        out[:, ch] = x5[:, ch // c0, :, :, ch % c0]
    return out


def golden_fractal_z(wt: np.ndarray, c0: int) -> np.ndarray:
    """[Cout, Cin, kh, kw] -> [C1*kh*kw, N1, 16, C0]:
    out[(c1*kh + i)*kw + j, o // 16, o % 16, k] = w[o, c1*c0 + k, i, j] or 0."""
    co, ci, kh, kw = wt.shape
    c1, n1 = (ci + c0 - 1) // c0, (co + 15) // 16
    out = np.zeros((c1 * kh * kw, n1, 16, c0), np.float64)
    for o in range(co):
        for ch in range(ci):
            for i in range(kh):
                for j in range(kw):
                    out[((ch // c0) * kh + i) * kw + j, o // 16, o % 16, ch % c0] = wt[o, ch, i, j]
    return out
