"""int64 / float64 reference of QuantConvolution (tests only; arguments as op_api)."""
import numpy as np


def quant_conv_golden(x, w, scale, offset=None, bias=None, stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1),
                      groups=1, offsetx=0, out_dtype=np.float16):
    """Tap-by-tap int64 convolution (no im2col, no float GEMM), then the kernel module's
    formula in float64; INT8 / UINT8 outputs round half to even and saturate."""
    x = np.asarray(x, np.int64)
    w = np.asarray(w, np.int64)
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    (sh, sw), (dh, dw), (pt, pb, pl, pr) = stride, dilation, pads
    xp = np.full((n, c, h + pt + pb, wd + pl + pr), offsetx, np.int64)
    xp[:, :, pt:pt + h, pl:pl + wd] = x
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    cog = co // groups
    acc = np.zeros((n, co, ho, wo), np.int64)
    for o in range(co):
        gi = o // cog
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, gi * cg:(gi + 1) * cg, i * dh:i * dh + sh * (ho - 1) + 1:sh,
                           j * dw:j * dw + sw * (wo - 1) + 1:sw]
                acc[:, o] += np.tensordot(patch, w[o, :, i, j], axes=([1], [0]))
    odt = np.dtype(out_dtype)
    ch = (1, co, 1, 1)
    if bias is not None and np.asarray(bias).dtype.kind in "iu":
        acc = acc + np.asarray(bias, np.int64).reshape(ch)
    if odt == np.int32:
        return acc.astype(np.int32)
    r = acc.astype(np.float64) * np.asarray(scale, np.float64).reshape(-1).reshape(-1, 1, 1)
    if bias is not None and np.asarray(bias).dtype.kind not in "iu":
        r = r + np.asarray(bias, np.float64).reshape(ch)
    if odt.kind in "iu":
        if offset is not None:
            r = r + np.asarray(offset, np.float64).reshape(-1, 1, 1)
        info = np.iinfo(odt)
        return np.clip(np.rint(r), info.min, info.max).astype(odt)
    return r
