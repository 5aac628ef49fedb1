"""Single-operator workloads of a sweep: which aclnn call each ``op:`` name makes.

Each :class:`OpKind` builds its aclnn arguments (CANN order) from fresh device
tensors of the given shapes and dtype on an open :class:`acl_runtime.Session`:

=============  ==================================================  ==================
op             aclnn call                                          shapes
=============  ==================================================  ==================
matmul         aclnnMatmul(a [M, K], b [K, N], out [M, N], 0)      [[M, K], [K, N]]
softmax        aclnnSoftmax(x, dim=-1, out)                        [[..., D]]
layernorm      aclnnLayerNorm(x, [D], gamma [D], beta [D], 1e-5)   [[..., D]]
rmsnorm        aclnnRmsNorm(x, gamma [D], 1e-6, y, rstd [rows,1])  [[..., D]]
add            aclnnAdd(a, b, alpha 1, out)                        [shape, shape]
mul            aclnnMul(a, b, out)                                 [shape, shape]
gelu           aclnnGelu(x, out)                                   [shape]
silu           aclnnSilu(x, out)                                   [shape]
=============  ==================================================  ==================
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class OpKind:
    """How to build one single-op workload: ``inputs`` shapes expected, ``check``
    (raises ValueError for inconsistent shapes), ``build(session, shapes, dtype)``
    returning ``(aclnn name, args)``."""

    inputs: int
    build: Callable
    check: Callable = lambda shapes: None


def _matmul_check(shapes):
    a, b = shapes
    if len(a) != 2 or len(b) != 2 or a[1] != b[0]:
        raise ValueError(f"matmul needs [[M, K], [K, N]], got {shapes}")


def _same_check(shapes):
    if shapes[0] != shapes[1]:
        raise ValueError(f"the two shapes must be equal, got {shapes}")


def _matmul(s, shapes, dtype):
    (m, k), (_, n) = shapes
    return "aclnnMatmul", (s.empty((m, k), dtype).tensor, s.empty((k, n), dtype).tensor,
                           s.empty((m, n), dtype).tensor, 0)


def _softmax(s, shapes, dtype):
    return "aclnnSoftmax", (s.empty(shapes[0], dtype).tensor, -1, s.empty(shapes[0], dtype).tensor)


def _layernorm(s, shapes, dtype):
    import opsnn
    d = shapes[0][-1]
    return "aclnnLayerNorm", (s.empty(shapes[0], dtype).tensor, opsnn.aclCreateIntArray([d]),
                              s.empty((d,), dtype).tensor, s.empty((d,), dtype).tensor, 1e-5,
                              s.empty(shapes[0], dtype).tensor, None, None)


def _rmsnorm(s, shapes, dtype):
    rows = math.prod(shapes[0][:-1])
    d = shapes[0][-1]
    return "aclnnRmsNorm", (s.empty(shapes[0], dtype).tensor, s.empty((d,), dtype).tensor, 1e-6,
                            s.empty(shapes[0], dtype).tensor, s.empty((rows, 1), "float32").tensor)


def _add(s, shapes, dtype):
    import opsnn
    one = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
    return "aclnnAdd", (s.empty(shapes[0], dtype).tensor, s.empty(shapes[1], dtype).tensor, one,
                        s.empty(shapes[0], dtype).tensor)


def _binary(name):
    def build(s, shapes, dtype):
        return name, (s.empty(shapes[0], dtype).tensor, s.empty(shapes[1], dtype).tensor,
                      s.empty(shapes[0], dtype).tensor)
    return build


def _unary(name):
    def build(s, shapes, dtype):
        return name, (s.empty(shapes[0], dtype).tensor, s.empty(shapes[0], dtype).tensor)
    return build


OP_KINDS: dict[str, OpKind] = {
    "matmul": OpKind(2, _matmul, _matmul_check),
    "softmax": OpKind(1, _softmax),
    "layernorm": OpKind(1, _layernorm),
    "rmsnorm": OpKind(1, _rmsnorm),
    "add": OpKind(2, _add, _same_check),
    "mul": OpKind(2, _binary("aclnnMul"), _same_check),
    "gelu": OpKind(1, _unary("aclnnGelu")),
    "silu": OpKind(1, _unary("aclnnSilu")),
}
