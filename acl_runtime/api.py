"""The Pythonic layer, in one namespace: ``from acl_runtime.api import Session, ...``.

Its parts live in their own modules:

* :mod:`acl_runtime.errors` -- the typed exceptions (``.code`` = the ACL status);
* :mod:`acl_runtime.handles` -- :class:`MemcpyKind`, :class:`Stream`, :class:`Event`;
* :mod:`acl_runtime.device_array` -- :class:`DeviceArray`;
* :mod:`acl_runtime.session` -- :class:`Session` (context manager, numpy in and out).

Operators are the layer above: ``opsnn.run_op`` runs an aclnn op's two phases on
DeviceArrays and raises ``opsnn.OpError``.
"""
from __future__ import annotations

from .device_array import DeviceArray, register_tensor_view
from .errors import (ERROR_CLASSES, AclRuntimeError, InvalidDeviceError, InvalidParamError, KernelError,
                     MemoryAccessError, NotInitializedError, OutOfMemoryError, RepeatInitializeError, SyncTimeoutError,
                     error_from_code)
from .handles import Event, MemcpyKind, Stream
from .session import Session, active_session

__all__ = [
    "AclRuntimeError", "InvalidParamError", "NotInitializedError", "RepeatInitializeError", "InvalidDeviceError",
    "OutOfMemoryError", "SyncTimeoutError", "MemoryAccessError", "KernelError", "ERROR_CLASSES",
    "error_from_code", "MemcpyKind", "Session", "DeviceArray", "Stream", "Event", "active_session",
    "register_tensor_view",
]
