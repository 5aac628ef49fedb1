"""Vectorised special functions give the bits of the ``math``-based reference.

``special_exact(frompyfunc(math.erf), scipy.special.erf, x)`` must equal
``special(frompyfunc(math.erf), x)`` (float64 evaluation by ``math``, rounded once)
for every input, also near rounding boundaries, at +-0, +-inf, NaN and in the
tails; the same for erfc (Gelu). Also checks the relative bound the fast path
relies on.
"""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
import scipy.special as sp

from opsnn.math.common.kernel import special
from opsnn.math.pointwise.kernel import _FAST_REL, special_exact

_PY = {"erf": np.frompyfunc(math.erf, 1, 1), "erfc": np.frompyfunc(math.erfc, 1, 1)}
_FAST = {"erf": sp.erf, "erfc": sp.erfc}


def _inputs(dtype, n=200_000):
    rng = np.random.default_rng(7)
    edge = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 3.9, 4.0, 10.0, -10.0, 30.0])
    x = np.concatenate([rng.standard_normal(n) * 3, rng.uniform(-12, 12, n // 2), rng.standard_normal(n // 4) * 1e-3,
                        edge]).astype(dtype)
    if np.dtype(dtype).itemsize == 2:   # every 16-bit pattern
        x = np.concatenate([x, np.arange(1 << 16, dtype=np.uint16).view(dtype)])
    return x


def _same(a, b) -> bool:
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.dtype == b.dtype and bool(np.all((a64 == b64) & (np.signbit(a64) == np.signbit(b64))
                                              | (np.isnan(a64) & np.isnan(b64))))


@pytest.mark.parametrize("fn", ["erf", "erfc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_special_exact_equals_math(fn, dtype):
    x = _inputs(dtype)
    assert _same(special_exact(_PY[fn], _FAST[fn], x), special(_PY[fn], x))
    x2 = x[:64].reshape(8, 8)
    assert _same(special_exact(_PY[fn], _FAST[fn], x2), special(_PY[fn], x2))
    assert special_exact(_PY[fn], _FAST[fn], x[:0]).size == 0


@pytest.mark.parametrize("fn", ["erf", "erfc"])
def test_scipy_within_the_bound(fn):
    x = _inputs(np.float32).astype(np.float64)
    x = x[np.isfinite(x)]
    ref = np.asarray(_PY[fn](x), np.float64)
    got = _FAST[fn](x)
    big = np.abs(ref) > 1e-280
    assert np.all(np.abs(got[big] - ref[big]) <= np.abs(ref[big]) * _FAST_REL)


@pytest.mark.parametrize("fn", ["erf", "erfc"])
@pytest.mark.parametrize("n", [100, 1 << 17])   # below and above SMALL_SPECIAL
def test_special_exact_by_name_equals_math(fn, n):
    """The scipy function named as a string (imported on first use, skipped for small
    inputs while scipy.special is not imported) gives the same bits."""
    x = _inputs(np.float32, n)[:n]
    assert _same(special_exact(_PY[fn], fn, x), special(_PY[fn], x))
