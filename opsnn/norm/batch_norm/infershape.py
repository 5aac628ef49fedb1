"""BatchNorm shape inference: ``output`` has the input's shape and dtype; the channel
count is dim 1."""
from __future__ import annotations


def infer_shape(input_shape: tuple[int, ...], input_dtype, training: bool = False):
    """[(output shape, output dtype)] = [(input shape, input dtype)]; with ``training``
    also saveMean and saveInvstd, [C] in the input's dtype."""
    out = [(tuple(input_shape), input_dtype)]
    if training:
        c = (int(input_shape[1]),) if len(input_shape) >= 2 else (1,)
        out += [(c, input_dtype), (c, input_dtype)]
    return out
