"""aclnnAdd / aclnnAdds / aclnnRelu: UB-streaming vector kernels.

CANN prototypes:
  aclnnAddGetWorkspaceSize(self, other, alpha, out, workspaceSize, executor)   out = self + alpha * other
  aclnnAddsGetWorkspaceSize(self, other(aclScalar), alpha, out, ...)
  aclnnReluGetWorkspaceSize(self, out, ...)
dtypes: FLOAT, FLOAT16, BF16 (Relu also INT8/INT32); ``self`` and ``other`` broadcast.

Tile program (per UB tile of ``ub_factor`` output elements): MTE2 copies the inputs
in, VECTOR streams one pass per vector instruction (Add: 1, or 2 with alpha != 1;
Relu: 1), MTE3 copies the result out. Broadcast inputs are charged at their own
size (a broadcast operand is read once into UB per tile, at most).
"""
from __future__ import annotations

import numpy as np

from ..base.checks import (FLOAT_TYPES_BF16, broadcast_shape, check_dtype, check_not_null, check_shape,
                           check_tensor_type)
from ..base.dtypes import aclDataType
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.memview import tensor_view, write_out
from ..base.op import execute, prepare
from ..base.tensor import aclScalar
from ..base.tiling import vector_kernel


def _scalar(v) -> float:
    return v.to_python() if isinstance(v, aclScalar) else float(v)


def _add_body(a_t, b_t, out_t, alpha, b_scalar=None):
    def make(addrs, ws):
        def body(mem):
            a = tensor_view(mem, addrs[0], a_t)
            b = b_scalar if b_t is None else tensor_view(mem, addrs[1], b_t)
            ct = out_t.np_dtype.type if out_t.np_dtype.kind in "iu" else np.float32
            b = np.asarray(b).astype(ct)
            r = a.astype(ct) + (b * ct(alpha) if alpha != 1 else b)
            write_out(mem, addrs[-1], out_t, r)
        return body
    return make


def _build_add(chip, op, a, b, alpha, out, b_scalar=None):
    check_not_null(op, self=a, other=b, alpha=alpha, out=out)
    check_tensor_type(op, self=a, out=out)
    allowed = FLOAT_TYPES_BF16 + (aclDataType.ACL_INT32, aclDataType.ACL_INT64)
    check_dtype(op, "self", a, allowed)
    check_dtype(op, "out", out, allowed)
    al = _scalar(alpha)
    if b_scalar is None:
        check_tensor_type(op, other=b)
        check_dtype(op, "other", b, allowed)
        shape = broadcast_shape(op, a.view_shape, b.view_shape)
        b_items = b.numel
    else:
        shape = a.view_shape
        b_items = 0
    check_shape(op, "out", out, shape)
    n = int(np.prod(shape, dtype=np.int64))
    item = out.itemsize
    in_per = (a.numel * a.itemsize + b_items * (b.itemsize if b_scalar is None else 0)) / max(n, 1)
    passes = 1 if al == 1 else 2
    spec, td = vector_kernel(chip, op[5:], n, in_per, item, passes * item,
                             args={"shapes": [list(a.view_shape)] + ([list(b.view_shape)] if b_scalar is None else []),
                                   "dtype": out.dtype_name, "alpha": al, "bytes": int(in_per * n + item * n)})
    inputs = [a] if b_scalar is not None else [a, b]
    return aclOpExecutor(op[5:], [PreparedKernel(spec, _add_body(a, None if b_scalar is not None else b, out, al,
                                                                  b_scalar))], inputs, [out])


def aclnnAddGetWorkspaceSize(self, other, alpha, out):  # noqa: N802
    """Phase 1 of out = self + alpha * other (broadcasting). 161001 null, 161002 dtype/shape."""
    return prepare("Add", lambda chip: _build_add(chip, "aclnnAdd", self, other, alpha, out))


def aclnnAdd(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("Add", workspace, workspaceSize, executor, stream)


def aclnnAddsGetWorkspaceSize(self, other, alpha, out):  # noqa: N802
    """Phase 1 of out = self + alpha * other, ``other`` an aclScalar."""
    def build(chip):
        check_not_null("aclnnAdds", other=other)
        return _build_add(chip, "aclnnAdds", self, other, alpha, out, b_scalar=_scalar(other))
    return prepare("Adds", build)


def aclnnAdds(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("Adds", workspace, workspaceSize, executor, stream)


def _relu_body(x_t, out_t):
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            write_out(mem, addrs[1], out_t, np.maximum(x, x.dtype.type(0)))
        return body
    return make


def aclnnReluGetWorkspaceSize(self, out):  # noqa: N802
    """Phase 1 of out = max(self, 0). dtypes FLOAT, FLOAT16, BF16, INT8, INT32."""
    def build(chip):
        op = "aclnnRelu"
        check_not_null(op, self=self, out=out)
        check_tensor_type(op, self=self, out=out)
        allowed = FLOAT_TYPES_BF16 + (aclDataType.ACL_INT8, aclDataType.ACL_INT32)
        check_dtype(op, "self", self, allowed)
        check_dtype(op, "out", out, (self.data_type,))
        check_shape(op, "out", out, self.view_shape)
        item = self.itemsize
        spec, _ = vector_kernel(chip, "Relu", self.numel, item, item, item,
                                args={"shapes": [list(self.view_shape)], "dtype": self.dtype_name,
                                      "bytes": 2 * self.nbytes})
        return aclOpExecutor("Relu", [PreparedKernel(spec, _relu_body(self, out))], [self], [out])
    return prepare("Relu", build)


def aclnnRelu(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("Relu", workspace, workspaceSize, executor, stream)
