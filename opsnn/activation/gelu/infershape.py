"""Gelu/Silu shape inference: the output has the input's shape and dtype."""
from __future__ import annotations

from ...math.common.infershape import infer_same

__all__ = ["infer_same"]
