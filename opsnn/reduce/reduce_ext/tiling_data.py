"""Tiling struct and cost table of the extra reductions (both halves read them).

The struct is the reduce family's :class:`~..common.tiling_data.ReduceTilingData`
with a per-element Vector pass count instead of its single add. Passes per element
(assumptions: the Ascend C instructions of the formula, data read once through UB):
Max, Min, Prod 1 (Max/Min/Mul into the accumulator); SumSquare and L1/L2 norms 2
(Mul or Abs, Add); a general p-norm 5 (Abs, Ln, Muls, Exp, Add); LogSum 1 (Add; the
Ln on the outputs is not counted); LogSumExp 4 (Max, Sub, Exp, Add).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..common.tiling_data import ReduceTilingData, ReduceTilingKey  # noqa: F401

#: kernel -> Vector passes per input element
REDUCE_EXT_PASSES: dict[str, int] = {"Max": 1, "Min": 1, "Prod": 1, "SumSquare": 2, "L1": 2, "L2": 2, "Lp": 5,
                                     "LogSum": 1, "LogSumExp": 4}


@dataclass(frozen=True)
class ReduceExtTilingData(ReduceTilingData):
    """:class:`ReduceTilingData` plus ``passes``, the Vector instructions per element."""

    passes: int = 1

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per unit: (MTE2 in, MTE3 out, VECTOR operand) bytes; ``passes`` (+ a cast)
        fp32 operations per input element (fill: as the base struct)."""
        if self.strategy == "fill":
            return super().unit_bytes()
        return self.itemsize, self.out_numel * self.out_itemsize / self.numel, 4 * (self.passes + self.cast)
