"""float64 reference of aclnnDynamicQuantizeLinear (tests only)."""
import numpy as np


def dynamic_quantize_golden(x):
    """(y uint8, scale, zero point) by the ONNX formula in float64."""
    x = np.asarray(x, np.float64)
    lo, hi = min(0.0, x.min()), max(0.0, x.max())
    scale = 1.0 / 255 if hi == lo else (hi - lo) / 255
    zp = np.rint(np.clip(-lo / scale, 0, 255))
    y = np.clip(np.rint(x / scale) + zp, 0, 255).astype(np.uint8)
    return y, scale, np.uint8(zp)
