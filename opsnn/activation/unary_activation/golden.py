"""float64 references of the unary activations (tests only), naive and independent
of the kernels (written from the formulas, not from kernel.py); arguments in op_def
order, keyword names as CANN's."""
from __future__ import annotations

import numpy as np


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def _sig(z):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-z))


def _elu(x, a, s, i):
    x = _f(x)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(x > 0, s * x, a * s * (np.exp(np.minimum(x, 0) * i) - 1.0))


def _softplus(x, beta=1.0, threshold=20.0):
    x = _f(x)
    return np.where(beta * x > threshold, x, np.logaddexp(0.0, beta * x) / beta)


GOLDEN = {
    "Sigmoid": lambda x: _sig(_f(x)),
    "Tanh": lambda x: np.tanh(_f(x)),
    "LeakyRelu": lambda x, negativeSlope=0.01: np.where(_f(x) > 0, _f(x), negativeSlope * _f(x)),  # noqa: N803
    "Elu": lambda x, alpha=1.0, scale=1.0, inputScale=1.0: _elu(x, alpha, scale, inputScale),  # noqa: N803
    "Selu": lambda x: _elu(x, 1.6732632423543772848170429916717, 1.0507009873554804934193349852946, 1.0),
    "Celu": lambda x, alpha=1.0: np.maximum(_f(x), 0) + np.minimum(0, alpha * (np.exp(np.minimum(_f(x), 0) / alpha)
                                                                              - 1)),
    "Softplus": _softplus,
    "Softsign": lambda x: _f(x) / (1 + np.abs(_f(x))),
    "Hardsigmoid": lambda x: np.clip(_f(x) / 6 + 0.5, 0, 1),
    "HardsigmoidV2": lambda x, alpha=0.2, beta=0.5: np.clip(alpha * _f(x) + beta, 0, 1),
    "Hardswish": lambda x: _f(x) * np.clip(_f(x) + 3, 0, 6) / 6,
    "Mish": lambda x: _f(x) * np.tanh(np.logaddexp(0, _f(x))),
    "Swish": lambda x, betaOptional=None: _f(x) * _sig((1.0 if betaOptional is None  # noqa: N803
                                                         else betaOptional) * _f(x)),
    "Threshold": lambda x, threshold, value: np.where(_f(x) > threshold, _f(x), value),
    "Hardshrink": lambda x, lambd=0.5: np.where(np.abs(_f(x)) > lambd, _f(x), 0.0),
    "Softshrink": lambda x, lambd=0.5: np.sign(_f(x)) * np.maximum(np.abs(_f(x)) - lambd, 0),
    "Shrink": lambda x, lambd=0.5, bias=0.0: np.where(_f(x) < -lambd, _f(x) + bias,
                                                     np.where(_f(x) > lambd, _f(x) - bias, 0.0)),
}
