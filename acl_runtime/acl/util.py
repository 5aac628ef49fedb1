"""``acl.util``: host buffer helpers, as in pyACL. Never raise: a bad argument gives
0 / None and a message in ``acl.get_recent_err_msg()``."""
from __future__ import annotations

import math

import numpy as np

from .. import constants as C
from ..acl_base import to_numpy_dtype
from ..errors import AclError, as_int
from ..runtime import runtime
from ._wrap import error_status


def numpy_to_ptr(array: np.ndarray) -> int:
    """Host pointer (int) of a C-contiguous numpy array; the array stays usable as
    the host side of memcpy calls while it is alive. Returns 0 for a bad argument."""
    try:
        return runtime().register_host(array)
    except Exception as e:  # noqa: BLE001 - the binding never raises
        error_status("numpy_to_ptr", e)
        return 0


def _shape(shape) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        raise AclError(C.ACL_ERROR_INVALID_PARAM, f"ptr_to_numpy shape must be a tuple of non-negative ints, "
                                                  f"got {type(shape).__name__} {shape!r}")
    return tuple(as_int(d, f"ptr_to_numpy shape {list(shape)}: dimension", min_value=0) for d in shape)


def _dtype(dtype) -> np.dtype:
    if dtype is None:
        raise AclError(C.ACL_ERROR_INVALID_PARAM, "ptr_to_numpy dtype is required (a numpy dtype or an "
                                                  "aclDataType code); None would mean float64")
    if isinstance(dtype, (bool, np.bool_)):
        raise AclError(C.ACL_ERROR_INVALID_PARAM, f"ptr_to_numpy dtype must be a numpy dtype or an aclDataType "
                                                  f"code, got bool {dtype!r}")
    if isinstance(dtype, (int, np.integer)):
        try:
            return np.dtype(to_numpy_dtype(int(dtype)))
        except (ValueError, KeyError, TypeError) as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"ptr_to_numpy dtype: {int(dtype)} is not an aclDataType "
                                                      f"code with a numpy dtype ({e})") from None
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise AclError(C.ACL_ERROR_INVALID_PARAM, f"ptr_to_numpy dtype {dtype!r} is not a numpy dtype: {e}") from None
    if dt.hasobject:
        raise AclError(C.ACL_ERROR_INVALID_PARAM, f"ptr_to_numpy dtype {dt} holds Python objects: raw host bytes "
                                                  "cannot be viewed as object pointers")
    return dt


def ptr_to_numpy(ptr: int, shape: tuple[int, ...], dtype) -> np.ndarray | None:
    """A numpy view of host memory at ``ptr`` (from numpy_to_ptr or malloc_host).

    ``shape``: non-negative ints (or one int); ``dtype``: a numpy dtype or an
    aclDataType code (pyACL takes an int type code; codes map to numpy). Returns None
    (message in ``acl.get_recent_err_msg()``) for an unknown pointer, a view that runs
    past its buffer, a bad shape, or a missing / object-holding / unknown dtype."""
    try:
        shape = _shape(shape)
        dt = _dtype(dtype)
        n = math.prod(shape) * dt.itemsize     # Python ints: no int64 overflow
        return runtime().host_view(ptr, n).view(dt).reshape(shape)
    except Exception as e:  # noqa: BLE001 - the binding never raises
        error_status("ptr_to_numpy", e)
        return None
