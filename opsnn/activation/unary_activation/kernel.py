"""Unary-activation kernel half: the numpy compute of each kernel on compute-typed
arrays (float32 for 16-bit inputs), scalar attributes as keywords by their CANN
names; tile program and body builder from :mod:`opsnn.math.common.kernel`.

Formulas (CANN's, aclnn docs of each op):
Sigmoid 1 / (1 + e^-x); Tanh; LeakyRelu x > 0 ? x : s x; Elu x > 0 ? scale x :
alpha scale (e^(x inputScale) - 1); Selu Elu with alpha 1.6732632423543772,
scale 1.0507009873554805; Celu max(0, x) + min(0, alpha (e^(x / alpha) - 1));
Softplus beta x > threshold ? x : log(1 + e^(beta x)) / beta; Softsign x / (1 + |x|);
Hardsigmoid clamp(alpha x + beta, 0, 1) (aclnnHardsigmoid: alpha 1/6, beta 1/2);
Hardswish x hardsigmoid(x); Mish x tanh(softplus(x)); Swish x sigmoid(beta x);
Threshold x > threshold ? x : value; Hardshrink |x| > lambd ? x : 0; Shrink
x < -lambd ? x + bias : x > lambd ? x - bias : 0 (Softshrink: bias = lambd).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ...math.common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)

SELU_ALPHA = 1.6732632423543772
SELU_SCALE = 1.0507009873554805


def _t(x, v):
    return x.dtype.type(v)


def _sigmoid(x, beta=1.0):
    with np.errstate(over="ignore"):
        return _t(x, 1) / (_t(x, 1) + np.exp(-(x * _t(x, beta))))


def _elu(x, alpha=1.0, scale=1.0, inputScale=1.0):  # noqa: N803
    neg = _t(x, alpha) * _t(x, scale) * np.expm1(np.minimum(x, _t(x, 0)) * _t(x, inputScale))
    return np.where(x > 0, _t(x, scale) * x, neg)


def _celu(x, alpha=1.0):
    return np.maximum(x, _t(x, 0)) + np.minimum(_t(x, 0), _t(x, alpha) * np.expm1(np.minimum(x, _t(x, 0))
                                                                                 / _t(x, alpha)))


def _softplus(x, beta=1.0, threshold=20.0):
    bx = x * _t(x, beta)
    return np.where(bx > _t(x, threshold), x, np.logaddexp(_t(x, 0), bx) / _t(x, beta))


def _hardsigmoid(x, alpha=1 / 6, beta=0.5):
    return np.clip(x * _t(x, alpha) + _t(x, beta), _t(x, 0), _t(x, 1))


def _shrink(x, lambd=0.5, bias=0.0):
    lo, b = _t(x, lambd), _t(x, bias)
    return np.where(x < -lo, x + b, np.where(x > lo, x - b, _t(x, 0)))


#: kernel -> numpy compute
ACTIVATION_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Sigmoid": _sigmoid,
    "Tanh": np.tanh,
    "LeakyRelu": lambda x, negativeSlope: np.where(x > 0, x, x * _t(x, negativeSlope)),  # noqa: N803
    "Elu": _elu,
    "Selu": lambda x: _elu(x, SELU_ALPHA, SELU_SCALE, 1.0),
    "Celu": _celu,
    "Softplus": _softplus,
    "Softsign": lambda x: x / (_t(x, 1) + np.abs(x)),
    "Hardsigmoid": _hardsigmoid,
    "Hardswish": lambda x: x * _hardsigmoid(x),
    "Mish": lambda x: x * np.tanh(np.logaddexp(_t(x, 0), x)),
    "Swish": lambda x, betaOptional=1.0: x * _sigmoid(x, betaOptional),  # noqa: N803
    "Threshold": lambda x, threshold, value: np.where(x > threshold, x, value).astype(x.dtype),
    "Hardshrink": lambda x, lambd=0.5: np.where(np.abs(x) > _t(x, lambd), x, _t(x, 0)),
    "Softshrink": lambda x, lambd=0.5: _shrink(x, lambd, lambd),
    "Shrink": _shrink,
}
