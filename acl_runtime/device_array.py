"""DeviceArray: a device buffer with a shape and a numpy dtype, in and out of numpy.

The operator layer above (opsnn) turns a DeviceArray into its tensor type; the
runtime only keeps the object it made (:attr:`DeviceArray.tensor`) and tells it
when the buffer is freed. The hook is :func:`register_tensor_view`, so this layer
imports nothing above it.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import constants as C
from .errors import InvalidParamError, raising
from .handles import Stream, stream_handle
from .runtime import runtime

if TYPE_CHECKING:
    from .session import Session

#: (make, release) registered by the operator layer: ``make(array)`` returns the tensor
#: over a DeviceArray, ``release(tensor)`` is called when the array is freed
_TENSOR_VIEW: tuple[Callable[["DeviceArray"], Any], Callable[[Any], None]] | None = None


def register_tensor_view(make: Callable[["DeviceArray"], Any], release: Callable[[Any], None]) -> None:
    """Install how :attr:`DeviceArray.tensor` is made (``make(array)``, called once per
    array) and what to do with it when the array is freed (``release(tensor)``).
    ``opsnn`` registers aclTensor creation when it is imported."""
    global _TENSOR_VIEW
    _TENSOR_VIEW = (make, release)


class DeviceArray:
    """A device buffer with a shape and a numpy dtype (always C-contiguous).

    Made by :meth:`Session.to_device` / :meth:`Session.empty`. ``ptr`` is the device
    address (64 B aligned), ``nbytes`` the array's bytes (the allocation is rounded up
    to 32 B, and is at least 32 B for an empty array). Valid until :meth:`free` or the
    end of its session.
    """

    def __init__(self, session: "Session", ptr: int, shape: tuple[int, ...], dtype: np.dtype):
        self.session = session
        self.ptr = ptr
        self.shape = shape
        self.dtype = dtype
        self._tensor = None
        self._freed = False

    @property
    def nbytes(self) -> int:
        """Bytes of the array's elements (``prod(shape) * itemsize``, Python ints)."""
        return math.prod(self.shape) * self.dtype.itemsize

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def _check(self) -> None:
        self.session._check_open()
        if self._freed:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"device array at {self.ptr:#x} was freed")

    @property
    def tensor(self):
        """The operator layer's tensor over this buffer (with opsnn loaded: an ND,
        contiguous ``aclTensor``, ``opsnn.as_tensor``), made on first use and kept.
        The runtime knows no tensor type: opsnn registers how to make one
        (:func:`register_tensor_view`). Raises InvalidParamError (100000) if no
        operator layer is loaded, or what the operator layer raises (opsnn.OpError)."""
        self._check()
        if self._tensor is None:
            if _TENSOR_VIEW is None:
                raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, "DeviceArray.tensor needs an operator layer: "
                                                                 "import opsnn (or call opsnn.as_tensor)")
            self._tensor = _TENSOR_VIEW[0](self)
        return self._tensor

    def numpy(self, *, stream: Stream | None = None) -> np.ndarray:
        """Copy back to a new host array. Blocking: with ``stream`` None an aclrtMemcpy
        ordered after the default stream's work; otherwise an aclrtMemcpyAsync on
        ``stream`` followed by its synchronization. Not available in timing-only mode."""
        self._check()
        if not self.session._backed:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM,
                                    "a timing_only session holds no data: numpy() has nothing to return")
        out = np.empty(self.shape, self.dtype)
        self.session.memcpy(out, self, stream=stream)
        if stream is not None:
            stream.synchronize()
        return out

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def copy_from(self, array: np.ndarray, *, stream: Stream | None = None) -> None:
        """Overwrite the buffer with ``array`` (same shape and dtype): blocking when
        ``stream`` is None, else an async copy on ``stream`` (the host data is read at
        enqueue)."""
        self._check()
        try:
            array = np.asarray(array)
        except Exception as e:  # noqa: BLE001 - ragged lists and the like
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"copy_from: not array-like: "
                                                             f"{type(e).__name__}: {e}") from None
        if array.shape != self.shape or array.dtype != self.dtype:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"copy_from: got {array.dtype}{list(array.shape)}, "
                                                             f"buffer is {self.dtype}{list(self.shape)}")
        self.session.memcpy(self, array, stream=stream)

    def memset(self, value: int, *, nbytes: int | None = None, stream: Stream | None = None) -> None:
        """aclrtMemset (``stream`` None: blocking) or aclrtMemsetAsync on ``stream``: set
        ``nbytes`` (default all) bytes of the buffer to ``value & 0xFF``
        (``acl_runtime.memory.Memory.memset``). Raises the Session's typed errors
        (InvalidParamError for ``nbytes`` past the buffer or a bad value)."""
        self._check()
        count = self.nbytes if nbytes is None else nbytes
        with raising():
            runtime().memory.memset(self.ptr, self.nbytes, value, count, stream_handle(stream),
                                    sync=stream is None)

    def free(self) -> None:
        """aclrtFree (waits for queued work first). A second free raises InvalidParamError."""
        self.session._check_open()
        with raising():
            runtime().free(self.ptr)
        self._freed = True
        if self._tensor is not None:
            _TENSOR_VIEW[1](self._tensor)

    def __repr__(self) -> str:
        state = " freed" if self._freed else ""
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr={self.ptr:#x}{state})"
