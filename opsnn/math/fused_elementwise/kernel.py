"""FusedElementwise kernel half: the tile program from the tiling data and the numpy
body that runs the chain with every intermediate kept "in UB" (never written to GM).

Tile program (:func:`~opsnn.base.vector_tiling.vector_spec`): per UB tile of ``u``
elements, MTE2 ``u * in_bytes_per_unit`` (the streamed inputs), VECTOR ``u *
vec_bytes_per_unit`` (every member's passes), MTE3 ``u * out_bytes_per_unit`` (the
one output); resident operands are a one-off load on each block's first tile.

Numerics: each step computes in its result's dtype exactly as the eager kernel of
that op does (the compute tables of :mod:`opsnn.math.elementwise` and
:mod:`opsnn.math.pointwise`), so graph and eager outputs agree bit for bit.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from ..elementwise.kernel import ELEMENTWISE_COMPUTE
from ..pointwise.kernel import POINTWISE_COMPUTE
from .infershape import step_dtypes
from .tiling_data import FusedElementwiseTilingData

_COMPUTE = {"Add": ELEMENTWISE_COMPUTE["Add"], "Sub": ELEMENTWISE_COMPUTE["Sub"], "Mul": ELEMENTWISE_COMPUTE["Mul"],
            "Div": ELEMENTWISE_COMPUTE["Div"], "Relu": ELEMENTWISE_COMPUTE["Relu"],
            "Sqrt": POINTWISE_COMPUTE["Sqrt"], "Erf": POINTWISE_COMPUTE["Erf"]}


def tile_program(td: FusedElementwiseTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV kernel spec of a fused chain tiled as ``td`` (module doc). ``args``:
    trace args (members, shapes); the GM bytes, live tiles and tiling struct are added."""
    return vector_spec("FusedElementwise", td.vector, td.in_bytes_per_unit, td.out_bytes_per_unit,
                       td.vec_bytes_per_unit, tiling_key=tiling_key, first_tile_mte2_bytes=td.resident_bytes,
                       args=dict(args, bytes=td.gm_bytes, live_tiles=td.live_tiles))


def run_chain(xs: list[np.ndarray], steps) -> np.ndarray:
    """The chain's result for input arrays ``xs`` (each step in its result dtype)."""
    dts = step_dtypes([x.dtype for x in xs], steps)
    vals = list(xs)
    with np.errstate(all="ignore"):
        for (op, operands, _attrs), dt in zip(steps, dts):
            a = [vals[o] for o in operands]
            r = a[0].astype(dt) if op == "Cast" else _COMPUTE[op](*a)
            vals.append(np.asarray(r).astype(dt, copy=False))
    return vals[-1]


def fused_body(in_ts, out_t, steps):
    """Body factory. Slots: every input, then the output."""
    def make(addrs, ws):
        def body(mem):
            if out_t.numel == 0:
                return
            xs = [tensor_view(mem, a, t) for a, t in zip(addrs, in_ts)]
            r = run_chain(xs, steps)
            write_out(mem, addrs[len(in_ts)], out_t, np.broadcast_to(r, out_t.view_shape))
        return body
    return make
