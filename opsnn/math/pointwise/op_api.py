"""Pointwise math entry points: Erf, Sqrt, Pow, Clamp (CANN parameter order); checks
in ops-nn's order, then the family's tiling and kernel (:mod:`..common.host`).

  aclnnErf(self, out), aclnnSqrt(self, out)
      self: FLOAT, FLOAT16, BF16, DOUBLE, an integer type or BOOL (integers and bool
      compute in float32); out: a float type the result casts to.
  aclnnPowTensorScalar(self, exponent: aclScalar, out)
  aclnnPowTensorTensor(self, exponent: aclTensor, out)     (broadcasting)
      any non-bool promoted type; integers exactly (a negative exponent gives 1 for
      base 1, +-1 for base -1, else 0; a negative *scalar* exponent with an integer
      promoted type is 161002, as PyTorch).
  aclnnClamp(self, clipValueMin: aclScalar?, clipValueMax: aclScalar?, out)
  aclnnClampMin(self, clipValueMin, out), aclnnClampMax(self, clipValueMax, out)
  aclnnClampTensor(self, clipValueMin: aclTensor?, clipValueMax: aclTensor?, out)
      out = min(max(self, min), max): ``max`` wins when min > max (PyTorch and ONNX
      Clip; the ops-math doc's formula writes the opposite nesting). A null bound is
      no bound; both null is 161001. bool is 161002.
Promotion and casts: :mod:`opsnn.base.promotion`. Errors: 161001 null, 161002 not a
tensor, dtype, promotion, cast to out, broadcast, out shape.
"""
from __future__ import annotations

from functools import partial

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import prepare
from ...base.promotion import (ALL_TYPES, check_castable, check_promote, compute_dtype, is_float, is_int,
                               promote_tensor_scalar)
from ...base.status import ACLNN_ERR_PARAM_NULLPTR, AclnnError
from ..common.host import as_compute, build_eltwise, phase2_entry, scalar_of
from .kernel import POINTWISE_COMPUTE
from .tiling import pointwise_tiling

_build = partial(build_eltwise, tiling=pointwise_tiling, computes=POINTWISE_COMPUTE)

NUMERIC_TYPES = tuple(t for t in ALL_TYPES if t != T.ACL_BOOL)


def _float_unary(chip, op_type: str, self, out):
    api = f"aclnn{op_type}"
    check_not_null(api, self=self, out=out)
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, ALL_TYPES)
    promoted = self.data_type if is_float(self.data_type) else T.ACL_FLOAT
    check_castable(api, promoted, "out", out.data_type)
    ct = compute_dtype(promoted)
    return _build(chip, op_type, op_type, [("self", self)], [ct], out, ct)


def aclnnErfGetWorkspaceSize(self, out):  # noqa: N802
    """Phase 1 of out = erf(self)."""
    return prepare("Erf", lambda chip: _float_unary(chip, "Erf", self, out))


def aclnnSqrtGetWorkspaceSize(self, out):  # noqa: N802
    """Phase 1 of out = sqrt(self) (negative inputs give NaN, as on hardware)."""
    return prepare("Sqrt", lambda chip: _float_unary(chip, "Sqrt", self, out))


# ---------------------------------------------------------------------------------- Pow
def _pow(chip, op_type: str, self, exponent, out, scalar: bool):
    api = f"aclnn{op_type}"
    check_not_null(api, self=self, exponent=exponent, out=out)
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, ALL_TYPES)
    if scalar:
        e_val, e_dt = scalar_of(api, "exponent", exponent)
        promoted = check_promote(api, "self", self.data_type, "exponent", e_dt, scalar=True)
    else:
        check_tensor_type(api, exponent=exponent)
        check_dtype(api, "exponent", exponent, ALL_TYPES)
        promoted = check_promote(api, "self", self.data_type, "exponent", exponent.data_type)
    if promoted == T.ACL_BOOL:
        raise invalid(api, "pow of bool operands is not supported (self and exponent both ACL_BOOL)")
    check_castable(api, promoted, "out", out.data_type)
    ct = compute_dtype(promoted)
    if scalar:
        if is_int(ct) and e_val < 0:
            raise invalid(api, f"integer {promoted.name} to the negative power {e_val} is not supported")
        return _build(chip, op_type, "Pow", [("self", self)], [ct], out, ct,
                      attrs={"b": as_compute(e_val, ct)}, label="Pow")
    return _build(chip, op_type, "Pow", [("self", self), ("exponent", exponent)], [ct, ct], out, ct,
                  label="Pow")


def aclnnPowTensorScalarGetWorkspaceSize(self, exponent, out):  # noqa: N802
    """Phase 1 of out = self ** exponent, ``exponent`` an aclScalar."""
    return prepare("PowTensorScalar", lambda chip: _pow(chip, "PowTensorScalar", self, exponent, out, True))


def aclnnPowTensorTensorGetWorkspaceSize(self, exponent, out):  # noqa: N802
    """Phase 1 of out = self ** exponent (broadcasting)."""
    return prepare("PowTensorTensor", lambda chip: _pow(chip, "PowTensorTensor", self, exponent, out, False))


# ---------------------------------------------------------------------------------- Clamp
def _clamp_scalars(chip, op_type: str, self, lo, hi, out, names=("clipValueMin", "clipValueMax")):
    api = f"aclnn{op_type}"
    check_not_null(api, self=self, out=out)
    if lo is None and hi is None:
        raise AclnnError(ACLNN_ERR_PARAM_NULLPTR, f"{api}: {names[0]} and {names[1]} are both null")
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, NUMERIC_TYPES)
    bounds = {}
    promoted = self.data_type
    for key, name, v in (("lo", names[0], lo), ("hi", names[1], hi)):
        if v is None:
            continue
        val, dt = scalar_of(api, name, v)
        p = promote_tensor_scalar(promoted, dt)
        if p is None:
            raise invalid(api, f"self dtype {promoted.name} and {name} dtype {dt.name} cannot be promoted")
        promoted = p
        bounds[key] = val
    check_castable(api, promoted, "out", out.data_type)
    ct = compute_dtype(promoted)
    attrs = {k: as_compute(v, ct) for k, v in bounds.items()}
    return _build(chip, op_type, "Clamp", [("self", self)], [ct], out, ct, attrs=attrs, label="Clamp",
                  extra_passes=0 if len(bounds) == 2 else -1)


def aclnnClampGetWorkspaceSize(self, clipValueMin, clipValueMax, out):  # noqa: N802,N803
    """Phase 1 of out = min(max(self, clipValueMin), clipValueMax); either bound may be None."""
    return prepare("Clamp", lambda chip: _clamp_scalars(chip, "Clamp", self, clipValueMin, clipValueMax, out))


def aclnnClampMinGetWorkspaceSize(self, clipValueMin, out):  # noqa: N802,N803
    """Phase 1 of out = max(self, clipValueMin)."""
    def build(chip):
        check_not_null("aclnnClampMin", clipValueMin=clipValueMin)
        return _clamp_scalars(chip, "ClampMin", self, clipValueMin, None, out)
    return prepare("ClampMin", build)


def aclnnClampMaxGetWorkspaceSize(self, clipValueMax, out):  # noqa: N802,N803
    """Phase 1 of out = min(self, clipValueMax)."""
    def build(chip):
        check_not_null("aclnnClampMax", clipValueMax=clipValueMax)
        return _clamp_scalars(chip, "ClampMax", self, None, clipValueMax, out)
    return prepare("ClampMax", build)


def _clamp_tensor(chip, self, lo, hi, out):
    api = "aclnnClampTensor"
    check_not_null(api, self=self, out=out)
    if lo is None and hi is None:
        raise AclnnError(ACLNN_ERR_PARAM_NULLPTR, f"{api}: clipValueMin and clipValueMax are both null")
    named = [("self", self)] + [(n, t) for n, t in (("clipValueMin", lo), ("clipValueMax", hi)) if t is not None]
    check_tensor_type(api, out=out, **dict(named))
    promoted = self.data_type
    for name, t in named:
        check_dtype(api, name, t, NUMERIC_TYPES)
        promoted = check_promote(api, "self", promoted, name, t.data_type)
    check_castable(api, promoted, "out", out.data_type)
    ct = compute_dtype(promoted)
    kernel = "Clamp" if lo is not None else "ClampHi"   # ClampHi: compute(x, hi) without a lower bound
    return _build(chip, "ClampTensor", kernel, named, [ct] * len(named), out, ct, label="Clamp",
                  extra_passes=0 if lo is not None and hi is not None else -1)


def aclnnClampTensorGetWorkspaceSize(self, clipValueMin, clipValueMax, out):  # noqa: N802,N803
    """Phase 1 of out = min(max(self, clipValueMin), clipValueMax) with tensor bounds
    (broadcasting); either bound may be None."""
    return prepare("ClampTensor", lambda chip: _clamp_tensor(chip, self, clipValueMin, clipValueMax, out))


aclnnErf = phase2_entry("Erf")
aclnnSqrt = phase2_entry("Sqrt")
aclnnPowTensorScalar = phase2_entry("PowTensorScalar")
aclnnPowTensorTensor = phase2_entry("PowTensorTensor")
aclnnClamp = phase2_entry("Clamp")
aclnnClampMin = phase2_entry("ClampMin")
aclnnClampMax = phase2_entry("ClampMax")
aclnnClampTensor = phase2_entry("ClampTensor")
