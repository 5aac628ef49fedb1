"""Unary activations, one table (:data:`ROWS`) on the elementwise AIV kernel; the
entry points are generated from the rows (:mod:`opsnn.math.common.table`).

CANN prototypes checked against the aclnn API reference (CANN 8.x,
"aclnnXxx&aclnnInplaceXxx" pages): aclnnLeakyRelu(self, negativeSlope, out),
aclnnElu(self, alpha, scale, inputScale, out), aclnnSoftplus(self, beta, threshold,
out), aclnnHardsigmoid(self, out), aclnnHardswish(self, out), aclnnSwish(self,
betaOptional, out) (null beta: 1.0), aclnnThreshold(self, threshold, value, out)
(also integer dtypes). From CANN's op list, prototypes not re-checked here:
aclnnSigmoid(self, out), aclnnTanh(self, out), aclnnSelu(self, out), aclnnMish(self,
out), aclnnHardshrink(self, lambd, out), aclnnSoftshrink(self, lambd, out).
aclnnCelu(self, alpha, out): no page found in the reference searched; CANN's style.
Not in CANN (this simulator's names, in CANN's style):
  aclnnSoftsign(self, out)                       x / (1 + |x|)
  aclnnHardsigmoidV2(self, alpha, beta, out)     clamp(alpha x + beta, 0, 1) (ONNX HardSigmoid)
  aclnnShrink(self, lambd, bias, out)            ONNX Shrink
dtypes: FLOAT, FLOAT16, BF16, DOUBLE (16-bit inputs compute in float32 and round
once); Threshold and Shrink also INT8, UINT8, INT16, INT32, INT64. ``out``: the shape
of ``self`` and its dtype (as the CANN pages require). Scalars: aclScalar or a number,
converted to the compute dtype. Errors: 161001 null self/out/scalar; 161002 not a
tensor, dtype, out dtype or shape, rank > 8, Celu alpha 0, Softplus beta 0,
Hardshrink/Softshrink/Shrink lambd < 0.
"""
from __future__ import annotations

from ...base.checks import invalid
from ...base.op_def import ATTRIBUTE, SCALAR, Param
from ...base.promotion import FLOATS, INTS
from ...math.common.table import UnaryRow, make_entry_points
from .kernel import ACTIVATION_COMPUTE
from .tiling import activation_tiling

ACT_TYPES = FLOATS
INT_ACT_TYPES = FLOATS + INTS


def _scalar(name, default=None, optional=False):
    if optional:
        return Param(name, ATTRIBUTE, SCALAR, optional=True, default=None)
    return Param(name, ATTRIBUTE, SCALAR, default=default)


def _nonzero(name):
    def check(api, attrs):
        if attrs[name] == 0:
            raise invalid(api, f"{name} must not be 0")
    return check


def _nonneg(api, attrs):
    if attrs["lambd"] < 0:
        raise invalid(api, f"lambd must be >= 0, got {attrs['lambd']}")


def _row(op, kernel, doc, attrs=(), dtypes=ACT_TYPES, **kw):
    return UnaryRow(op, kernel, dtypes, doc, tuple(attrs), result="same", strict=True, **kw)


# defaults: the torch defaults the aclnn ops implement (CANN passes them explicitly)
ROWS = (
    _row("Sigmoid", "Sigmoid", "out = 1 / (1 + exp(-self))"),
    _row("Tanh", "Tanh", "out = tanh(self)"),
    _row("LeakyRelu", "LeakyRelu", "out = max(0, self) + negativeSlope * min(0, self)",
         [_scalar("negativeSlope", 0.01)]),
    _row("Elu", "Elu", "out = self > 0 ? scale self : alpha scale (exp(self inputScale) - 1)",
         [_scalar("alpha", 1.0), _scalar("scale", 1.0), _scalar("inputScale", 1.0)]),
    _row("Selu", "Selu", "out = scale (max(0, x) + min(0, alpha (exp(x) - 1))), alpha 1.6733, scale 1.0507"),
    _row("Celu", "Celu", "out = max(0, x) + min(0, alpha (exp(x / alpha) - 1))", [_scalar("alpha", 1.0)],
         check=_nonzero("alpha")),
    _row("Softplus", "Softplus", "out = beta x > threshold ? x : log(1 + exp(beta x)) / beta",
         [_scalar("beta", 1.0), _scalar("threshold", 20.0)], check=_nonzero("beta")),
    _row("Softsign", "Softsign", "out = x / (1 + |x|) (not a CANN op)"),
    _row("Hardsigmoid", "Hardsigmoid", "out = clamp(x / 6 + 1 / 2, 0, 1)"),
    _row("HardsigmoidV2", "Hardsigmoid", "out = clamp(alpha x + beta, 0, 1) (not a CANN op: ONNX HardSigmoid)",
         [_scalar("alpha", 0.2), _scalar("beta", 0.5)]),
    _row("Hardswish", "Hardswish", "out = x clamp(x + 3, 0, 6) / 6"),
    _row("Mish", "Mish", "out = x tanh(log(1 + exp(x)))"),
    _row("Swish", "Swish", "out = x sigmoid(beta x); a null betaOptional is 1.0",
         [_scalar("betaOptional", optional=True)], fill={"betaOptional": 1.0}),
    _row("Threshold", "Threshold", "out = self > threshold ? self : value",
         [_scalar("threshold"), _scalar("value")], dtypes=INT_ACT_TYPES),
    _row("Hardshrink", "Hardshrink", "out = |x| > lambd ? x : 0", [_scalar("lambd", 0.5)], check=_nonneg),
    _row("Softshrink", "Softshrink", "out = x > lambd ? x - lambd : x < -lambd ? x + lambd : 0",
         [_scalar("lambd", 0.5)], check=_nonneg),
    _row("Shrink", "Shrink", "out = x < -lambd ? x + bias : x > lambd ? x - bias : 0 (not a CANN op: ONNX Shrink)",
         [_scalar("lambd", 0.5), _scalar("bias", 0.0)], dtypes=INT_ACT_TYPES, check=_nonneg),
)

ENTRY_POINTS = make_entry_points(ROWS, tiling=activation_tiling, computes=ACTIVATION_COMPUTE)
globals().update(ENTRY_POINTS)
__all__ = sorted(ENTRY_POINTS) + ["ROWS", "ENTRY_POINTS"]
