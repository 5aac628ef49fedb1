"""Elementwise-arithmetic shape inference: ``out`` is the broadcast of the operands
(a scalar ``other`` keeps ``self``'s shape), its dtype the promoted one (Relu: as
``self``)."""
from __future__ import annotations

from ..common.infershape import infer_binary, infer_same  # noqa: F401

__all__ = ["infer_binary", "infer_same"]
