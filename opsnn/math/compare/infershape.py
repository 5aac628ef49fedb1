"""Comparison shape inference: the broadcast shape, BOOL."""
from __future__ import annotations

from ..common.table import infer_binary_row

__all__ = ["infer_binary_row"]
