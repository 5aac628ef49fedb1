"""MaxPool / MaxPool2dWithIndices shape inference: attribute normalisers and the
output shape [..., Ho, Wo] (``indices`` has out's shape). No status codes here."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ..common.geometry import Pool2dGeom, make_geom, pads4, pair


def with_indices_attrs(kernel_size, stride, padding, dilation):
    """MaxPool2dWithIndices attributes as (k, s, d, pads4): ``stride`` empty = the
    kernel; ``padding`` [p] or [pH, pW], symmetric."""
    k = pair(tuple(kernel_size), (1, 1))
    s = pair(tuple(stride), k)
    p = pair(tuple(padding), (0, 0))
    d = pair(tuple(dilation), (1, 1))
    return k, s, d, (p[0], p[1], p[0], p[1])


def onnx_attrs(kernel_shape, strides, pads, dilations):
    """MaxPool (ONNX-style) attributes as (k, s, d, pads4): ``strides`` empty = the
    kernel; ``pads`` of 0, 1, 2 or 4 values (4 = [top, left, bottom, right])."""
    k = pair(tuple(kernel_shape), (1, 1))
    return k, pair(tuple(strides), k), pair(tuple(dilations), (1, 1)), pads4(tuple(pads))


def out_shape(self_shape, g: Pool2dGeom) -> tuple[int, ...]:
    """[..., Ho, Wo] of pooling ``self_shape`` with geometry ``g``."""
    return tuple(self_shape[:-2]) + (g.ho, g.wo)


def infer_with_indices(self_shape, self_dtype, kernel_size, stride, padding, dilation, ceil_mode):
    """[(out shape, self dtype), (indices shape, INT64)] of MaxPool2dWithIndices."""
    k, s, d, p4 = with_indices_attrs(kernel_size, stride, padding, dilation)
    shape = out_shape(self_shape, make_geom(self_shape, k, s, d, p4, bool(ceil_mode)))
    return [(shape, self_dtype), (shape, aclDataType.ACL_INT64)]


def infer_max_pool(self_shape, self_dtype, kernel_shape, strides, pads, dilations, ceil_mode):
    """[(out shape, self dtype)] of MaxPool (ONNX-style)."""
    k, s, d, p4 = onnx_attrs(kernel_shape, strides, pads, dilations)
    return [(out_shape(self_shape, make_geom(self_shape, k, s, d, p4, bool(ceil_mode))), self_dtype)]
