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
from ..pointwise.kernel import POINTWISE_COMPUTE, erf_compute
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


#: steps that are one numpy ufunc of operands in the result dtype (the _COMPUTE entries
#: above reduce to these for float operands: Add/Sub with alpha 1, Relu max(x, 0)), so
#: they may write into a dead intermediate with ``out=`` and give the same bits
_UFUNC = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.true_divide, "Relu": np.maximum,
          "Sqrt": np.sqrt}


def _in_place_target(op, a, dt, shape, reusable):
    """The index in ``reusable`` (a list of (index, array)) of a dead chain-owned
    operand the step ``op`` can write into, or None: every operand float of the result
    dtype ``dt`` and the target already of the result ``shape``."""
    if op not in _UFUNC or dt.kind != "f" or any(x.dtype != dt for x in a):
        return None
    for k, x in reusable:
        if x.shape == shape:
            return k
    return None


#: the in-place switch of :func:`run_chain`'s ``out`` scratch and Erf step (False: the
#: reference path, where only the last step may write into ``out`` and Erf allocates)
OUT_AS_SCRATCH = True


def run_chain(xs: list[np.ndarray], steps, out: np.ndarray | None = None) -> np.ndarray:
    """The chain's result for input arrays ``xs`` (each step in its result dtype).
    Intermediates no later step reads are reused as the output of an elementwise step
    (``out=``; the same ufunc on the same dtypes, so the same bits). ``out``: when
    given (not overlapping any input), the last step may be written straight into it,
    and (``OUT_AS_SCRATCH``) so may an earlier step while ``out`` holds no value a later
    step reads; an Erf step writes into a dead intermediate or ``out`` the same way
    (``erf_compute(x, out=)``: each element read before it is written). The return
    value is then ``out`` itself or an array still to be stored."""
    dts = step_dtypes([x.dtype for x in xs], steps)
    vals = list(xs)
    n_in = len(xs)
    last_use = {}
    for k, (_op, operands, _attrs) in enumerate(steps):
        for o in operands:
            last_use[o] = k
    owned = set()   # indices of chain-made arrays that own their memory
    held = None     # index of the value ``out`` holds (OUT_AS_SCRATCH), None while it holds none
    scratch = OUT_AS_SCRATCH and out is not None and out.flags.c_contiguous
    with np.errstate(all="ignore"):
        for k, ((op, operands, _attrs), dt) in enumerate(zip(steps, dts)):
            a = [vals[o] for o in operands]
            r = None
            out_free = scratch and (held is None or last_use.get(held, -1) <= k)
            if op != "Cast" and op in _UFUNC:
                shape = np.broadcast_shapes(*[x.shape for x in a])
                dead = [(o, vals[o]) for o in dict.fromkeys(operands) if o in owned and last_use[o] == k]
                fits = out is not None and out.dtype == dt and out.shape == shape and dt.kind == "f" \
                    and all(x.dtype == dt for x in a)
                if k == len(steps) - 1 and fits:
                    dead = [(-1, out)]
                elif fits and out_free:
                    dead.append((-1, out))
                t = _in_place_target(op, a, dt, shape, dead)
                if t is not None:
                    target = out if t == -1 else vals[t]
                    r = _UFUNC[op](*a, dt.type(0), out=target) if op == "Relu" else _UFUNC[op](*a, out=target)
            elif op == "Erf" and OUT_AS_SCRATCH and dt.kind == "f" and a[0].dtype == dt:
                target = next((vals[o] for o in operands if o in owned and last_use[o] == k
                               and vals[o].flags.c_contiguous), None)
                if target is None and out_free and out.dtype == dt and out.shape == a[0].shape:
                    target = out
                if target is not None:
                    r = erf_compute(a[0], out=target)
            if r is not None and scratch and r is out:
                held = n_in + k
            if r is None:
                r = a[0].astype(dt) if op == "Cast" else _COMPUTE[op](*a)
                r = np.asarray(r).astype(dt, copy=False)
                if isinstance(r, np.ndarray) and r.base is None and all(r is not v for v in vals):
                    owned.add(n_in + k)
            else:
                owned.add(n_in + k)
            vals.append(r)
    return vals[-1]


def fused_body(in_ts, out_t, steps):
    """Body factory. Slots: every input, then the output."""
    def make(addrs, ws):
        def body(mem):
            if out_t.numel == 0:
                return
            xs = [tensor_view(mem, a, t, writable=False) for a, t in zip(addrs, in_ts)]
            o = tensor_view(mem, addrs[len(in_ts)], out_t)
            direct = o if not any(np.may_share_memory(o, x) for x in xs) else None
            r = run_chain(xs, steps, direct)
            if r is not o:
                write_out(mem, addrs[len(in_ts)], out_t, np.broadcast_to(r, out_t.view_shape))
        return body
    return make
