"""Phase-1 checks in ops-nn's fixed order: null pointers, then dtypes, then shapes.

Each raises :class:`AclnnError` with the CANN status code and a message naming the
parameter, so every aclnn entry point reports the same way.
"""
from __future__ import annotations

from typing import Iterable

from .dtypes import aclDataType
from .status import ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, AclnnError
from .tensor import aclTensor

FLOAT_TYPES = (aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16)
FLOAT_TYPES_BF16 = (aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16)


def check_not_null(op: str, **tensors) -> None:
    """161001 if any named tensor (or attribute) is None."""
    for name, t in tensors.items():
        if t is None:
            raise AclnnError(ACLNN_ERR_PARAM_NULLPTR, f"{op}: {name} is null")
        if isinstance(t, aclTensor) and t.destroyed:
            raise AclnnError(ACLNN_ERR_PARAM_NULLPTR, f"{op}: {name} was destroyed")


def check_tensor_type(op: str, **tensors) -> None:
    """161002 if a named argument is not an aclTensor."""
    for name, t in tensors.items():
        if not isinstance(t, aclTensor):
            raise AclnnError(ACLNN_ERR_PARAM_INVALID, f"{op}: {name} must be an aclTensor, got {type(t).__name__}")


def check_dtype(op: str, name: str, t: aclTensor, allowed: Iterable[aclDataType]) -> None:
    """161002 if ``t``'s dtype is not in ``allowed``."""
    allowed = tuple(allowed)
    if t.data_type not in allowed:
        raise AclnnError(ACLNN_ERR_PARAM_INVALID,
                         f"{op}: {name} dtype {t.data_type.name} not supported; expected one of "
                         f"{', '.join(a.name for a in allowed)}")


def check_same_dtype(op: str, **tensors) -> None:
    """161002 unless all named tensors share one dtype."""
    items = list(tensors.items())
    first_name, first = items[0]
    for name, t in items[1:]:
        if t.data_type != first.data_type:
            raise AclnnError(ACLNN_ERR_PARAM_INVALID,
                             f"{op}: {name} dtype {t.data_type.name} differs from {first_name} {first.data_type.name}")


def check_rank(op: str, name: str, t: aclTensor, ranks: Iterable[int]) -> None:
    ranks = tuple(ranks)
    if len(t.view_shape) not in ranks:
        raise AclnnError(ACLNN_ERR_PARAM_INVALID,
                         f"{op}: {name} must be {'/'.join(map(str, ranks))}-D, got shape {list(t.view_shape)}")


def check_shape(op: str, name: str, t: aclTensor, expected: tuple[int, ...]) -> None:
    if tuple(t.view_shape) != tuple(expected):
        raise AclnnError(ACLNN_ERR_PARAM_INVALID,
                         f"{op}: {name} shape {list(t.view_shape)} does not match expected {list(expected)}")


def invalid(op: str, msg: str) -> AclnnError:
    """An AclnnError(161002) to raise: ``raise invalid(op, "...")``."""
    return AclnnError(ACLNN_ERR_PARAM_INVALID, f"{op}: {msg}")


def broadcast_shape(op: str, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """numpy broadcasting of two shapes; 161002 if they do not broadcast."""
    n = max(len(a), len(b))
    a2 = (1,) * (n - len(a)) + tuple(a)
    b2 = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a2, b2):
        if x != y and x != 1 and y != 1:
            raise invalid(op, f"shapes {list(a)} and {list(b)} do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(out)
