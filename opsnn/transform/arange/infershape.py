"""Arange shape inference: pure, no status codes."""
from __future__ import annotations

import math


def arange_length(start, end, step) -> int:
    """ceil((end - start) / step), at least 0."""
    return max(int(math.ceil((float(end) - float(start)) / float(step))), 0)


def infer_shape(start, end, step):
    """[(out shape, dtype)]: float32 unless all three are integers (then int64)."""
    from ...base.dtypes import aclDataType as T
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end, step))
    return [((arange_length(start, end, step),), T.ACL_INT64 if ints else T.ACL_FLOAT)]
