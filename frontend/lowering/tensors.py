"""Device tensors and aclnn calls as the lowering handlers use them.

:class:`DTensor` (address, shape, dtype, aclTensor), the :class:`LoweringContext`
handlers allocate through (:class:`frontend.runner.ModelRunner` implements it),
:func:`call` (phase 1 of one aclnn entry point for a node), and helpers for views,
copies, casts, scalars and broadcasting.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

from ..errors import PrepareError, UnsupportedModelError
from ..graph import Node
from ..program import PreparedCall, prepare_call
from .attrs import bad

ND = 2  # aclFormat ND


@dataclass
class DTensor:
    """A device tensor: address, shape, numpy dtype and its aclTensor (contiguous ND
    unless ``tensor`` says otherwise)."""

    name: str
    ptr: int
    shape: tuple[int, ...]
    dtype: np.dtype
    tensor: object

    @property
    def nbytes(self) -> int:
        return numel(self.shape) * self.dtype.itemsize


class LoweringContext:
    """What handlers need: device allocation and tensor creation (:class:`frontend.runner.ModelRunner` implements it)."""

    def alloc(self, name: str, shape, dtype) -> DTensor:  # pragma: no cover - interface
        raise NotImplementedError

    def view(self, src: DTensor, name: str, shape, strides=None) -> DTensor:  # pragma: no cover
        raise NotImplementedError

    def upload(self, name: str, arr: np.ndarray) -> DTensor:  # pragma: no cover
        raise NotImplementedError

    def const(self, name: str) -> np.ndarray | None:  # pragma: no cover
        raise NotImplementedError


def prepare(node: Node, aclnn: str, *args) -> PreparedCall:
    """Phase 1 of ``aclnn`` for ``node`` (arguments in CANN order). Raises
    UnsupportedModelError naming the node when this opsnn lacks the entry point or
    phase 1 fails."""
    if not hasattr(opsnn, aclnn + "GetWorkspaceSize"):
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: {aclnn} is not available in this opsnn")
    try:
        return prepare_call(node.name, node.op_type, aclnn, *args)
    except PrepareError as e:
        raise bad(node, str(e)) from None


def acl_dtype(dtype) -> int:
    """The aclDataType code of a numpy dtype (ValueError when it has none)."""
    return int(from_numpy_dtype(dtype))


def node_acl_dtype(node: Node, dtype) -> int:
    """:func:`acl_dtype` with UnsupportedModelError naming ``node`` when there is none."""
    try:
        return from_numpy_dtype(dtype)
    except ValueError:
        raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: dtype {np.dtype(dtype)} is not "
                                    "supported") from None


def scalar(node: Node, value, dtype) -> object:
    """An aclScalar holding ``value`` as ``dtype``."""
    dt = np.dtype(dtype)
    v = dt.type(value).item() if dt.kind != "b" else bool(value)
    return opsnn.aclCreateScalar(v, node_acl_dtype(node, dt))


def alpha_one(dtype) -> object:
    """aclnnAdd/Sub's alpha = 1 in a dtype the operands accept: INT64 for integer
    tensors (aclnnAdd refuses a FLOAT alpha for them), BOOL for bool, FLOAT otherwise."""
    kind = np.dtype(dtype).kind
    T = opsnn.aclDataType
    if kind in "iu":
        return opsnn.aclCreateScalar(1, T.ACL_INT64)
    if kind == "b":
        return opsnn.aclCreateScalar(True, T.ACL_BOOL)
    return opsnn.aclCreateScalar(1.0, T.ACL_FLOAT)


def const(ctx, name: str):
    """The constant ``name`` (None for an omitted input or a runtime tensor)."""
    return ctx.const(name) if name else None


def numel(shape) -> int:
    """Elements of ``shape`` (a sequence of ints; 1 for a 0-d shape)."""
    return int(math.prod(shape))


def strided_view(src: DTensor, name: str, shape, strides, offset: int = 0) -> DTensor:
    """A strided view (element strides, offset) over ``src``'s contiguous storage."""
    shape = tuple(int(d) for d in shape)
    t = opsnn.aclCreateTensor(shape, node_acl_dtype(Node("view", name, [], []), src.dtype),
                              [int(s) for s in strides], int(offset), ND, (max(numel(src.shape), 1),), src.ptr)
    if t is None:
        raise UnsupportedModelError(f"view {name!r}: {opsnn.aclGetRecentErrMsg()}")
    return DTensor(name, src.ptr, shape, src.dtype, t)


def cast_to(ctx, node: Node, src: DTensor, dtype, out_name: str) -> tuple[DTensor, PreparedCall]:
    """A new contiguous tensor ``out_name`` holding ``src`` as ``dtype`` (aclnnCast);
    with ``src``'s own dtype this materialises a strided or broadcast view."""
    out = ctx.alloc(out_name, src.shape, dtype)
    return out, prepare(node, "aclnnCast", src.tensor, node_acl_dtype(node, dtype), out.tensor)


def broadcast_shape(node: Node, *shapes) -> tuple[int, ...]:
    """numpy/ONNX broadcast of ``shapes``; UnsupportedModelError if they do not broadcast."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise bad(node, f"input shapes {[list(s) for s in shapes]} do not broadcast") from None
