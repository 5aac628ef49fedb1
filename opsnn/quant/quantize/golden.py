"""float64 reference of aclnnQuantize (tests only)."""
import numpy as np


def quantize_golden(x, scales, zero_points, axis, out_dtype):
    """saturate(round_half_even(x / scales) + zero_points), x / scales in float64."""
    x = np.asarray(x, np.float64)
    shape = [1] * x.ndim
    s = np.asarray(scales, np.float64).reshape(-1)
    if s.size > 1:
        shape[axis] = s.size
        s = s.reshape(shape)
    q = np.rint(x / s)
    if zero_points is not None:
        z = np.asarray(zero_points, np.float64).reshape(-1)
        q = q + (z.reshape(shape) if z.size > 1 else z[0])
    info = np.iinfo(out_dtype)
    return np.clip(q, info.min, info.max).astype(out_dtype)


def quantize_block_golden(x, scales, zero_points, axis, block, out_dtype):
    """Blocked quantize in float64: element i along ``axis`` uses scales / zero_points
    entry i // block (scales of x's rank, ceil(x.shape[axis] / block) along axis)."""
    x = np.asarray(x, np.float64)
    idx = np.arange(x.shape[axis]) // block
    s = np.take(np.asarray(scales, np.float64), idx, axis=axis)
    q = np.rint(x / s)
    if zero_points is not None:
        q = q + np.take(np.asarray(zero_points, np.float64), idx, axis=axis)
    info = np.iinfo(out_dtype)
    return np.clip(q, info.min, info.max).astype(out_dtype)
