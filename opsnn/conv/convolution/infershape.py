"""Convolution shape inference: output shapes and dtypes only (plus the padding
normaliser); the checks with status codes are in ``op_api.py``."""
from __future__ import annotations


def normalize_pads(padding) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) from a length-2 (pad_h, pad_w, symmetric) or length-4
    (top, bottom, left, right) padding."""
    p = [int(v) for v in padding]
    return (p[0], p[0], p[1], p[1]) if len(p) == 2 else (p[0], p[1], p[2], p[3])


def out_hw(h: int, w: int, kh: int, kw: int, stride, pads, dilation) -> tuple[int, int]:
    """(Ho, Wo) = ((H + pad_top + pad_bottom - dh*(kh-1) - 1) // sh + 1, likewise W)."""
    (sh, sw), (dh, dw), (pt, pb, pl, pr) = stride, dilation, pads
    return (h + pt + pb - dh * (kh - 1) - 1) // sh + 1, (w + pl + pr - dw * (kw - 1) - 1) // sw + 1


def infer_shape(input_shape, input_dtype, weight_shape, stride, padding, dilation):
    """[(output shape, output dtype)]: [N, Cout, Ho, Wo] in the input's dtype, for NCHW
    ``input_shape`` and weight [Cout, C/groups, kh, kw]."""
    n, _, h, w = input_shape
    co, _, kh, kw = weight_shape
    ho, wo = out_hw(h, w, kh, kw, tuple(stride), normalize_pads(padding), tuple(dilation))
    return [((n, co, ho, wo), input_dtype)]
