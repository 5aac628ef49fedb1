"""Helpers of the pooling float64 references (tests only), written independently of
the kernels: the output-length rule and the planes view."""
from __future__ import annotations

import math

import numpy as np


def out_len(size: int, k: int, s: int, d: int, p0: int, p1: int, ceil_mode: bool) -> int:
    """torch/ONNX output length (ceil mode drops a window starting in the trailing pad)."""
    span = (size + p0 + p1 - d * (k - 1) - 1) / s
    n = (math.ceil(span) if ceil_mode else math.floor(span)) + 1
    if ceil_mode and (n - 1) * s >= size + p0:
        n -= 1
    return n


def golden_planes(x):
    """(x as float64 [planes, H, W], the leading shape)."""
    x = np.asarray(x, dtype=np.float64)
    return x.reshape((-1,) + x.shape[-2:]), x.shape[:-2]
