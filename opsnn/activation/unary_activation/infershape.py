"""Unary-activation shape inference: ``out`` has ``self``'s shape and dtype."""
from __future__ import annotations

from ...math.common.table import infer_unary

__all__ = ["infer_unary"]
