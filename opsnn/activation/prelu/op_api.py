"""aclnnPrelu on the elementwise AIV kernel (:mod:`opsnn.math.common`).

CANN prototype (aclnn_prelu.h): aclnnPreluGetWorkspaceSize(self, weight, out,
workspaceSize, executor); out = self >= 0 ? self : weight * self.
dtypes: FLOAT, FLOAT16, BF16, DOUBLE; ``weight`` and ``out`` as ``self``; ``out``
``self``'s shape. ``weight``: CANN's 1-D tensor of ``self.shape[1]`` elements (the
channel dim) or of one element; as an extension any shape that broadcasts to
``self`` numpy-style (ONNX PRelu's unidirectional broadcast; the frontend passes the
slope at full rank so that the two rules never disagree).
Errors: 161001 null; 161002 not a tensor, dtype, weight shape, out dtype or shape.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.op import prepare
from ...base.promotion import FLOATS, compute_dtype
from ...base.tensor import aclTensor
from ...math.common.host import build_eltwise, check_rank, phase2_entry
from .infershape import weight_view_shape
from .kernel import PRELU_COMPUTE
from .tiling import prelu_tiling

OP = "aclnnPrelu"


def _as_view(w: aclTensor, shape) -> aclTensor:
    """``w`` (1-D) seen as ``shape`` (its one dim kept, the others of size 1)."""
    if tuple(shape) == tuple(w.view_shape):
        return w
    stride = w.view_strides[0] if w.view_strides else 1
    strides = [stride if d != 1 else 0 for d in shape]
    return aclTensor(shape, w.data_type, strides, w.view_offset, w.storage_format, w.storage_shape, w.tensor_data)


def _build(chip, self, weight, out):
    check_not_null(OP, self=self, weight=weight, out=out)
    check_tensor_type(OP, self=self, weight=weight, out=out)
    check_dtype(OP, "self", self, FLOATS)
    check_dtype(OP, "weight", weight, (self.data_type,))
    check_dtype(OP, "out", out, (self.data_type,))
    check_rank(OP, "self", self)
    check_shape(OP, "out", out, self.view_shape)
    wshape = weight_view_shape(self.view_shape, weight.view_shape)
    if wshape is None:
        raise invalid(OP, f"weight shape {list(weight.view_shape)} is neither the channel dim nor broadcastable "
                          f"to self shape {list(self.view_shape)}")
    ct = compute_dtype(self.data_type)
    w = _as_view(weight, wshape) if len(weight.view_shape) == 1 else weight
    return build_eltwise(chip, "Prelu", "Prelu", [("self", self), ("weight", w)], [ct, ct], out, ct,
                         tiling=prelu_tiling, computes=PRELU_COMPUTE, shape=tuple(self.view_shape), label="Prelu")


def aclnnPreluGetWorkspaceSize(self, weight, out):  # noqa: N802
    """Phase 1 of out = self >= 0 ? self : weight * self (module docstring)."""
    return prepare("Prelu", lambda chip: _build(chip, self, weight, out))


aclnnPrelu = phase2_entry("Prelu")
