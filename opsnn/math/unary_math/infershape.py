"""Unary-math shape inference: ``out`` has ``self``'s shape; its dtype ``self``'s,
FLOAT for an integral input of a float op, BOOL for IsNan/IsInf."""
from __future__ import annotations

from ..common.table import infer_unary

__all__ = ["infer_unary"]
