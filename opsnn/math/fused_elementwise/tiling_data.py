"""FusedElementwise tiling struct, key and the member-op table (both halves read them).

A chain is a tuple of steps ``(op, operands, attrs)``: ``op`` a key of
:data:`FUSED_OPS`; ``operands`` indices, below ``n_inputs`` an external input, else
the result of step ``index - n_inputs``; ``attrs`` a tuple of (name, value) pairs
(Cast: ``("to", dtype name)``). The last step's result is the output.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData

Step = tuple[str, tuple[int, ...], tuple]


@dataclass(frozen=True)
class FusedOp:
    """One member op: operand count, Vector instructions per element and extra
    scratch rows (the same assumptions as the eager kernels' cost tables)."""

    arity: int
    passes: int
    tmp: int = 0


#: member op -> cost row (Add/Sub/Mul/Div/Relu/Sqrt/Cast 1 instruction; Erf 10 + 1 row, as aclnnErf)
FUSED_OPS: dict[str, FusedOp] = {
    "Add": FusedOp(2, 1), "Sub": FusedOp(2, 1), "Mul": FusedOp(2, 1), "Div": FusedOp(2, 1),
    "Relu": FusedOp(1, 1), "Sqrt": FusedOp(1, 1), "Erf": FusedOp(1, 10, 1), "Cast": FusedOp(1, 1),
}

#: live UB rows (streamed inputs + live intermediates + output) one fused kernel may
#: hold. [A] With 8 rows double-buffered, a 192 KiB UB still gives fp32 tiles of
#: ~3K elements (12 KiB transfers), near the ~16 KB DMA needs for full bandwidth
#: (cost.py's small-transfer note); longer chains are cut by the graph pass.
MAX_LIVE_TILES = 8


class FusedElementwiseTilingKey(IntEnum):
    """One kernel variant: UB tiles of output elements streamed through the chain."""

    STREAM = 0


@dataclass(frozen=True)
class FusedElementwiseTilingData:
    """How phase 1 tiled a fused chain over ``n`` output elements (one unit each).

    steps: the chain. streamed / resident: input indices read per tile / loaded into
    UB once per block (small broadcast operands). in/out/vec/tmp_bytes_per_unit: MTE2,
    MTE3, VECTOR and scratch bytes per element. resident_bytes: one-off MTE2 bytes per
    block. live_tiles: UB rows alive at once. gm_bytes: useful GM bytes. vector: the
    UB-streaming struct.
    """

    steps: tuple
    n: int
    streamed: tuple[int, ...]
    resident: tuple[int, ...]
    in_bytes_per_unit: float
    out_bytes_per_unit: float
    vec_bytes_per_unit: float
    tmp_bytes_per_unit: float
    resident_bytes: int
    live_tiles: int
    gm_bytes: int
    vector: VectorTilingData
