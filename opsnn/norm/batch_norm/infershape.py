"""BatchNorm shape inference: ``output`` has the input's shape and dtype; the channel
count is dim 1."""
from __future__ import annotations


def infer_shape(input_shape: tuple[int, ...], input_dtype):
    """[(output shape, output dtype)] = [(input shape, input dtype)]."""
    return [(tuple(input_shape), input_dtype)]
