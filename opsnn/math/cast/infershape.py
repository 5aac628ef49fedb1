"""Cast shape inference: ``out`` has ``self``'s shape and dtype ``dtype``."""
from __future__ import annotations

from ...base.dtypes import aclDataType as T


def infer_cast(self, dtype):
    """[(self shape, aclDataType(dtype))] for ``self`` = (shape, dtype)."""
    return [(tuple(self[0]), T(int(dtype)))]
