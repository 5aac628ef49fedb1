"""Lowering of the convolutions beyond :mod:`.cnn`'s forward Conv: ConvTranspose (1-D,
2-D, 3-D; aclnnConvolution with ``transposed=true``) and Col2Im.

ConvTranspose geometry (ONNX ConvTranspose-11+): with ``output_shape`` (or a SAME
``auto_pad``, which asks for ``input * stride``) the total padding per axis is
``stride*(in-1) + output_padding + d*(k-1) + 1 - out``, split ``total//2`` at the
begin for SAME_UPPER (and at the end otherwise); a negative end (``output_shape``
one longer than the natural size) becomes extra ``outputPadding``. Explicit ``pads``
go to aclnnConvolution's per-axis (begin, end) padding as given.

Col2Im is the same transposed convolution with one-hot weights. The N-d pooling ops
are :mod:`.pool_nd`.
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import attr_int, attr_ints, bad
from .cnn_common import conv_weight
from .registry import register
from .tensors import DTensor, const, prepare


def _transpose_geometry(node: Node, sizes, kernel, st, dl):
    """(pads_begin, pads_end, output_padding, out) of a ConvTranspose node (module doc)."""
    nsp = len(kernel)
    op = attr_ints(node, "output_padding", [0] * nsp, nsp)
    out_shape = attr_ints(node, "output_shape", None)
    ap = node.attrs.get("auto_pad", "NOTSET") or "NOTSET"
    if ap not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        raise bad(node, f"auto_pad {ap!r} is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER")
    natural = [s * (n - 1) + o + d * (k - 1) + 1 for n, k, s, d, o in zip(sizes, kernel, st, dl, op)]
    if out_shape is not None or ap in ("SAME_UPPER", "SAME_LOWER"):
        if out_shape is not None:
            out_shape = out_shape[-nsp:]
            if len(out_shape) != nsp:
                raise bad(node, f"output_shape {out_shape} needs {nsp} spatial values")
        else:
            out_shape = [n * s for n, s in zip(sizes, st)]
        total = [a - b for a, b in zip(natural, out_shape)]
        upper = ap == "SAME_UPPER"
        begin = [t // 2 if upper else t - t // 2 for t in total]
        end = [t - t // 2 if upper else t // 2 for t in total]
    elif ap == "VALID":
        begin, end = [0] * nsp, [0] * nsp
    else:
        pads = attr_ints(node, "pads", [0] * (2 * nsp), 2 * nsp)
        begin, end = pads[:nsp], pads[nsp:]
    if min(begin) < 0:
        raise bad(node, f"output_shape {out_shape} needs a negative leading pad {begin}; not supported")
    out = [a - b - e for a, b, e in zip(natural, begin, end)]
    return begin, [max(0, e) for e in end], [o + max(0, -e) for o, e in zip(op, end)], out


@register("ConvTranspose")
def lower_conv_transpose(ctx, node: Node, ins: list[DTensor]):
    """ConvTranspose over [N, C, *S] (1 to 3 spatial dims) -> aclnnConvolution with
    ``transposed=true``; weight [C, M/group, *k]; a bias of shape [M]."""
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else None
    nsp, kernel, g = conv_weight(node, x, w)
    st = attr_ints(node, "strides", [1] * nsp, nsp)
    dl = attr_ints(node, "dilations", [1] * nsp, nsp)
    if min(st) < 1 or min(dl) < 1:
        raise bad(node, f"strides {st} and dilations {dl} must be >= 1")
    begin, end, op, out_sp = _transpose_geometry(node, x.shape[2:], kernel, st, dl)
    out = ctx.alloc(node.outputs[0], (x.shape[0], w.shape[1] * g, *out_sp), x.dtype)
    padding = [p for i in range(nsp) for p in (begin[i], end[i])]
    ia = opsnn.aclCreateIntArray
    call = prepare(node, "aclnnConvolution", x.tensor, w.tensor, b.tensor if b else None, ia(st), ia(padding),
                   ia(dl), True, ia(op), g, out.tensor, 0)
    return [out], [call]


@register("Col2Im")
def lower_col2im(ctx, node: Node, ins: list[DTensor]):
    """Col2Im (1 to 3 image dims): the block columns [N, C*K, L] (K = prod(block_shape),
    L the block grid) summed back into the image, which is a transposed convolution of
    the [N, C*K, *grid] view by a one-hot [C*K, 1, *block] weight in C groups
    (channel c*K + k carries block offset k) -> aclnnConvolution with transposed=true;
    ``outputPadding`` makes up an image longer than the grid's reach."""
    x = ins[0]
    image = const(ctx, node.inputs[1]) if len(node.inputs) > 1 else None
    block = const(ctx, node.inputs[2]) if len(node.inputs) > 2 else None
    if image is None or block is None:
        raise bad(node, "image_shape and block_shape must be constant")
    image = [int(v) for v in np.asarray(image).reshape(-1)]
    block = [int(v) for v in np.asarray(block).reshape(-1)]
    nsp = len(image)
    if len(block) != nsp or not 1 <= nsp <= 3 or len(x.shape) != 3:
        raise bad(node, f"input {list(x.shape)}, image_shape {image} and block_shape {block}: need [N, C*K, L] "
                        "and 1 to 3 image dims")
    st = attr_ints(node, "strides", [1] * nsp, nsp)
    dl = attr_ints(node, "dilations", [1] * nsp, nsp)
    pads = attr_ints(node, "pads", [0] * (2 * nsp), 2 * nsp)
    n, ck, length = x.shape
    k = int(np.prod(block))
    grid = [(image[i] + pads[i] + pads[i + nsp] - dl[i] * (block[i] - 1) - 1) // st[i] + 1 for i in range(nsp)]
    if ck % k or int(np.prod(grid)) != length or min(grid) < 1:
        raise bad(node, f"input {list(x.shape)} does not hold C x {k} blocks over a {grid} grid")
    c = ck // k
    natural = [(grid[i] - 1) * st[i] - pads[i] - pads[i + nsp] + dl[i] * (block[i] - 1) + 1 for i in range(nsp)]
    w = np.zeros((c, k, 1, k), x.dtype)
    w[:, np.arange(k), 0, np.arange(k)] = 1
    wt = ctx.upload(f"{node.outputs[0]}__onehot", w.reshape((ck, 1, *block)))
    xv = ctx.view(x, f"{node.outputs[0]}__grid", (n, ck, *grid))
    out = ctx.alloc(node.outputs[0], (n, c, *image), x.dtype)
    ia = opsnn.aclCreateIntArray
    padding = [p for i in range(nsp) for p in (pads[i], pads[i + nsp])]
    return [out], [prepare(node, "aclnnConvolution", xv.tensor, wt.tensor, None, ia(st), ia(padding), ia(dl), True,
                           ia([a - b for a, b in zip(image, natural)]), c, out.tensor, 0)]
