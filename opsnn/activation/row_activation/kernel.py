"""Row-activation kernel half: the tile program and the numpy body.

LogSoftmax: x - max - log(sum(exp(x - max))) along ``dim`` (fp32, fp64 for DOUBLE;
rounded once). Hardmax: 1 at the first maximum along ``dim``, 0 elsewhere (a NaN
row: the first NaN, as numpy's argmax).
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .tiling_data import RowTilingData


def tile_program(name: str, td: RowTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV spec of a row activation tiled as ``td`` (:meth:`RowTilingData.unit_bytes`)."""
    i, o, v = td.unit_bytes()
    return vector_spec(name, td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, strategy=td.strategy, reads=td.reads, bytes=td.gm_bytes))


def _log_softmax(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, x.dtype.type(0))
    z = x - m
    return z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))


def _hardmax(x, axis):
    idx = np.expand_dims(np.argmax(x, axis=axis), axis)
    out = np.zeros_like(x)
    np.put_along_axis(out, idx, x.dtype.type(1), axis=axis)
    return out


ROW_COMPUTE = {"LogSoftmax": _log_softmax, "Hardmax": _hardmax}


def make_body(kernel: str, x_ref, out_ref, axis: int):
    """Body factory (TensorRefs from the plan)."""
    f = ROW_COMPUTE[kernel]
    x_t, out_t = x_ref.meta, out_ref.meta

    def make(addrs, ws):
        xa, oa = x_ref.addr(addrs, ws), out_ref.addr(addrs, ws)

        def body(mem):
            x = tensor_view(mem, xa, x_t)
            ct = np.float64 if x.dtype == np.float64 else np.float32
            x = x.astype(ct).reshape(x.shape or (1,))
            with np.errstate(all="ignore"):
                r = f(x, axis)
            write_out(mem, oa, out_t, r.reshape(out_t.view_shape))
        return body
    return make
