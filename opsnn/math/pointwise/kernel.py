"""Pointwise-math kernel half: the numpy compute of each kernel (compute-typed
arrays, attributes as keywords); tile program and body builder from
:mod:`..common.kernel`.

Formulas: Erf erf(x) (float64-evaluated, rounded once); Sqrt sqrt(x) (NaN below 0);
Pow a ** b (integers exact; an integer to a negative power is 1 for base 1, +-1 for
base -1, else 0, as torch); Clamp min(max(x, lo), hi), either bound optional (hi
wins when lo > hi).
"""
from __future__ import annotations

import importlib
import math
import os
import sys
import types
from typing import Callable

import numpy as np

from ..common.kernel import make_body, special, tile_program  # noqa: F401  (the family's kernel half)

_ERF = np.frompyfunc(math.erf, 1, 1)
#: relative bound on |scipy.special.erf(c)(x) - math.erf(c)(x)| in float64 that
#: :func:`special_exact` relies on: 2^-40, about 4000 float64 ulp (measured: erf 3 ulp,
#: erfc 509 ulp at x ~ 25 where erfc ~ 1e-271; tests/perf/test_numeric_fast_paths.py)
_FAST_REL = 2.0 ** -40


#: below this many elements :func:`special_exact` runs ``py_ufunc`` alone while scipy's
#: compiled ufuncs are not yet loaded: loading them (:func:`scipy_ufuncs`) costs 20-45 ms
#: (the ``scipy`` top package and ``scipy.special._ufuncs``; measured on the 2-core
#: machine, bytecode cached), about what ``math.erf`` element by element (~0.15 us each)
#: spends on 2^17-2^18 elements; 2^16 elements cost about 10 ms.
SMALL_SPECIAL = 1 << 16


def scipy_ufuncs():
    """A module holding scipy's compiled special-function ufuncs (``erf``, ``erfc``...):
    ``scipy.special`` itself when it is already imported, else ``scipy.special._ufuncs``
    loaded without running ``scipy/special/__init__.py``. That ``__init__`` costs about
    0.3 s (most of it the array-API compatibility layer of
    ``scipy.special._support_alternative_backends``, ``python -X importtime``, scipy
    1.17) and adds nothing for numpy inputs: ``scipy.special.erf`` is the
    ``_ufuncs.erf`` ufunc object. The package is stood in for by a bare module with
    its ``__path__`` only while ``_ufuncs`` imports, then removed again, so a later
    ``import scipy.special`` runs the real ``__init__`` and reuses the loaded
    submodules (the same ufunc objects). Any failure falls back to
    ``import scipy.special``. Raises ImportError when scipy is not installed."""
    real = sys.modules.get("scipy.special")
    if real is not None:
        return real
    loaded = sys.modules.get("scipy.special._ufuncs")
    if loaded is not None:
        return loaded
    try:
        import scipy
        stub = types.ModuleType("scipy.special")
        stub.__path__ = [os.path.join(os.path.dirname(scipy.__file__), "special")]
        sys.modules["scipy.special"] = stub
        try:
            return importlib.import_module("scipy.special._ufuncs")
        finally:
            if sys.modules.get("scipy.special") is stub:
                del sys.modules["scipy.special"]
    except Exception:    # any other layout: the ordinary (slower) package import
        import scipy.special
        return scipy.special


def special_exact(py_ufunc, fast: "Callable[[np.ndarray], np.ndarray] | str", x: np.ndarray,
                  out: np.ndarray | None = None) -> np.ndarray:
    """:func:`special` (``py_ufunc``, a ``np.frompyfunc`` of a ``math`` function,
    evaluated in float64 and rounded once to ``x``'s dtype) with the same result,
    faster: ``fast`` (the vectorised float64 counterpart, e.g. ``scipy.special.erf``)
    is evaluated first, and only the elements whose interval ``fast(x) * (1 +- 2^-40)``
    does not round to one value of the dtype (near a rounding boundary, NaN) are
    recomputed by ``py_ufunc``. float64 (and non-float) inputs always take
    ``py_ufunc``: there the two differ in the last bits. ``fast`` may be the name of a
    ``scipy.special`` function, loaded on first use (:func:`scipy_ufuncs`), and only
    once an input reaches :data:`SMALL_SPECIAL` elements (smaller ones take ``py_ufunc``
    until then: the same result). ``out``: a C-contiguous array of ``x``'s shape and
    dtype to hold the result (it may be ``x`` itself: each element is read before it
    is written); it is returned. Without ``out``, a new array."""
    x = np.asarray(x)
    if not x.size or x.dtype.kind != "f" or x.dtype == np.float64:
        return _into(special(py_ufunc, x), out)
    if isinstance(fast, str):
        if x.size < SMALL_SPECIAL and "scipy.special" not in sys.modules \
                and "scipy.special._ufuncs" not in sys.modules:
            return _into(special(py_ufunc, x), out)
        fast = getattr(scipy_ufuncs(), fast)
    xf = x.reshape(-1)
    res, unsure, xu = _fast_rounded(fast, xf, x.dtype, None if out is None else out.reshape(-1))
    if unsure.size:   # NaN among them: silently NaN, as in special()
        with np.errstate(invalid="ignore"):
            res[unsure] = np.asarray(py_ufunc(xu.astype(np.float64)), dtype=np.float64).astype(x.dtype)
    return res.reshape(x.shape) if out is None else out


def _into(r: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    if out is None:
        return r
    out[...] = r
    return out


#: elements per chunk of :func:`_fast_rounded`: its four scratch buffers (two float64,
#: two of the dtype, <= 384 KiB) stay in a core's L2, where one pass per whole array
#: streams 8 arrays of 8n bytes through memory (measured 95 -> 69 ms for erf on
#: 1.57 M float32, MiniLM batch 8 x 128, on the 2-core machine)
CHUNK = 1 << 14


def _fast_rounded(fast, xf: np.ndarray, dtype, out: np.ndarray | None = None) \
        -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fast(xf) rounded to dtype, flat indices whose rounding is unsure, xf at those
    indices)`` for a 1-D float ``xf``, computed chunk by chunk (:data:`CHUNK`): each
    chunk is widened to float64, ``fast`` applied, the interval ``y * (1 +- 2^-40)``
    rounded at both ends (unsure where the ends differ; those inputs kept) and the
    result rounded into ``out`` (1-D, ``xf``'s size and ``dtype``; may be ``xf``
    itself, as a chunk is read before it is written; default a new array)."""
    n = xf.size
    if out is None:
        out = np.empty(n, dtype)
    c = min(CHUNK, n)
    y, t = np.empty(c), np.empty(c)
    lo, hi = np.empty(c, dtype), np.empty(c, dtype)
    is_ufunc = isinstance(fast, np.ufunc)
    unsure, inputs = [], []
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(0, n, c):
            k = min(c, n - i)
            yk, tk, lk, hk = y[:k], t[:k], lo[:k], hi[:k]
            yk[...] = xf[i:i + k]          # exact: every float dtype widens to float64
            if is_ufunc:
                fast(yk, out=yk)
            else:
                yk[...] = fast(yk)
            np.abs(yk, out=tk)
            tk *= _FAST_REL
            lk[...] = yk - tk
            np.add(yk, tk, out=tk)
            hk[...] = tk
            u = np.flatnonzero(lk != hk)
            if u.size:
                unsure.append(u + i)
                inputs.append(xf[i + u])   # before ``out`` (possibly ``xf``) is written
            out[i:i + k] = yk              # the one rounding, as astype
    if not unsure:
        return out, np.empty(0, np.intp), np.empty(0, xf.dtype)
    return out, np.concatenate(unsure), np.concatenate(inputs)


def erf_compute(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """erf in ``x``'s dtype (evaluated in float64 and rounded once; vectorised by
    scipy.special.erf where that gives the same rounded value, :func:`special_exact`).
    ``out``: as for :func:`special_exact` (may be ``x``)."""
    return special_exact(_ERF, "erf", x, out)


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


#: kernel -> numpy compute
POINTWISE_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Erf": erf_compute,
    "Sqrt": np.sqrt,
    "Pow": _pow,
    "Clamp": _clamp,
    "ClampHi": lambda x, hi: np.minimum(x, hi),
}
