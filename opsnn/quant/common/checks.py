"""Phase-1 checks the quant family shares (status 161002 through ``invalid``)."""
from __future__ import annotations

import numpy as np

from ...base.checks import invalid


def normalize_axis(axis: int, ndim: int) -> int:
    """``axis`` in [0, ndim) (negative counts from the end); ValueError if out of range
    (a 0-D tensor accepts 0 and -1)."""
    a = axis + max(ndim, 1) if axis < 0 else axis
    if not 0 <= a < max(ndim, 1):
        raise ValueError(f"axis {axis} out of range for {ndim}-D x")
    return a


def check_params(op: str, x, scale, zp, axis) -> tuple[int, int]:
    """(normalised axis, vector length) after 161002 checks on the scale / zero-point
    vectors: 0-D or 1-D, length 1 or x.shape[axis], the zero point as long as the scale."""
    nd = len(x.view_shape)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise invalid(op, f"axis must be an int, got {axis!r}")
    if scale.numel == 1 and (zp is None or zp.numel == 1):
        return 0, 1   # CANN (aclnnQuantize doc): axis is unused when scale and zero point have size 1
    try:
        ax = normalize_axis(int(axis), nd)
    except ValueError:
        raise invalid(op, f"axis {axis!r} out of range for {nd}-D x") from None
    c = x.view_shape[ax] if nd else 1
    for name, t in (("scale", scale), ("zeroPoint", zp)):
        if t is None:
            continue
        if len(t.view_shape) > 1 or (t.numel not in (1, c)):
            raise invalid(op, f"{name} must be [1] or [{c}] (x.shape[{ax}]), got {list(t.view_shape)}")
    if zp is not None and zp.numel != scale.numel:
        raise invalid(op, f"zeroPoint {list(zp.view_shape)} and scale {list(scale.view_shape)} differ in size")
    return ax, scale.numel


def check_block_params(op: str, x, scale, zp, axis, block_size) -> tuple[int, int]:
    """(normalised axis, block size) after 161002 checks of a blocked scale / zero
    point: blockSize an int >= 1, scale of x's rank (at least 1-D) with
    ``ceil(x.shape[axis] / blockSize)`` along ``axis`` and x's size elsewhere, the zero
    point of the scale's shape."""
    nd = len(x.view_shape)
    for name, v in (("axis", axis), ("blockSize", block_size)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise invalid(op, f"{name} must be an int, got {v!r}")
    if block_size < 1:
        raise invalid(op, f"blockSize must be >= 1, got {block_size}")
    try:
        ax = normalize_axis(int(axis), nd)
    except ValueError:
        raise invalid(op, f"axis {axis!r} out of range for {nd}-D x") from None
    if nd == 0:
        raise invalid(op, "blocked quantization needs x of at least 1 dim")
    want = list(x.view_shape)
    want[ax] = -(-want[ax] // int(block_size))
    for name, t in (("scale", scale), ("zeroPoint", zp)):
        if t is not None and list(t.view_shape) != want:
            raise invalid(op, f"{name} shape {list(t.view_shape)} must be {want} (x.shape with "
                              f"ceil({x.view_shape[ax]} / blockSize={block_size}) along axis {ax})")
    return ax, int(block_size)
