"""float64 reference of aclnnDequantizeLinear (tests only)."""
import numpy as np


def dequantize_golden(x, scale, zero_point, axis):
    """(x - zero_point) * scale in float64, the vectors broadcast along ``axis``."""
    x = np.asarray(x, np.float64)
    shape = [1] * x.ndim

    def vec(v):
        v = np.asarray(v, np.float64).reshape(-1)
        if v.size == 1:
            return v[0]
        shape[axis] = v.size
        return v.reshape(shape)
    d = x - vec(zero_point) if zero_point is not None else x
    return d * vec(scale)


def dequantize_block_golden(x, scale, zero_point, axis, block):
    """Blocked (x - zero_point[b]) * scale[b] in float64, b = i // block along ``axis``."""
    x = np.asarray(x, np.float64)
    idx = np.arange(x.shape[axis]) // block
    d = x - np.take(np.asarray(zero_point, np.float64), idx, axis=axis) if zero_point is not None else x
    return d * np.take(np.asarray(scale, np.float64), idx, axis=axis)
