"""aclTensorList and its create/destroy calls (opbase acl_meta.h).

``aclCreateTensorList(value, size)`` in C takes an array of tensor pointers; the
pyACL-style binding takes a sequence of aclTensor. The list holds metadata only;
each tensor keeps its own device address.
"""
from __future__ import annotations

from ..base.status import ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, ACLNN_SUCCESS, LAST_ERROR
from ..base.tensor import aclTensor


class aclTensorList(tuple):  # noqa: N801 (CANN spelling)
    """An immutable list of aclTensor (aclTensorList)."""

    def __repr__(self) -> str:
        return f"aclTensorList({list(self)!r})"


def _fail(code: int, msg: str):
    LAST_ERROR.message = f"[{code}] {msg}"
    return None


def aclCreateTensorList(value, size=None):  # noqa: N802
    """aclCreateTensorList(value[, size]) -> aclTensorList, or None (message in
    ``aclGetRecentErrMsg()``): 161001 if ``value`` or an element is null, 161002 if an
    element is not an aclTensor or ``size`` disagrees with ``len(value)``."""
    if value is None:
        return _fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensorList: value is null")
    try:
        items = list(value)
    except TypeError:
        return _fail(ACLNN_ERR_PARAM_INVALID,
                     f"aclCreateTensorList: value must be a sequence of aclTensor, got {type(value).__name__}")
    if size is not None and size != len(items):
        return _fail(ACLNN_ERR_PARAM_INVALID, f"aclCreateTensorList: size {size!r} but {len(items)} tensors given")
    for i, t in enumerate(items):
        if t is None:
            return _fail(ACLNN_ERR_PARAM_NULLPTR, f"aclCreateTensorList: tensor {i} is null")
        if not isinstance(t, aclTensor):
            return _fail(ACLNN_ERR_PARAM_INVALID,
                         f"aclCreateTensorList: tensor {i} is a {type(t).__name__}, not an aclTensor")
    return aclTensorList(items)


def aclDestroyTensorList(tensorList) -> int:  # noqa: N802,N803
    """aclDestroyTensorList -> status (161001 for None). The tensors stay alive."""
    if tensorList is None:
        LAST_ERROR.message = f"[{ACLNN_ERR_PARAM_NULLPTR}] aclDestroyTensorList: tensorList is null"
        return ACLNN_ERR_PARAM_NULLPTR
    return ACLNN_SUCCESS
