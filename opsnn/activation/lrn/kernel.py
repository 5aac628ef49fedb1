"""LRN kernel half: the tile program from the tiling data, and the numpy body.

Formula (ONNX LRN-13): for channel c,
  square_sum[n, c, ...] = sum of x[n, i, ...]^2 over
      max(0, c - floor((size-1)/2)) <= i <= min(C-1, c + ceil((size-1)/2))
  y = x / (bias + alpha / size * square_sum) ^ beta
computed in fp32 (fp64 stays fp64).
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .tiling_data import LrnTilingData


def tile_program(td: LrnTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV kernel spec of an LRN tiled as ``td``: per unit MTE2 in (with halo),
    VECTOR passes, MTE3 out (:meth:`LrnTilingData.unit_bytes`). ``args``: trace args
    (shapes, dtype, attributes); useful GM bytes, unit channels and strategy are added."""
    i, o, v, _ = td.unit_bytes()
    tin, tout, _ = td.totals()
    return vector_spec("Lrn", td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, bytes=int(tin + tout), unit_channels=td.unit_channels, strategy=td.strategy))


def lrn_compute(x: np.ndarray, size: int, alpha: float, beta: float, bias: float) -> np.ndarray:
    """ONNX LRN across axis 1, in fp32 (fp64 stays fp64)."""
    ct = np.float64 if x.dtype == np.float64 else np.float32
    x = np.asarray(x).astype(ct, copy=False)
    c = x.shape[1]
    before = (size - 1) // 2
    after = size - 1 - before                      # ceil((size - 1) / 2)
    sq = np.square(x)
    pad = [(0, 0)] * x.ndim
    pad[1] = (before, after)
    sqp = np.pad(sq, pad)
    if size <= 16:
        ss = sqp[:, 0:c].copy()
        for k in range(1, size):
            ss += sqp[:, k:k + c]
    else:  # long windows: difference of a running sum (fp64 keeps it exact enough)
        cs = np.cumsum(sqp, axis=1, dtype=np.float64)
        cs = np.concatenate([np.zeros_like(cs[:, :1]), cs], axis=1)
        ss = (cs[:, size:size + c] - cs[:, 0:c]).astype(ct)
    return x / np.power(ct(bias) + ct(alpha / size) * ss, ct(beta))


def make_body(x_t, out_t, size, alpha, beta, bias):
    """Body factory: slot 0 is self, slot 1 out."""
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            write_out(mem, addrs[1], out_t, lrn_compute(x, size, alpha, beta, bias))
        return body
    return make
