"""Logical/bitwise shape inference: the broadcast shape; BOOL for the logical ops,
the promoted dtype for the bitwise ones."""
from __future__ import annotations

from ..common.table import infer_binary_row, infer_unary

__all__ = ["infer_binary_row", "infer_unary"]
