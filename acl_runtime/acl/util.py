"""``acl.util``: host buffer helpers, as in pyACL."""
from __future__ import annotations

import numpy as np

from ..runtime import AclError, runtime


def numpy_to_ptr(array: np.ndarray) -> int:
    """Host pointer (int) of a C-contiguous numpy array; the array stays usable as
    the host side of memcpy calls while it is alive. Returns 0 for a bad argument."""
    try:
        return runtime().register_host(array)
    except AclError as e:
        runtime().last_error = str(e)
        return 0


def ptr_to_numpy(ptr: int, shape: tuple[int, ...], dtype) -> np.ndarray | None:
    """A numpy view of host memory at ``ptr`` (from numpy_to_ptr or malloc_host).
    ``dtype`` is a numpy dtype (pyACL takes an int type code; both are accepted:
    aclDataType codes map to numpy). Returns None for an unknown pointer."""
    from opsnn.base.dtypes import to_numpy_dtype  # acl codes live with the tensor types
    try:
        dt = to_numpy_dtype(dtype) if isinstance(dtype, int) else np.dtype(dtype)
        n = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        return runtime().host_view(ptr, n).view(dt).reshape(shape)
    except (AclError, TypeError, ValueError) as e:
        runtime().last_error = str(e)
        return None
