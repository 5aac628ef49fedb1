"""Views of device memory for functional bodies, from tensor metadata + an address."""
from __future__ import annotations

import numpy as np

from npu_sim.program import MemoryAccess

from .tensor import aclTensor


def tensor_view(mem: MemoryAccess, addr: int, t: aclTensor, writable: bool = True) -> np.ndarray:
    """numpy view of tensor ``t`` stored at device address ``addr`` (honours the
    view's strides and offset; raises DeviceMemoryError on a bad address). An input
    the body only reads passes ``writable=False``: the view may be read-only, and a
    weight shared with its host bytes is then not copied
    (:meth:`npu_sim.device_memory.DeviceMemory.array`)."""
    item = t.itemsize
    strides = None if t.is_contiguous else tuple(s * item for s in t.view_strides)
    if writable:
        return mem.array(addr + t.view_offset * item, t.view_shape, t.np_dtype, strides)
    return mem.array(addr + t.view_offset * item, t.view_shape, t.np_dtype, strides, writable=False)


def write_out(mem: MemoryAccess, addr: int, t: aclTensor, value: np.ndarray) -> None:
    """Store ``value`` (any float dtype) into output tensor ``t`` at ``addr``, cast to its dtype."""
    value = np.asarray(value)
    if value.dtype.kind not in "biuf" and np.dtype(t.np_dtype).kind in "iu":
        # ml_dtypes (bfloat16, fp8) saturate when cast to integers; go through fp32 so
        # integer outputs wrap as numpy's float -> int conversion does (and the golden)
        value = value.astype(np.float32)
    tensor_view(mem, addr, t)[...] = value.astype(t.np_dtype, copy=False)
