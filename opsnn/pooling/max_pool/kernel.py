"""MaxPool / MaxPool2dWithIndices kernel half: the numpy body (the tile program is the
family's, :func:`opsnn.pooling.common.kernel.tile_program`).

Formula: out = max over each window's in-bounds taps (padding is -inf); indices =
the flat ``h * W + w`` of the first maximum in kernel row-major order within the
plane (torch's convention).
"""
from __future__ import annotations

from ...base.memview import tensor_view, write_out
from ..common.compute import max_pool_compute
from ..common.geometry import Pool2dGeom


def max_pool_body(x_t, out_t, idx_t, g: Pool2dGeom):
    """Body factory. Slots: self, out[, indices] (``idx_t`` None: values only)."""
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            val, idx = max_pool_compute(x, g, idx_t is not None)
            write_out(mem, addrs[1], out_t, val.reshape(out_t.view_shape))
            if idx_t is not None:
                write_out(mem, addrs[2], idx_t, idx.reshape(idx_t.view_shape))
        return body
    return make
