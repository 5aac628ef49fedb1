"""Lowering of the padding and resampling ops onto ``opsnn/transform``.

=================  ====================================================================
ONNX op            aclnn prepare (phase 1 runs here, once)
=================  ====================================================================
Pad                aclnnConstantPadNd (constant); aclnnReflectionPad1d/2d/3d (reflect),
                   aclnnReplicationPad1d/2d/3d (edge), aclnnCircularPad2d/3d (wrap) on
                   the trailing padded axes; pads, constant_value, axes constant
Resize, Upsample   aclnnResizeV2 (nearest / linear / cubic, every coordinate
                   transformation, antialias; scales / sizes / roi constant)
=================  ====================================================================
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import attr_int, attr_ints, axis_index, bad
from .index import attr_str, const_ints
from .registry import register
from .tensors import const, prepare, scalar

_MODE_OP = {"reflect": "ReflectionPad", "edge": "ReplicationPad", "wrap": "CircularPad"}


@register("Pad", opset=True)
def lower_pad(ctx, node: Node, ins, opset: int = 18):
    x = ins[0]
    rank = len(x.shape)
    mode = attr_str(node, "mode", "constant")
    if opset < 11:
        pads, value = attr_ints(node, "pads"), float(node.attrs.get("value", 0.0))
        axes = list(range(rank))
    else:
        pads = const_ints(ctx, node, 1, "pads")
        cv = node.inputs[2] if len(node.inputs) > 2 else ""
        value = 0
        if cv:
            c = const(ctx, cv)
            if c is None:
                raise bad(node, "runtime constant_value is not supported (it must be constant)")
            value = np.asarray(c).reshape(-1)[0].item() if np.asarray(c).size else 0
        axes = const_ints(ctx, node, 3, "axes")
        axes = list(range(rank)) if axes is None else [axis_index(node, a, rank, "axes value") for a in axes]
    if pads is None or len(pads) != 2 * len(axes):
        raise bad(node, f"pads {pads} must hold 2 entries per padded axis ({len(axes)})")
    per = [(0, 0)] * rank
    for a, b, e in zip(axes, pads[:len(axes)], pads[len(axes):]):
        per[a] = (b, e)
    shape = tuple(d + b + e for d, (b, e) in zip(x.shape, per))
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    if mode == "constant":
        cann = [v for b, e in reversed(per) for v in (b, e)]
        return [out], [prepare(node, "aclnnConstantPadNd", x.tensor, opsnn.aclCreateIntArray(cann),
                               scalar(node, value, x.dtype), out.tensor)]
    if mode not in _MODE_OP:
        raise bad(node, f"mode {mode!r} is not one of constant, reflect, edge, wrap")
    padded = [a for a in range(rank) if per[a] != (0, 0)]
    nd = max(rank - padded[0], 1) if padded else 1
    if mode == "wrap":
        nd = max(nd, 2)
    if nd > 3 or nd > rank:
        raise bad(node, f"{mode} padding of {nd} trailing axes of a {rank}-D input is not supported")
    cann = [v for b, e in reversed(per[rank - nd:]) for v in (b, e)]
    return [out], [prepare(node, f"aclnn{_MODE_OP[mode]}{nd}d", x.tensor, opsnn.aclCreateIntArray(cann),
                           out.tensor)]


def _resize_scales(ctx, node: Node, x, opset: int):
    """(scales per axis, out shape, roi or None) of a Resize / Upsample node."""
    rank = len(x.shape)
    if node.op_type == "Upsample" and opset < 9:
        scales = [float(v) for v in node.attrs.get("scales", [])]
        return scales, tuple(int(np.floor(d * s)) for d, s in zip(x.shape, scales)), None
    si = 1 if (node.op_type == "Upsample" or opset < 11) else 2
    roi = None
    if si == 2 and len(node.inputs) > 1 and node.inputs[1]:
        r = const(ctx, node.inputs[1])
        roi = None if r is None or not np.asarray(r).size else [float(v) for v in np.asarray(r).reshape(-1)]
    name = node.inputs[si] if len(node.inputs) > si else ""
    sc = const(ctx, name) if name else None
    sizes_name = node.inputs[3] if si == 2 and len(node.inputs) > 3 else ""
    sizes = const(ctx, sizes_name) if sizes_name else None
    if (name and sc is None) or (sizes_name and sizes is None):
        raise bad(node, "runtime scales / sizes are not supported (they must be constant)")
    axes = attr_ints(node, "axes", None)
    axes = list(range(rank)) if axes is None else [axis_index(node, a, rank, "axes value") for a in axes]
    full = [1.0] * rank
    out = list(x.shape)
    if sc is not None and np.asarray(sc).size:
        for a, v in zip(axes, np.asarray(sc, np.float64).reshape(-1)):
            full[a] = float(v)
            out[a] = int(np.floor(x.shape[a] * float(v)))
    elif sizes is not None:
        sz = [int(v) for v in np.asarray(sizes).reshape(-1)]
        policy = attr_str(node, "keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            ratios = [sz[i] / x.shape[a] for i, a in enumerate(axes)]
            r = min(ratios) if policy == "not_larger" else max(ratios)
            for a in axes:
                full[a] = r
                out[a] = int(np.floor(x.shape[a] * r + 0.5))
        else:
            for a, v in zip(axes, sz):
                full[a] = v / x.shape[a]
                out[a] = v
    else:
        raise bad(node, "needs scales or sizes")
    if roi is not None and len(roi) == 2 * len(axes) and len(axes) != rank:
        r = [0.0] * rank + [1.0] * rank
        for i, a in enumerate(axes):
            r[a], r[rank + a] = roi[i], roi[len(axes) + i]
        roi = r
    return full, tuple(out), roi


@register("Resize", "Upsample", opset=True)
def lower_resize(ctx, node: Node, ins, opset: int = 19):
    x = ins[0]
    mode = attr_str(node, "mode", "nearest")
    mode = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    old = node.op_type == "Upsample" or opset < 11
    coord = "asymmetric" if old else attr_str(node, "coordinate_transformation_mode", "half_pixel")
    nearest = "floor" if old else attr_str(node, "nearest_mode", "round_prefer_floor")
    scales, shape, roi = _resize_scales(ctx, node, x, opset)
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    return [out], [prepare(node, "aclnnResizeV2", x.tensor, scales, roi, mode, coord, nearest,
                           float(node.attrs.get("cubic_coeff_a", -0.75)), bool(attr_int(node, "exclude_outside", 0)),
                           float(node.attrs.get("extrapolation_value", 0.0)), bool(attr_int(node, "antialias", 0)),
                           out.tensor)]
