"""ACL-style runtime over the simulated device.

Two levels:
  * ``from acl_runtime import acl`` -- pyACL conventions (values first, status last).
  * the Pythonic layer (:mod:`acl_runtime.api`): :class:`Session` context manager,
    numpy in and out, typed exceptions carrying the ACL/aclnn status code.
"""
from .api import (AclRuntimeError, DeviceArray, Event, InvalidDeviceError, InvalidParamError, KernelError,
                  MemcpyKind, MemoryAccessError, NotInitializedError, OpError, OutOfMemoryError,
                  RepeatInitializeError, Session, Stream, SyncTimeoutError, run_op)
from .runtime import AclError, current_chip, runtime

__all__ = ["AclError", "current_chip", "runtime", "AclRuntimeError", "DeviceArray", "Event", "InvalidDeviceError",
           "InvalidParamError", "KernelError", "MemcpyKind", "MemoryAccessError", "NotInitializedError", "OpError",
           "OutOfMemoryError", "RepeatInitializeError", "Session", "Stream", "SyncTimeoutError", "run_op"]
