"""Elementwise activations: Gelu, GeluV2, Silu (CANN parameter order), on the
elementwise family's shared host and kernel (:mod:`opsnn.math.common`); checks in
ops-nn's order, then this family's tiling and kernel.

  aclnnGelu(self, out)                  out = self * Phi(self) = 0.5 x (1 + erf(x / sqrt 2))
  aclnnGeluV2(x, approximate, y)        approximate 0 ("none"): as aclnnGelu;
                                        1 ("tanh"): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  aclnnSilu(self, out)                  out = x * sigmoid(x) = x / (1 + exp(-x))
dtypes: FLOAT, FLOAT16, BF16 for input and output, which must match (aclnn_gelu.h,
aclnn_gelu_v2.h); shapes equal; non-contiguous views accepted. 16-bit inputs compute
in float32 and round once. aclnnGelu follows the formula its header documents (the
erf form); the tanh form is GeluV2's ``approximate=1``.
Errors: 161001 null; 161002 not a tensor, dtype, dtype mismatch, shape,
approximate not 0 or 1.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.op import prepare
from ...base.promotion import compute_dtype
from ...math.common.host import FLOAT16_32, build_eltwise, phase2_entry
from .kernel import GELU_COMPUTE
from .tiling import gelu_tiling


def _act(chip, op_type: str, kernel: str, x, y, xname="self", yname="out", info=None):
    api = f"aclnn{op_type}"
    check_not_null(api, **{xname: x, yname: y})
    check_tensor_type(api, **{xname: x, yname: y})
    check_dtype(api, xname, x, FLOAT16_32)
    check_dtype(api, yname, y, (x.data_type,))
    check_shape(api, yname, y, x.view_shape)
    ct = compute_dtype(x.data_type)
    return build_eltwise(chip, op_type, kernel, [(xname, x)], [ct], y, ct, tiling=gelu_tiling, computes=GELU_COMPUTE,
                         out_name=yname, label=op_type, info=info)


def aclnnGeluGetWorkspaceSize(self, out):  # noqa: N802
    """Phase 1 of out = gelu(self), erf form."""
    return prepare("Gelu", lambda chip: _act(chip, "Gelu", "Gelu", self, out))


def aclnnGeluV2GetWorkspaceSize(x, approximate, y):  # noqa: N802
    """Phase 1 of y = gelu(x); ``approximate`` (int64) 0 = erf form, 1 = tanh form."""
    def build(chip):
        if isinstance(approximate, bool) or not hasattr(approximate, "__index__") or int(approximate) not in (0, 1):
            check_not_null("aclnnGeluV2", x=x, y=y)
            raise invalid("aclnnGeluV2", f"approximate must be 0 (none) or 1 (tanh), got {approximate!r}")
        kernel = "Gelu" if int(approximate) == 0 else "GeluV2Tanh"
        return _act(chip, "GeluV2", kernel, x, y, "x", "y",
                    info={"approximate": "none" if int(approximate) == 0 else "tanh"})
    return prepare("GeluV2", build)


def aclnnSiluGetWorkspaceSize(self, out):  # noqa: N802
    """Phase 1 of out = silu(self) = self * sigmoid(self)."""
    return prepare("Silu", lambda chip: _act(chip, "Silu", "Silu", self, out))


aclnnGelu = phase2_entry("Gelu")
aclnnGeluV2 = phase2_entry("GeluV2")
aclnnSilu = phase2_entry("Silu")
