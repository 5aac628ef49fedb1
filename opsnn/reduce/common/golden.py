"""Golden helper shared by the ReduceSum and Mean references (tests only)."""
from __future__ import annotations

import numpy as np


def golden_axes(x: np.ndarray, dim) -> tuple[int, ...] | None:
    """numpy ``axis`` for reducing ``x`` over ``dim`` (empty: all; 0-D: None)."""
    if x.ndim == 0:
        return None
    return tuple(d % x.ndim for d in dim) if len(dim) else tuple(range(x.ndim))
