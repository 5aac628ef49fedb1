"""Helpers shared by the norm/reduce/transform/matmul op tests: per-dtype tolerances,
non-contiguous device views, phase-1 error checks."""
from __future__ import annotations

import ml_dtypes
import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = (np.dtype(np.float32), np.dtype(np.float16), BF16)
#: relative-error bounds by dtype (DESIGN.md section 9)
TOL = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 1e-2, BF16: 1e-2}


def strided_tensor(npu, arr: np.ndarray, pad: int = 3, offset: int = 5):
    """Upload ``arr`` inside a larger buffer and return an aclTensor that views it
    with non-contiguous strides (the last dim padded by ``pad`` elements) and a
    non-zero ``offset``; the view's values equal ``arr``."""
    arr = np.asarray(arr)
    shape = arr.shape if arr.ndim else (1,)
    inner = shape[:-1] + (shape[-1] + pad,)
    base = np.zeros(offset + int(np.prod(inner)), arr.dtype)
    base[offset:].reshape(inner)[..., :shape[-1]] = arr.reshape(shape)
    ptr, _ = npu.to_device(base)
    strides = [s // arr.itemsize for s in np.empty(inner, arr.dtype).strides]
    t = opsnn.aclCreateTensor(arr.shape, from_numpy_dtype(arr.dtype), strides[:arr.ndim] if arr.ndim else [],
                              offset, 2, base.shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return t


def transposed_tensor(npu, arr: np.ndarray):
    """Upload ``arr``'s transpose (last two axes swapped) contiguously and return a
    non-contiguous aclTensor whose view equals ``arr``."""
    base = np.ascontiguousarray(np.swapaxes(arr, -1, -2))
    ptr, _ = npu.to_device(base)
    view = np.swapaxes(base, -1, -2)
    strides = [s // arr.itemsize for s in view.strides]
    t = opsnn.aclCreateTensor(view.shape, from_numpy_dtype(arr.dtype), strides, 0, 2, base.shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return t


def device_tensor(npu, arr: np.ndarray, layout: str = "contiguous"):
    """aclTensor holding ``arr``: "contiguous", "strided" (padded rows + offset) or
    "transposed" (>= 2-D)."""
    if layout == "strided" and np.ndim(arr) >= 1:
        return strided_tensor(npu, arr)
    if layout == "transposed" and np.ndim(arr) >= 2:
        return transposed_tensor(npu, arr)
    return upload(npu, arr)[1]


def expect_error(prep, args, code: int, *fragments: str, **kwargs) -> str:
    """Phase 1 must fail with ``code`` and a message containing every fragment."""
    ws, ex, ret = prep(*args, **kwargs)
    msg = opsnn.aclGetRecentErrMsg()
    assert (ret, ex, ws) == (code, None, 0), msg
    assert msg.startswith(f"[{code}"), msg
    for f in fragments:
        assert f in msg, msg
    return msg


def random_array(rng, shape, dtype, scale: float = 1.0, shift: float = 0.0) -> np.ndarray:
    """Random values of ``dtype``: normal floats, or small integers / booleans."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -20
        return rng.integers(lo, 20, shape).astype(dt)
    return (rng.standard_normal(shape) * scale + shift).astype(dt)


def upload(npu, arr: np.ndarray):
    """(ptr, aclTensor) for ``arr`` with its exact shape, 0-D included (the conftest
    helper goes through ``np.ascontiguousarray``, which turns 0-D into 1-D)."""
    arr = np.asarray(arr)
    if arr.ndim:
        return npu.to_device(arr)
    ptr, _ = npu.to_device(arr.reshape(1))
    t = opsnn.aclCreateTensor((), from_numpy_dtype(arr.dtype), None, 0, 2, (), ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return ptr, t


def empty(npu, shape, dtype):
    """(ptr, aclTensor) of zeros with exactly ``shape`` (0-D included)."""
    return upload(npu, np.zeros(shape, dtype))


def strided_out(npu, shape, dtype, pad: int = 3, offset: int = 5):
    """A non-contiguous output tensor (rows padded by ``pad``, ``offset`` elements in)
    and ``read()`` that returns its view's values from the device."""
    dtype = np.dtype(dtype)
    inner = tuple(shape[:-1]) + (shape[-1] + pad,)
    n = offset + int(np.prod(inner))
    ptr, _ = npu.to_device(np.zeros(n, dtype))
    strides = [s // dtype.itemsize for s in np.empty(inner, dtype).strides]
    t = opsnn.aclCreateTensor(shape, from_numpy_dtype(dtype), strides, offset, 2, (n,), ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()

    def read():
        base = npu.to_host(ptr, (n,), dtype)
        return base[offset:].reshape(inner)[..., :shape[-1]]
    return t, read
