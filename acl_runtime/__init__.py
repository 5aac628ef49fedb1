"""ACL-style runtime over the simulated device.

Two levels:
  * ``from acl_runtime import acl`` -- pyACL conventions (values first, status last).
  * the Pythonic layer (:mod:`acl_runtime.api`): :class:`Session` context manager,
    numpy in and out, typed exceptions carrying the ACL status code.

Also: :mod:`acl_runtime.acl_base` (aclDataType, aclFormat), :mod:`acl_runtime.launch`
(the interface the aclnn operators in ``opsnn`` use) and :mod:`acl_runtime.profiler`
(host track, kernel records, traces). Running an operator is opsnn's
(``opsnn.run_op``).
"""
from .api import (AclRuntimeError, DeviceArray, Event, InvalidDeviceError, InvalidParamError, KernelError,
                  MemcpyKind, MemoryAccessError, NotInitializedError, OutOfMemoryError, RepeatInitializeError,
                  Session, Stream, SyncTimeoutError)
from .errors import get_recent_err_msg, set_recent_err_msg
from .runtime import AclError, current_chip, runtime

__all__ = ["AclError", "current_chip", "runtime", "AclRuntimeError", "DeviceArray", "Event", "InvalidDeviceError",
           "InvalidParamError", "KernelError", "MemcpyKind", "MemoryAccessError", "NotInitializedError",
           "OutOfMemoryError", "RepeatInitializeError", "Session", "Stream", "SyncTimeoutError",
           "get_recent_err_msg", "set_recent_err_msg"]
