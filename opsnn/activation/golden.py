"""float64 references for the activation family, naive and independent of the kernels.

Arguments follow the op defs.
"""
from __future__ import annotations

import math

import numpy as np

from .lrn.golden import lrn_golden  # noqa: F401  (moved beside its op)
from .softmax.golden import softmax_golden  # noqa: F401  (moved beside its op)


def softmax_2d_golden(x, axis: int = 1) -> np.ndarray:
    """ONNX Softmax before opset 13: flatten to [prod(shape[:axis]), prod(shape[axis:])]
    and normalise each row of the 2-D view."""
    x = np.asarray(x, dtype=np.float64)
    axis = axis % max(x.ndim, 1)
    lead = int(np.prod(x.shape[:axis], dtype=np.int64))
    return softmax_golden(x.reshape(lead, -1), 1).reshape(x.shape)

