"""Kernel half of the extra reductions: tile program :func:`..common.kernel.tile_program`,
and the numpy body. Floats accumulate in float32 (16-bit inputs cast up; float64 in
float64) and round once to ``out``; integers accumulate in int64 and wrap to ``out``'s
width. An empty reduction writes the identity (Max -inf or the integer minimum, Min
+inf or the maximum, Prod 1, the sums 0, LogSum/LogSumExp -inf).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ...base.memview import tensor_view, write_out
from ..common.kernel import tile_program  # noqa: F401  (the family's tile program)


def _lp(x, axes, keep, p):
    a = np.abs(x)
    if p == 1:
        return np.sum(a, axis=axes, keepdims=keep)
    if p == 2:
        return np.sqrt(np.sum(a * a, axis=axes, keepdims=keep))
    if np.isinf(p):
        return np.max(a, axis=axes, keepdims=keep, initial=0) if p > 0 else np.min(a, axis=axes, keepdims=keep,
                                                                                   initial=np.inf)
    if p == 0:
        return np.sum(a != 0, axis=axes, keepdims=keep).astype(x.dtype)
    return np.power(np.sum(np.power(a, x.dtype.type(p)), axis=axes, keepdims=keep), x.dtype.type(1 / p))


def _logsumexp(x, axes, keep):
    m = np.max(x, axis=axes, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, x.dtype.type(0))
    s = np.sum(np.exp(x - m), axis=axes, keepdims=True)
    r = np.log(s) + m
    return r if keep else np.squeeze(r, axis=axes)


def _ident_max(x):
    return -np.inf if x.dtype.kind == "f" else (np.iinfo(x.dtype).min if x.dtype.kind in "iu" else False)


def _ident_min(x):
    return np.inf if x.dtype.kind == "f" else (np.iinfo(x.dtype).max if x.dtype.kind in "iu" else True)


#: kernel -> fn(x, axes, keep, **attrs) on compute-typed x
REDUCE_EXT_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Max": lambda x, a, k: np.max(x, axis=a, keepdims=k, initial=_ident_max(x)),
    "Min": lambda x, a, k: np.min(x, axis=a, keepdims=k, initial=_ident_min(x)),
    "Prod": lambda x, a, k: np.prod(x, axis=a, keepdims=k),
    "SumSquare": lambda x, a, k: np.sum(x * x, axis=a, keepdims=k),
    "Lp": lambda x, a, k, p: _lp(x, a, k, p),
    "LogSum": lambda x, a, k: np.log(np.sum(x, axis=a, keepdims=k)),
    "LogSumExp": _logsumexp,
}


def compute_np_dtype(in_dt: np.dtype, out_dt: np.dtype) -> np.dtype:
    """The accumulator: float64 for a float64 out, float32 for other floats, int64
    for integers, bool for a bool Max/Min."""
    if out_dt.kind == "b":
        return np.dtype(np.bool_)
    if out_dt.kind in "iu":
        return np.dtype(np.int64)
    return np.dtype(np.float64) if out_dt == np.float64 else np.dtype(np.float32)


def reduce_ext_body(kernel: str, x_ref, out_ref, axes: tuple[int, ...], keep: bool, attrs: dict):
    """Body factory: out = ``kernel`` of self over ``axes`` (TensorRefs from the plan)."""
    x_t, out_t = x_ref.meta, out_ref.meta
    f = REDUCE_EXT_COMPUTE[kernel]
    ct = compute_np_dtype(x_t.np_dtype, out_t.np_dtype)

    def make(addrs, ws):
        xa, oa = x_ref.addr(addrs, ws), out_ref.addr(addrs, ws)

        def body(mem):
            x = tensor_view(mem, xa, x_t).astype(ct)
            with np.errstate(all="ignore"):
                r = f(x, axes, keep, **attrs)
            write_out(mem, oa, out_t, np.asarray(r).reshape(out_t.view_shape))
        return body
    return make
