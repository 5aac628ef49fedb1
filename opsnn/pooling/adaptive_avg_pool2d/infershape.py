"""AdaptiveAvgPool2d shape inference: out is [..., Ho, Wo] = [..., *outputSize].
No status codes here."""
from __future__ import annotations

from ..common.geometry import pair


def output_size(values) -> tuple[int, int]:
    """``outputSize`` as (Ho, Wo): one value means a square output."""
    return pair(tuple(values), (1, 1))


def infer_shape(self_shape, self_dtype, output_size_values):
    """[(out shape, self dtype)]."""
    return [(tuple(self_shape[:-2]) + output_size(output_size_values), self_dtype)]
