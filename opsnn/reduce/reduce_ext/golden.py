"""float64 / exact references of the extra reductions (tests only), written from the
definitions (identities for empty reductions: max -inf, min +inf, prod 1, sums 0)."""
from __future__ import annotations

import numpy as np


def _f(x):
    x = np.asarray(x)
    return x.astype(np.int64) if x.dtype.kind in "iub" else x.astype(np.float64)


def _lse(x, a, k):
    x = _f(x)
    m = np.max(x, axis=a, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0.0)
    r = np.log(np.sum(np.exp(x - m), axis=a, keepdims=True)) + m
    return r if k else np.squeeze(r, axis=a)


GOLDEN = {
    "Amax": lambda x, a, k: np.max(_f(x), axis=a, keepdims=k, initial=-np.inf if _f(x).dtype.kind == "f" else
                                   np.iinfo(np.int64).min),
    "Amin": lambda x, a, k: np.min(_f(x), axis=a, keepdims=k, initial=np.inf if _f(x).dtype.kind == "f" else
                                   np.iinfo(np.int64).max),
    "ReduceProd": lambda x, a, k: np.prod(_f(x), axis=a, keepdims=k),
    "ReduceSumSquare": lambda x, a, k: np.sum(_f(x) ** 2, axis=a, keepdims=k),
    "Norm": lambda x, a, k, p=2.0: (np.sum(np.abs(_f(x)) ** p, axis=a, keepdims=k)) ** (1.0 / p),
    "ReduceLogSum": lambda x, a, k: np.log(np.sum(_f(x), axis=a, keepdims=k)),
    "LogSumExp": _lse,
}
