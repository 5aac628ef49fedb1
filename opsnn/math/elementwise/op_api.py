"""Arithmetic entry points: Add, Sub, Mul, Div (tensor, scalar and in-place forms)
and Relu: checks in ops-nn's order (nulls, dtypes and promotion, then shapes), then
the family's tiling and kernel (:mod:`..common.host`). Parameters in CANN order;
``workspaceSize, executor`` are returned, not passed:
``ws, executor, status = aclnnAddGetWorkspaceSize(self, other, alpha, out)``.

  aclnnAdd(self, other, alpha, out)         out = self + alpha * other
  aclnnAdds(self, other: aclScalar, alpha, out)
  aclnnInplaceAdd(selfRef, other, alpha)    selfRef += alpha * other
  aclnnInplaceAdds(selfRef, other: aclScalar, alpha)
  aclnnSub / aclnnSubs / aclnnInplaceSub / aclnnInplaceSubs   (as Add, with -)
  aclnnMul(self, other, out), aclnnMuls(self, other: aclScalar, out), aclnnInplaceMul(s)
  aclnnDiv(self, other, out), aclnnDivs(self, other: aclScalar, out), aclnnInplaceDiv(s)
  aclnnRelu(self, out), aclnnInplaceRelu(selfRef)

dtypes (ops-math docs, A2 list minus complex): FLOAT, FLOAT16, BF16, DOUBLE, INT8,
UINT8, INT16, INT32, INT64, BOOL for Add/Sub/Mul/Div; operands need not match: they
promote (:mod:`opsnn.base.promotion`) and the promoted type must cast to ``out``.
Sub of two bools is 161002 (as PyTorch). ``alpha`` (aclScalar or number) must cast to
the promoted type (a float alpha with integer operands is 161002). Div divides in
float32 (or double) when the promoted type is integral or bool, and the quotient is
cast to ``out`` (truncated toward zero for an integer ``out``), as ops-math's aclnnDiv
on A2. Relu: FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT32, INT64; ``out`` as
``self``. Shapes broadcast (at most 8 dims); views may be non-contiguous.
Errors: 161001 null argument; 161002 not a tensor, dtype, promotion, cast to out,
broadcast, out shape, rank > 8.
"""
from __future__ import annotations

from functools import partial

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import prepare
from ...base.promotion import ALL_TYPES, can_cast, check_castable, check_promote, compute_dtype, is_float
from ..common.host import as_compute, build_eltwise, phase2_entry as _phase2, scalar_of
from .kernel import ELEMENTWISE_COMPUTE
from .tiling import elementwise_tiling

_build = partial(build_eltwise, tiling=elementwise_tiling, computes=ELEMENTWISE_COMPUTE)

ARITH_TYPES = ALL_TYPES
RELU_TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT32,
              T.ACL_INT64)


def _arith(chip, op_type: str, kernel: str, self, other, alpha, out, *, scalar: bool, inplace: bool,
           has_alpha: bool):
    api = f"aclnn{op_type}"
    sname = "selfRef" if inplace else "self"
    oname = sname if inplace else "out"
    nulls = {sname: self, "other": other}
    if has_alpha:
        nulls["alpha"] = alpha
    if not inplace:
        nulls["out"] = out
    check_not_null(api, **nulls)
    check_tensor_type(api, **{sname: self})
    if not inplace:
        check_tensor_type(api, out=out)
    check_dtype(api, sname, self, ARITH_TYPES)
    if scalar:
        b_val, b_dt = scalar_of(api, "other", other)
        promoted = check_promote(api, sname, self.data_type, "other", b_dt, scalar=True)
    else:
        check_tensor_type(api, other=other)
        check_dtype(api, "other", other, ARITH_TYPES)
        promoted = check_promote(api, sname, self.data_type, "other", other.data_type)
    if kernel == "Sub" and promoted == T.ACL_BOOL:
        raise invalid(api, "subtraction of two bool operands is not supported (self and other both ACL_BOOL)")
    ct = compute_dtype(promoted)
    if kernel == "Div" and not is_float(ct):
        ct = T.ACL_FLOAT
    attrs = {}
    if has_alpha:
        a_val, a_dt = scalar_of(api, "alpha", alpha)
        if not can_cast(a_dt, promoted):
            raise invalid(api, f"alpha dtype {a_dt.name} cannot be cast to the promoted dtype {promoted.name}")
        attrs["alpha"] = as_compute(a_val, ct)
    check_castable(api, promoted, oname, out.data_type)
    if scalar:
        attrs["b"] = as_compute(b_val, ct)
        ins = [(sname, self)]
    else:
        ins = [(sname, self), ("other", other)]
    extra = 1 if has_alpha and attrs["alpha"] != 1 else 0   # Muls before the Add/Sub
    return _build(chip, op_type, kernel, ins, [ct] * len(ins), out, ct, attrs=attrs, out_name=oname,
                  label=kernel, extra_passes=extra, info={"promoted_dtype": promoted.name})


def _prep(op_type, kernel, self, other, alpha, out, *, scalar=False, inplace=False, has_alpha=True):
    return prepare(op_type, lambda chip: _arith(chip, op_type, kernel, self, other, alpha,
                                                self if inplace else out, scalar=scalar, inplace=inplace,
                                                has_alpha=has_alpha))


# ---------------------------------------------------------------------------------- Add
def aclnnAddGetWorkspaceSize(self, other, alpha, out):  # noqa: N802
    """Phase 1 of out = self + alpha * other (broadcasting, promotion: module docstring)."""
    return _prep("Add", "Add", self, other, alpha, out)


def aclnnAddsGetWorkspaceSize(self, other, alpha, out):  # noqa: N802
    """Phase 1 of out = self + alpha * other, ``other`` an aclScalar (tensor-scalar promotion)."""
    return _prep("Adds", "Add", self, other, alpha, out, scalar=True)


def aclnnInplaceAddGetWorkspaceSize(selfRef, other, alpha):  # noqa: N802,N803
    """Phase 1 of selfRef += alpha * other (broadcast shape must equal selfRef's)."""
    return _prep("InplaceAdd", "Add", selfRef, other, alpha, None, inplace=True)


def aclnnInplaceAddsGetWorkspaceSize(selfRef, other, alpha):  # noqa: N802,N803
    """Phase 1 of selfRef += alpha * other, ``other`` an aclScalar."""
    return _prep("InplaceAdds", "Add", selfRef, other, alpha, None, scalar=True, inplace=True)


# ---------------------------------------------------------------------------------- Sub
def aclnnSubGetWorkspaceSize(self, other, alpha, out):  # noqa: N802
    """Phase 1 of out = self - alpha * other."""
    return _prep("Sub", "Sub", self, other, alpha, out)


def aclnnSubsGetWorkspaceSize(self, other, alpha, out):  # noqa: N802
    """Phase 1 of out = self - alpha * other, ``other`` an aclScalar."""
    return _prep("Subs", "Sub", self, other, alpha, out, scalar=True)


def aclnnInplaceSubGetWorkspaceSize(selfRef, other, alpha):  # noqa: N802,N803
    """Phase 1 of selfRef -= alpha * other."""
    return _prep("InplaceSub", "Sub", selfRef, other, alpha, None, inplace=True)


def aclnnInplaceSubsGetWorkspaceSize(selfRef, other, alpha):  # noqa: N802,N803
    """Phase 1 of selfRef -= alpha * other, ``other`` an aclScalar."""
    return _prep("InplaceSubs", "Sub", selfRef, other, alpha, None, scalar=True, inplace=True)


# ---------------------------------------------------------------------------------- Mul
def aclnnMulGetWorkspaceSize(self, other, out):  # noqa: N802
    """Phase 1 of out = self * other (bool * bool is logical and)."""
    return _prep("Mul", "Mul", self, other, None, out, has_alpha=False)


def aclnnMulsGetWorkspaceSize(self, other, out):  # noqa: N802
    """Phase 1 of out = self * other, ``other`` an aclScalar."""
    return _prep("Muls", "Mul", self, other, None, out, scalar=True, has_alpha=False)


def aclnnInplaceMulGetWorkspaceSize(selfRef, other):  # noqa: N802,N803
    """Phase 1 of selfRef *= other."""
    return _prep("InplaceMul", "Mul", selfRef, other, None, None, inplace=True, has_alpha=False)


def aclnnInplaceMulsGetWorkspaceSize(selfRef, other):  # noqa: N802,N803
    """Phase 1 of selfRef *= other, ``other`` an aclScalar."""
    return _prep("InplaceMuls", "Mul", selfRef, other, None, None, scalar=True, inplace=True, has_alpha=False)


# ---------------------------------------------------------------------------------- Div
def aclnnDivGetWorkspaceSize(self, other, out):  # noqa: N802
    """Phase 1 of out = self / other (true division; integers divide in float32)."""
    return _prep("Div", "Div", self, other, None, out, has_alpha=False)


def aclnnDivsGetWorkspaceSize(self, other, out):  # noqa: N802
    """Phase 1 of out = self / other, ``other`` an aclScalar."""
    return _prep("Divs", "Div", self, other, None, out, scalar=True, has_alpha=False)


def aclnnInplaceDivGetWorkspaceSize(selfRef, other):  # noqa: N802,N803
    """Phase 1 of selfRef /= other."""
    return _prep("InplaceDiv", "Div", selfRef, other, None, None, inplace=True, has_alpha=False)


def aclnnInplaceDivsGetWorkspaceSize(selfRef, other):  # noqa: N802,N803
    """Phase 1 of selfRef /= other, ``other`` an aclScalar."""
    return _prep("InplaceDivs", "Div", selfRef, other, None, None, scalar=True, inplace=True, has_alpha=False)


# ---------------------------------------------------------------------------------- Relu
def _relu(chip, op_type, self, out, inplace):
    api = f"aclnn{op_type}"
    sname = "selfRef" if inplace else "self"
    check_not_null(api, **({sname: self} if inplace else {"self": self, "out": out}))
    check_tensor_type(api, **({sname: self} if inplace else {"self": self, "out": out}))
    check_dtype(api, sname, self, RELU_TYPES)
    if not inplace:
        check_dtype(api, "out", out, (self.data_type,))
        check_shape(api, "out", out, self.view_shape)
    ct = self.data_type
    return _build(chip, op_type, "Relu", [(sname, self)], [ct], self if inplace else out, ct,
                  out_name=sname if inplace else "out", label="Relu")


def aclnnReluGetWorkspaceSize(self, out):  # noqa: N802
    """Phase 1 of out = max(self, 0). dtypes: RELU_TYPES; ``out`` dtype and shape as ``self``."""
    return prepare("Relu", lambda chip: _relu(chip, "Relu", self, out, False))


def aclnnInplaceReluGetWorkspaceSize(selfRef):  # noqa: N802,N803
    """Phase 1 of selfRef = max(selfRef, 0)."""
    return prepare("InplaceRelu", lambda chip: _relu(chip, "InplaceRelu", selfRef, None, True))


aclnnAdd = _phase2("Add")
aclnnAdds = _phase2("Adds")
aclnnInplaceAdd = _phase2("InplaceAdd")
aclnnInplaceAdds = _phase2("InplaceAdds")
aclnnSub = _phase2("Sub")
aclnnSubs = _phase2("Subs")
aclnnInplaceSub = _phase2("InplaceSub")
aclnnInplaceSubs = _phase2("InplaceSubs")
aclnnMul = _phase2("Mul")
aclnnMuls = _phase2("Muls")
aclnnInplaceMul = _phase2("InplaceMul")
aclnnInplaceMuls = _phase2("InplaceMuls")
aclnnDiv = _phase2("Div")
aclnnDivs = _phase2("Divs")
aclnnInplaceDiv = _phase2("InplaceDiv")
aclnnInplaceDivs = _phase2("InplaceDivs")
aclnnRelu = _phase2("Relu")
aclnnInplaceRelu = _phase2("InplaceRelu")
