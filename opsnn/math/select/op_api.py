"""Selection and comparison entry points (CANN parameter order); checks in ops-nn's
order, then the family's tiling and kernel (:mod:`..common.host`).

  aclnnSWhere(condition, self, other, out)   out = condition ? self : other (broadcasting)
      CANN's name (aclnn_s_where.h); ``aclnnWhere`` is the same op under the name
      issue #5 uses. condition: BOOL or UINT8 (nonzero is true); self/other: any
      dtype of :data:`opsnn.base.promotion.ALL_TYPES`, promoted; out: castable from
      the promoted type.
  aclnnEqTensor(self, other, out)            out = (self == other) elementwise (broadcasting)
  aclnnEqScalar(self, other: aclScalar, out)
      compared in the promoted type; out: any dtype (bool casts to all), shape the
      broadcast shape. ONNX Equal maps here.
  aclnnEqual(self, other, out)               torch.equal: one bool, true iff the shapes
      are the same and every element is equal; out: BOOL with one element.
Errors: 161001 null, 161002 not a tensor, dtype, promotion, cast to out, broadcast,
out shape.
"""
from __future__ import annotations

from functools import partial

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import prepare
from ...base.promotion import ALL_TYPES, check_castable, check_promote, compute_dtype
from ..common.host import as_compute, build_eltwise, check_rank, phase2_entry, scalar_of
from .kernel import SELECT_COMPUTE
from .tiling import select_tiling

_build = partial(build_eltwise, tiling=select_tiling, computes=SELECT_COMPUTE)

COND_TYPES = (T.ACL_BOOL, T.ACL_UINT8)


def _where(chip, op_type: str, condition, self, other, out):
    api = f"aclnn{op_type}"
    check_not_null(api, condition=condition, self=self, other=other, out=out)
    check_tensor_type(api, condition=condition, self=self, other=other, out=out)
    check_dtype(api, "condition", condition, COND_TYPES)
    check_dtype(api, "self", self, ALL_TYPES)
    check_dtype(api, "other", other, ALL_TYPES)
    promoted = check_promote(api, "self", self.data_type, "other", other.data_type)
    check_castable(api, promoted, "out", out.data_type)
    ct = compute_dtype(promoted) if promoted != T.ACL_BOOL else promoted
    return _build(chip, op_type, "Where", [("condition", condition), ("self", self), ("other", other)],
                  [T.ACL_BOOL, ct, ct], out, ct, label="SWhere", info={"promoted_dtype": promoted.name})


def aclnnSWhereGetWorkspaceSize(condition, self, other, out):  # noqa: N802
    """Phase 1 of out = where(condition, self, other) (module docstring)."""
    return prepare("SWhere", lambda chip: _where(chip, "SWhere", condition, self, other, out))


def aclnnWhereGetWorkspaceSize(condition, self, other, out):  # noqa: N802
    """Phase 1 of out = where(condition, self, other): :func:`aclnnSWhereGetWorkspaceSize`
    under issue #5's name (run it with :func:`aclnnWhere`)."""
    return prepare("Where", lambda chip: _where(chip, "Where", condition, self, other, out))


def _eq(chip, op_type: str, self, other, out, scalar: bool):
    api = f"aclnn{op_type}"
    check_not_null(api, self=self, other=other, out=out)
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, ALL_TYPES)
    check_dtype(api, "out", out, ALL_TYPES)
    if scalar:
        val, dt = scalar_of(api, "other", other)
        promoted = check_promote(api, "self", self.data_type, "other", dt, scalar=True)
    else:
        check_tensor_type(api, other=other)
        check_dtype(api, "other", other, ALL_TYPES)
        promoted = check_promote(api, "self", self.data_type, "other", other.data_type)
    ct = compute_dtype(promoted)
    if scalar:
        return _build(chip, op_type, "Eq", [("self", self)], [ct], out, T.ACL_BOOL,
                      attrs={"b": as_compute(val, ct)}, label="Equal")
    return _build(chip, op_type, "Eq", [("self", self), ("other", other)], [ct, ct], out, T.ACL_BOOL,
                  label="Equal")


def aclnnEqTensorGetWorkspaceSize(self, other, out):  # noqa: N802
    """Phase 1 of out = (self == other) elementwise."""
    return prepare("EqTensor", lambda chip: _eq(chip, "EqTensor", self, other, out, False))


def aclnnEqScalarGetWorkspaceSize(self, other, out):  # noqa: N802
    """Phase 1 of out = (self == other), ``other`` an aclScalar."""
    return prepare("EqScalar", lambda chip: _eq(chip, "EqScalar", self, other, out, True))


def _equal(chip, self, other, out):
    api = "aclnnEqual"
    check_not_null(api, self=self, other=other, out=out)
    check_tensor_type(api, self=self, other=other, out=out)
    check_dtype(api, "self", self, ALL_TYPES)
    check_dtype(api, "other", other, ALL_TYPES)
    check_dtype(api, "out", out, (T.ACL_BOOL,))
    if out.numel != 1:
        raise invalid(api, f"out must hold one element, got shape {list(out.view_shape)}")
    for name, t in (("self", self), ("other", other)):
        check_rank(api, name, t)
    promoted = check_promote(api, "self", self.data_type, "other", other.data_type)
    ct = compute_dtype(promoted)
    n = max(self.numel, other.numel, 1)
    return _build(chip, "Equal", "Equal", [("self", self), ("other", other)], [ct, ct], out, T.ACL_BOOL,
                  shape=(n,), label="TensorEqual")


def aclnnEqualGetWorkspaceSize(self, other, out):  # noqa: N802
    """Phase 1 of out = torch.equal(self, other) (one bool)."""
    return prepare("Equal", lambda chip: _equal(chip, self, other, out))


aclnnSWhere = phase2_entry("SWhere")
aclnnWhere = phase2_entry("Where")
aclnnEqTensor = phase2_entry("EqTensor")
aclnnEqScalar = phase2_entry("EqScalar")
aclnnEqual = phase2_entry("Equal")
