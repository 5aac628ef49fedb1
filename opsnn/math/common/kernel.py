"""Kernel half shared by the elementwise families: the tile program from the tiling
data, the functional body, and float64-evaluated special functions.

Tile program (:func:`~opsnn.base.vector_tiling.vector_spec`): per UB tile of ``u``
elements, MTE2 ``u * in_bytes_per_unit``, VECTOR ``u * vec_bytes_per_unit`` operand
bytes, MTE3 ``u * out_bytes_per_unit``, double-buffered (bytes per element: the
module docstring of :mod:`.tiling`). The body reads every input, converts it to its
compute dtype, applies the family table's numpy compute and stores the result cast
to ``out``'s dtype (float -> integer truncates toward zero).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from npu_sim.program import KernelSpec

from ...base.dtypes import to_numpy_dtype
from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from ...common.contiguous import TensorRef
from .tiling_data import EltwiseTilingData


def tile_program(td: EltwiseTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV kernel spec of an elementwise kernel tiled as ``td``. ``args``: trace
    args (shapes, dtypes, attributes); the useful GM bytes and the fused cast and
    broadcast counts are added here, then the tiling struct."""
    return vector_spec(td.name, td.vector, td.in_bytes_per_unit, td.out_bytes_per_unit, td.vec_bytes_per_unit,
                       tiling_key=tiling_key, args=dict(args, bytes=td.gm_bytes, casts=td.casts,
                                                        broadcasts=td.broadcasts))


def special(f, x: np.ndarray) -> np.ndarray:
    """Elementwise ``f`` (a numpy ufunc of Python floats, e.g. from ``math.erf``)
    evaluated in float64 and rounded once to ``x``'s dtype. NaN in, NaN out, silently
    (numpy would warn "invalid value" for the object loop and the cast back)."""
    x = np.asarray(x)
    if not x.size:
        return x.copy()
    with np.errstate(invalid="ignore"):
        return np.asarray(f(x.astype(np.float64)), dtype=np.float64).astype(x.dtype)


def make_body(compute: Callable[..., np.ndarray], in_refs: Sequence[TensorRef], in_cts: Sequence,
              out_ref: TensorRef, attrs: dict):
    """``make_body(addrs, ws)`` for one elementwise kernel: read every input (slot or
    workspace), convert to its compute dtype, apply ``compute`` (attributes as
    keywords) and store into the output, broadcast to its view shape."""
    np_cts = [to_numpy_dtype(c) for c in in_cts]
    metas = [r.meta for r in in_refs]
    out_meta = out_ref.meta

    def make(addrs, ws):
        in_addrs = [r.addr(addrs, ws) for r in in_refs]
        out_addr = out_ref.addr(addrs, ws)

        def body(mem):
            xs = [tensor_view(mem, a, m).astype(c, copy=False) for a, m, c in zip(in_addrs, metas, np_cts)]
            with np.errstate(all="ignore"):
                r = compute(*xs, **attrs)
                write_out(mem, out_addr, out_meta, np.broadcast_to(r, out_meta.view_shape))
        return body
    return make
