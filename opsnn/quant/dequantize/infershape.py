"""DequantizeLinear shape inference: out has x's shape, in the scale's dtype (ONNX)."""
from __future__ import annotations


def infer_shape(x_shape, scale_dtype):
    """[(x's shape, scale's dtype)]."""
    return [(tuple(x_shape), scale_dtype)]
