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
