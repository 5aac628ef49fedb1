"""AvgPool2d shape inference: attribute normalisers and the output shape [..., Ho, Wo].
No status codes here."""
from __future__ import annotations

from ..common.geometry import Pool2dGeom, make_geom, pads4, pair


def avg_pool_attrs(kernel_size, strides, paddings):
    """(k, s, pads4): ``strides`` empty = the kernel; ``paddings`` [p], [pH, pW]
    (symmetric) or [top, left, bottom, right]."""
    k = pair(tuple(kernel_size), (1, 1))
    return k, pair(tuple(strides), k), pads4(tuple(paddings))


def avg_pool_geom(self_shape, kernel_size, strides, paddings, ceil_mode) -> Pool2dGeom:
    """The window geometry (no dilation) of pooling ``self_shape``."""
    k, s, p4 = avg_pool_attrs(kernel_size, strides, paddings)
    return make_geom(self_shape, k, s, (1, 1), p4, bool(ceil_mode))


def infer_shape(self_shape, self_dtype, kernel_size, strides, paddings, ceil_mode):
    """[(out shape, self dtype)]: out is [..., Ho, Wo]."""
    g = avg_pool_geom(self_shape, kernel_size, strides, paddings, ceil_mode)
    return [(tuple(self_shape[:-2]) + (g.ho, g.wo), self_dtype)]
