"""Elementwise-arithmetic tiling: a pure function of (chip, operand shapes and
dtypes, compute dtypes, kernel); no device. One unit is one output element; the
per-element bytes and the UB budget are those of :mod:`..common.tiling`, the pass
counts those of :data:`.tiling_data.ELEMENTWISE_COSTS`.

``elementwise_tiling(chip, kernel, ins, in_cts, out, out_ct, *, name=None, n=None,
extra_passes=0, out_units=True) -> TilingResult`` with ``ins`` / ``out`` given as
(shape, aclDataType) pairs, ``kernel`` one of Add, Sub, Mul, Div, Relu.
"""
from __future__ import annotations

from ..common.tiling import family_tiling
from .tiling_data import ELEMENTWISE_COSTS

elementwise_tiling = family_tiling("elementwise", ELEMENTWISE_COSTS)
