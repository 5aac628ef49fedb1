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
    if len(input_shape) != 4 or len(weight_shape) != 4:
        raise ValueError(f"input and weight must be 4-D (NCHW, [Cout, C/groups, kh, kw]), got shapes "
                         f"{list(input_shape)} and {list(weight_shape)}")
    if len(stride) != 2 or min(int(v) for v in stride) < 1 or len(dilation) != 2 or \
            min(int(v) for v in dilation) < 1:
        raise ValueError(f"stride and dilation must be 2 values >= 1, got {list(stride)} and {list(dilation)}")
    n, _, h, w = input_shape
    co, _, kh, kw = weight_shape
    ho, wo = out_hw(h, w, kh, kw, tuple(stride), normalize_pads(padding), tuple(dilation))
    return [((n, co, ho, wo), input_dtype)]


def pads_begin_end(padding, nsp: int) -> list[tuple[int, int]]:
    """Per-axis (begin, end) from ``nsp`` symmetric values or ``2*nsp`` (begin, end) pairs."""
    p = [int(v) for v in padding]
    return [(v, v) for v in p] if len(p) == nsp else [(p[2 * i], p[2 * i + 1]) for i in range(nsp)]


def infer_shape_nd(input_shape, input_dtype, weight_shape, stride, padding, dilation, transposed: bool,
                   output_padding, groups: int):
    """[(output shape, dtype)] of a 1-D/2-D/3-D convolution, forward (weight [Cout,
    C/groups, *k]) or transposed (weight [C, Cout/groups, *k]; extents
    ``(in-1)*s - pb - pe + d*(k-1) + 1 + output_padding``)."""
    n, _, *sizes = input_shape
    w0, w1, *kernel = weight_shape
    nsp = len(sizes)
    pads = pads_begin_end(padding, nsp)
    if transposed:
        opad = list(output_padding or [0] * nsp)
        outs = [(s - 1) * st - pb - pe + d * (k - 1) + 1 + o for s, k, st, (pb, pe), d, o in
                zip(sizes, kernel, stride, pads, dilation, opad)]
        return [((n, w1 * groups, *outs), input_dtype)]
    outs = [(s + pb + pe - d * (k - 1) - 1) // st + 1 for s, k, st, (pb, pe), d in
            zip(sizes, kernel, stride, pads, dilation)]
    return [((n, w0, *outs), input_dtype)]
