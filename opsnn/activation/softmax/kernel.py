"""Softmax kernel half: the tile program from the tiling data, and the numpy body.

Formula (numerically stable): y = exp(x - max(x)) / sum(exp(x - max(x))) along ``dim``;
fp16/bf16 are computed in fp32 and rounded once.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .tiling_data import SoftmaxTilingData


def tile_program(td: SoftmaxTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV kernel spec of a Softmax tiled as ``td``: per unit, MTE2 in, VECTOR
    passes, MTE3 out (:meth:`SoftmaxTilingData.unit_bytes`). ``args``: trace args
    (shapes, dtype, dim); the strategy, chunking and useful GM bytes are added here."""
    i, o, v, _ = td.unit_bytes()
    item, rows, d = td.itemsize, td.rows, td.row_elems
    if td.strategy == "one_pass":
        args = dict(args, strategy="one_pass", bytes=2 * rows * d * item)
    else:
        args = dict(args, strategy="multi_pass", chunk_elems=td.chunk_elems, chunks_per_row=td.chunks_per_row,
                    bytes=4 * rows * d * item)
    return vector_spec("Softmax", td.vector, i, o, v, tiling_key=tiling_key, args=args)


def softmax_compute(x: np.ndarray, axis: int) -> np.ndarray:
    """Stable softmax along ``axis`` in fp32 (fp64 stays fp64)."""
    ct = np.float64 if x.dtype == np.float64 else np.float32
    x = np.asarray(x).astype(ct, copy=False)
    if x.ndim == 0:
        x = x.reshape(1)
        axis = 0
    m = x.max(axis=axis, keepdims=True)
    e = np.exp(x - m)
    e /= e.sum(axis=axis, keepdims=True)
    return e


def make_body(x_t, out_t, axis: int):
    """Body factory: slot 0 is self, slot 1 out (tensor metadata only, no address)."""
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            write_out(mem, addrs[1], out_t, softmax_compute(x, axis).reshape(out_t.view_shape))
        return body
    return make
