"""float64 / int64 reference of QuantMatmulV4 (tests only; arguments in op_def order)."""
import numpy as np


def quant_matmul_golden(x1, x2, scale, offset=None, pertoken=None, bias=None, transpose_x1=False,
                        transpose_x2=False, out_int8=False, out_int32=False):
    """The CANN formula (kernel module doc) with an int64 product and float64 dequant;
    ``out_int8``: round half to even and saturate to int8."""
    a = np.asarray(x1, np.int64)
    b = np.asarray(x2, np.int64)
    if transpose_x1:
        a = np.swapaxes(a, -1, -2)
    if transpose_x2:
        b = np.swapaxes(b, -1, -2)
    acc = np.matmul(a, b)
    if bias is not None and np.asarray(bias).dtype.kind in "iu":
        acc = acc + np.asarray(bias, np.int64)
    if out_int32:
        return acc.astype(np.int32)
    r = acc.astype(np.float64) * np.asarray(scale, np.float64)
    if pertoken is not None:
        r = r * np.asarray(pertoken, np.float64)[..., :, None]
    if bias is not None and np.asarray(bias).dtype.kind not in "iu":
        r = r + np.asarray(bias, np.float64)
    if offset is not None:
        r = r + np.asarray(offset, np.float64)
    if out_int8:
        return np.clip(np.rint(r), -128, 127).astype(np.int8)
    return r
