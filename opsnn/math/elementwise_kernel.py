"""Kernel half of the elementwise family: the per-op table (numpy compute + vector
cost), the tile program and the functional body. Host logic lives in
:mod:`.elementwise_host`; entry points in :mod:`.elementwise` and
:mod:`opsnn.activation.unary`.

Tile program (one unit = one output element; :func:`~opsnn.base.tiling.vector_kernel`):
per UB tile, MTE2 copies each input in (a broadcast input is charged at its own size:
its data is read into UB once per tile at most), VECTOR streams
``(passes + casts + broadcasts) * compute_itemsize`` bytes per element, MTE3 copies
the result out. ``casts`` counts the inputs whose dtype differs from the compute
dtype plus one if ``out`` differs from it (CANN inserts l0 Cast kernels instead; here
they are fused into the op's kernel: an assumption that saves a GM round trip per
cast), ``broadcasts`` the inputs smaller than the output (a Brcb/broadcast pass).
UB per element: in + out double-buffered, plus an fp32 (compute-type) scratch per
input and output when casting, plus ``tmp`` scratch rows.

``passes`` is the number of Vector instructions per element the op decomposes into
with the Ascend C API (Add/Sub/Mul/Div/Relu/Sqrt/Select/Compare 1 each; axpy-style
alpha +1; Silu = Muls, Exp, Adds, Div; ...). Every pass count is an assumption.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from npu_sim import ChipConfig

from ..base.dtypes import to_numpy_dtype
from ..base.memview import tensor_view, write_out
from ..base.tensor import aclTensor
from ..base.tiling import vector_kernel
from ..common.contiguous import TensorRef

_SQRT1_2 = 1.0 / math.sqrt(2.0)
_GELU_K = math.sqrt(2.0 / math.pi)
_ERF = np.frompyfunc(math.erf, 1, 1)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _special(f, x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    return np.asarray(f(x.astype(np.float64)), dtype=np.float64).astype(x.dtype) if x.size else x.copy()


def erf_compute(x: np.ndarray) -> np.ndarray:
    """erf in ``x``'s dtype (evaluated in float64 and rounded once)."""
    return _special(_ERF, x)


def _add(a, b, alpha=1):
    if a.dtype == np.bool_:
        return a | (b & bool(alpha))
    return a + b if alpha == 1 else a + b * a.dtype.type(alpha)


def _sub(a, b, alpha=1):
    return a - b if alpha == 1 else a - b * a.dtype.type(alpha)


def _mul(a, b):
    return a & b if a.dtype == np.bool_ else a * b


def _relu(x):
    return np.maximum(x, x.dtype.type(0))


def _gelu(x):
    # x * Phi(x) with Phi = erfc(-x / sqrt 2) / 2: no cancellation in the left tail
    return x * x.dtype.type(0.5) * _special(_ERFC, -x * x.dtype.type(_SQRT1_2))


def _gelu_tanh(x):
    # 0.5 x (1 + tanh(u)) == x / (1 + exp(-2u)), the form that does not cancel for x << 0
    t = x.dtype.type
    u = t(2 * _GELU_K) * (x + t(0.044715) * x * x * x)
    return x / (t(1) + np.exp(-u))


def _silu(x):
    return x / (x.dtype.type(1) + np.exp(-x))


def _pow(a, b):
    if a.dtype.kind not in "iu":
        return np.power(a, b)
    neg = b < 0
    r = np.power(a, np.where(neg, 0, b).astype(a.dtype))
    if np.any(neg):  # integer to a negative power: 1, (-1)^|b|, else 0 (torch semantics)
        odd = (np.abs(b) % 2).astype(bool)
        small = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0)).astype(a.dtype)
        r = np.where(neg, small, r)
    return r


def _clamp(x, lo=None, hi=None):
    if lo is not None:
        x = np.maximum(x, lo)
    if hi is not None:
        x = np.minimum(x, hi)
    return x


@dataclass(frozen=True)
class EltwiseDef:
    """One row of the family table: the numpy compute (on compute-typed arrays,
    attributes as keywords), Vector passes per element and extra scratch rows."""

    compute: Callable[..., np.ndarray]
    passes: int
    tmp: int = 0


#: op type -> kernel definition (passes: module docstring; all assumptions)
ELTWISE: dict[str, EltwiseDef] = {
    "Add": EltwiseDef(_add, 1),
    "Sub": EltwiseDef(_sub, 1),
    "Mul": EltwiseDef(_mul, 1),
    "Div": EltwiseDef(lambda a, b: a / b, 1),
    "Relu": EltwiseDef(_relu, 1),
    "Gelu": EltwiseDef(_gelu, 14, 1),          # erf polynomial ~10 + 4 muls/adds
    "GeluV2Tanh": EltwiseDef(_gelu_tanh, 8, 1),  # mul, mul, muls, add, muls, exp, adds, div
    "Silu": EltwiseDef(_silu, 4, 1),
    "Erf": EltwiseDef(erf_compute, 10, 1),
    "Sqrt": EltwiseDef(np.sqrt, 1),
    "Pow": EltwiseDef(_pow, 3, 1),               # ln, mul, exp
    "Clamp": EltwiseDef(_clamp, 2),              # max, min (one pass less with one bound)
    "ClampHi": EltwiseDef(lambda x, hi: np.minimum(x, hi), 2),
    "Cast": EltwiseDef(lambda x: x, 1),          # one conversion pass (write_out converts)
    "Where": EltwiseDef(lambda c, a, b: np.where(c, a, b), 1),
    "Eq": EltwiseDef(lambda a, b: a == b, 2),    # compare + select into bool
    "Equal": EltwiseDef(lambda a, b: np.asarray(a.shape == b.shape and bool((a == b).all())), 3),  # cmp, sel, reduce
}


def _np_compute(ct) -> np.dtype:
    return to_numpy_dtype(ct)


def eltwise_spec(chip: ChipConfig, name: str, n: int, ins: Sequence[aclTensor], in_cts: Sequence, out: aclTensor,
                 out_ct, d: EltwiseDef, extra_passes: int, args: dict, *, out_units: bool = True):
    """Build the vector spec for ``n`` output elements. ``ins`` are the (contiguous)
    input metas, ``in_cts`` the dtype each is computed in, ``out_ct`` the result's
    compute dtype. Returns ``(spec, tiling data)``."""
    c_item = max([_np_compute(c).itemsize for c in list(in_cts) + [out_ct]])
    casts = sum(1 for t, c in zip(ins, in_cts) if t.data_type != c) + (1 if out.data_type != out_ct else 0)
    bcast = sum(1 for t in ins if t.numel < n)
    in_per = sum(t.numel * t.itemsize for t in ins) / n
    out_per = out.itemsize if out_units else 0.0
    vec_per = (d.passes + extra_passes + casts + bcast) * c_item
    tmp_per = ((len(ins) + 1) * c_item if casts else 0) + d.tmp * c_item
    total = int(sum(t.nbytes for t in ins) + (out.nbytes if out_units else out.itemsize))
    return vector_kernel(chip, name, n, in_per, out_per, vec_per, tmp_bytes_per_unit=tmp_per,
                         args=dict(args, bytes=total, casts=casts, broadcasts=bcast))


def eltwise_body(d: EltwiseDef, in_refs: Sequence[TensorRef], in_cts: Sequence, out_ref: TensorRef, attrs: dict):
    """``make_body(addrs, ws)`` for one elementwise kernel: read every input (slot or
    workspace), convert to its compute dtype, apply ``d.compute`` and store into the
    output (cast to its dtype; float -> integer truncates toward zero)."""
    np_cts = [_np_compute(c) for c in in_cts]
    metas = [r.meta for r in in_refs]
    out_meta = out_ref.meta

    def make(addrs, ws):
        in_addrs = [r.addr(addrs, ws) for r in in_refs]
        out_addr = out_ref.addr(addrs, ws)

        def body(mem):
            xs = [tensor_view(mem, a, m).astype(c, copy=False) for a, m, c in zip(in_addrs, metas, np_cts)]
            with np.errstate(all="ignore"):
                r = d.compute(*xs, **attrs)
                write_out(mem, out_addr, out_meta, np.broadcast_to(r, out_meta.view_shape))
        return body
    return make
