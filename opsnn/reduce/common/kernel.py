"""Reduce kernel half: the tile program from the tiling data, and the numpy body.

The vector unit accumulates float16/bfloat16 in fp32 (cast in, add, cast out) and
float32 in fp32; integers accumulate exactly (int64 here, which wraps to the output
width the same way an in-width accumulator does).
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .tiling_data import ReduceTilingData


def tile_program(name: str, td: ReduceTilingData, args: dict, tiling_key: int = 0) -> KernelSpec:
    """The AIV spec (label ``name``) of a reduction tiled as ``td``
    (:meth:`ReduceTilingData.unit_bytes`). ``args``: trace args (shapes, dtypes, dims,
    pattern); the strategy and useful GM bytes are added here."""
    i, o, v = td.unit_bytes()
    return vector_spec(name, td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, strategy=td.strategy, bytes=td.gm_bytes))


def reduce_body(x_ref, out_ref, axes: tuple[int, ...], keep_dim: bool, mean: bool):
    """Body factory: out = sum (or mean) of self cast to out's dtype over ``axes``.
    ``x_ref`` / ``out_ref``: TensorRefs (slot or workspace copy; opsnn.common.contiguous)."""
    x_t, out_t = x_ref.meta, out_ref.meta
    od = out_t.np_dtype
    n = int(np.prod([x_t.view_shape[a] for a in axes], dtype=np.int64)) if axes else 1

    def make(addrs, ws):
        xa, oa = x_ref.addr(addrs, ws), out_ref.addr(addrs, ws)

        def body(mem):
            x = tensor_view(mem, xa, x_t)
            if od.kind in "iu":
                r = np.sum(x.astype(od).astype(np.int64), axis=axes, keepdims=keep_dim)
            else:
                x32 = x.astype(od).astype(np.float32)  # self is cast to ``dtype`` first
                r = np.sum(x32, axis=axes, keepdims=keep_dim, dtype=np.float32)
                if mean:
                    with np.errstate(invalid="ignore", divide="ignore"):
                        r = r / np.float32(n) if n else np.full_like(r, np.nan)
            write_out(mem, oa, out_t, np.asarray(r).reshape(out_t.view_shape))
        return body
    return make
