"""Pad reference (exact: data movement), imported by tests only."""
from __future__ import annotations

import numpy as np


def pad_golden(x: np.ndarray, pad, mode: str = "constant", value=0) -> np.ndarray:
    """``x`` padded by CANN's ``pad`` (last axis first pairs), written with an explicit
    index map per axis (independent of numpy.pad)."""
    rank = x.ndim
    pairs = [(0, 0)] * rank
    for i in range(len(pad) // 2):
        pairs[rank - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    out = x
    for ax, (b, e) in enumerate(pairs):
        n = out.shape[ax]
        idx = np.arange(-b, n + e)
        if mode == "constant":
            valid = (idx >= 0) & (idx < n)
            taken = np.take(out, np.clip(idx, 0, max(n - 1, 0)), axis=ax) if n else \
                np.zeros(out.shape[:ax] + (len(idx),) + out.shape[ax + 1:], out.dtype)
            shape = [1] * out.ndim
            shape[ax] = len(idx)
            out = np.where(valid.reshape(shape), taken, np.array(value).astype(out.dtype))
            continue
        if mode == "reflect":
            period = 2 * (n - 1) if n > 1 else 1
            m = np.mod(idx, period)
            src = np.where(m < n, m, period - m)
        elif mode == "edge":
            src = np.clip(idx, 0, n - 1)
        else:
            src = np.mod(idx, n)
        out = np.take(out, src, axis=ax)
    return out
