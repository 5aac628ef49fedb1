"""aclnnCast(self, dtype, out): convert every element to ``dtype`` (CANN parameter order).

self: any dtype of :data:`opsnn.base.promotion.ALL_TYPES`; dtype: an aclDataType of
that set; out: dtype ``dtype``, shape of ``self``. Every conversion is allowed (Cast
is the op that does what promotion may not): float -> integer truncates toward
zero (out-of-range values are undefined, as on hardware), anything -> bool is
"nonzero", float32 -> float16/bfloat16 rounds to nearest even. Non-contiguous views
are accepted. The same l0 kernel is what other ops would launch for a mixed-dtype
operand; the elementwise family fuses such casts instead (see
:mod:`opsnn.math.common.tiling`).
Errors: 161001 null self/out; 161002 not a tensor, unsupported dtype, out dtype not
``dtype``, out shape.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import prepare
from ...base.promotion import ALL_TYPES
from ..common.host import build_eltwise, phase2_entry
from .kernel import CAST_COMPUTE
from .tiling import cast_tiling


def _cast(chip, self, dtype, out):
    api = "aclnnCast"
    check_not_null(api, self=self, dtype=dtype, out=out)
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, ALL_TYPES)
    try:
        dst = T(int(dtype))
    except (TypeError, ValueError):
        raise invalid(api, f"dtype {dtype!r} is not an aclDataType") from None
    if dst not in ALL_TYPES:
        raise invalid(api, f"dtype {dst.name} not supported; expected one of {', '.join(t.name for t in ALL_TYPES)}")
    if out.data_type != dst:
        raise invalid(api, f"out dtype {out.data_type.name} differs from dtype {dst.name}")
    check_shape(api, "out", out, self.view_shape)
    return build_eltwise(chip, "Cast", "Cast", [("self", self)], [self.data_type], out, dst, tiling=cast_tiling,
                         computes=CAST_COMPUTE, info={"src_dtype": self.data_type.name, "dst_dtype": dst.name})


def aclnnCastGetWorkspaceSize(self, dtype, out):  # noqa: N802
    """Phase 1 of out = cast(self, dtype) (module docstring)."""
    return prepare("Cast", lambda chip: _cast(chip, self, dtype, out))


aclnnCast = phase2_entry("Cast")
