"""ACL failures: the runtime's internal error, the typed exceptions of the Pythonic
layer, and the one recent-error store behind ``aclGetRecentErrMsg``.

* :class:`AclError` is what the runtime methods raise (an ACL status ``code`` and a
  readable message); the binding turns it into a returned status, the Pythonic
  layer into one of the typed exceptions below.
* The typed exceptions (:class:`AclRuntimeError` and subclasses) carry the CANN
  status in ``.code``. Status codes: CANN AscendCL "aclError" reference, as listed
  in ``../shared/DESIGN.md`` section 6.
* The recent-error store: CANN keeps one per thread, written by every failing
  ACL or aclnn call and read by ``aclGetRecentErrMsg`` (the same function serves
  both). Here :func:`set_recent_err_msg` writes it -- the binding, the Pythonic
  layer and the aclnn operators (opsnn) all call it -- and both
  ``acl.get_recent_err_msg()`` and ``opsnn.aclGetRecentErrMsg()`` read it
  (:func:`get_recent_err_msg`). It survives ``acl.finalize`` (it belongs to the
  thread, not to the context).
"""
from __future__ import annotations

import contextlib
import threading
from typing import Any, Iterator

import numpy as np

from . import constants as C
from .lock import RUNTIME_LOCK


class _RecentError(threading.local):
    """One recent-error message per host thread (CANN keeps it per thread)."""

    def __init__(self) -> None:
        self.message = ""


_RECENT = _RecentError()


def set_recent_err_msg(message: str) -> None:
    """Store ``message`` as the calling thread's most recent failure (what
    aclGetRecentErrMsg returns in that thread)."""
    _RECENT.message = message


def get_recent_err_msg() -> str:
    """aclGetRecentErrMsg: the message of the most recent ACL or aclnn failure ("" if none)."""
    return _RECENT.message


class AclError(Exception):
    """An ACL failure inside the runtime: ``code`` is the ACL status, ``str(err)`` a
    readable message ``"[code NAME] message"``."""

    def __init__(self, code: int, message: str):
        super().__init__(f"[{code} {C.ERROR_NAMES.get(code, '')}] {message}")
        self.code = code
        self.message = message


def as_int(value: Any, what: str, code: int = C.ACL_ERROR_INVALID_PARAM, min_value: int | None = None) -> int:
    """``value`` as a Python int: a Python or numpy integer (never a bool). Raises
    AclError(``code``) naming ``what`` and the type otherwise, or when it is below
    ``min_value``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise AclError(code, f"{what} must be an int, got {type(value).__name__} {value!r}")
    v = int(value)
    if min_value is not None and v < min_value:
        bound = {0: "non-negative", 1: "positive"}.get(min_value, f">= {min_value}")
        raise AclError(code, f"{what} must be {bound}, got {v}")
    return v


# ---------------------------------------------------------------------------- typed exceptions


class AclRuntimeError(Exception):
    """A failed ACL runtime call. ``code`` is the ACL status (``ACL_ERROR_*``),
    ``message`` the readable text; ``str(err)`` is ``"[code NAME] message"``."""

    def __init__(self, code: int, message: str):
        super().__init__(f"[{code} {C.ERROR_NAMES.get(code, '')}] {message}")
        self.code = code
        self.message = message


class InvalidParamError(AclRuntimeError):
    """ACL_ERROR_INVALID_PARAM (100000) / ACL_ERROR_RT_PARAM_INVALID (107000): a bad
    argument (size, pointer, kind, handle, double free, unrecorded event...)."""


class NotInitializedError(AclRuntimeError):
    """ACL_ERROR_UNINITIALIZE (100001): no ACL context (no open Session)."""


class RepeatInitializeError(AclRuntimeError):
    """ACL_ERROR_REPEAT_INITIALIZE (100002): ACL is already initialised (sessions do not nest)."""


class InvalidDeviceError(AclRuntimeError):
    """ACL_ERROR_INVALID_DEVICE (100004): no such device, or none set."""


class OutOfMemoryError(AclRuntimeError):
    """ACL_ERROR_RT_MEMORY_ALLOCATION (207001) / ACL_ERROR_BAD_ALLOC (200000): device memory exhausted."""


class SyncTimeoutError(AclRuntimeError):
    """ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046) / ACL_ERROR_RT_EVENT_SYNC_TIMEOUT (507047):
    a synchronization that can never finish (a stream waits on an event nobody records)."""


class MemoryAccessError(AclRuntimeError):
    """507899 (simulator-specific): a kernel or copy touched freed or unallocated device memory."""


class KernelError(AclRuntimeError):
    """ACL_ERROR_RT_AICORE_EXCEPTION (507015): a kernel failed on the device."""


#: ACL status -> exception class; codes not listed raise the base class.
ERROR_CLASSES: dict[int, type[AclRuntimeError]] = {
    C.ACL_ERROR_INVALID_PARAM: InvalidParamError,
    C.ACL_ERROR_RT_PARAM_INVALID: InvalidParamError,
    C.ACL_ERROR_RT_INVALID_MEMORY_TYPE: InvalidParamError,
    C.ACL_ERROR_UNINITIALIZE: NotInitializedError,
    C.ACL_ERROR_REPEAT_INITIALIZE: RepeatInitializeError,
    C.ACL_ERROR_INVALID_DEVICE: InvalidDeviceError,
    C.ACL_ERROR_BAD_ALLOC: OutOfMemoryError,
    C.ACL_ERROR_RT_MEMORY_ALLOCATION: OutOfMemoryError,
    C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT: SyncTimeoutError,
    C.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT: SyncTimeoutError,
    C.ACL_ERROR_RT_MEMORY_ACCESS: MemoryAccessError,
    C.ACL_ERROR_RT_AICORE_EXCEPTION: KernelError,
}


def error_from_code(code: int, message: str) -> AclRuntimeError:
    """The typed exception for ACL status ``code`` (see :data:`ERROR_CLASSES`)."""
    return ERROR_CLASSES.get(code, AclRuntimeError)(code, message)


@contextlib.contextmanager
def raising() -> Iterator[None]:
    """Turn a runtime failure inside the block into its typed exception, and store its
    message (:func:`set_recent_err_msg`): AclError -> its class by code;
    TypeError/ValueError -> InvalidParamError (100000); MemoryError ->
    OutOfMemoryError (200000 ACL_ERROR_BAD_ALLOC); any other exception ->
    AclRuntimeError (500000 ACL_ERROR_INTERNAL_ERROR) naming its type. Typed
    exceptions (AclRuntimeError and subclasses) pass through. The block runs under
    the runtime lock (:mod:`acl_runtime.lock`), so the Pythonic layer is thread-safe."""
    try:
        with RUNTIME_LOCK:
            yield
    except AclRuntimeError:
        raise
    except AclError as e:
        set_recent_err_msg(str(e))
        raise error_from_code(e.code, e.message) from None
    except Exception as e:  # noqa: BLE001 - the Pythonic layer raises only typed exceptions
        if isinstance(e, (TypeError, ValueError)):
            code, text = C.ACL_ERROR_INVALID_PARAM, str(e)
        elif isinstance(e, MemoryError):
            code, text = C.ACL_ERROR_BAD_ALLOC, f"MemoryError: {e}"
        else:
            code, text = C.ACL_ERROR_INTERNAL_ERROR, f"unexpected {type(e).__name__}: {e}"
        err = error_from_code(code, text)
        set_recent_err_msg(str(err))
        raise err from None


__all__ = ["AclError", "as_int", "set_recent_err_msg", "get_recent_err_msg", "AclRuntimeError",
           "InvalidParamError", "NotInitializedError", "RepeatInitializeError", "InvalidDeviceError",
           "OutOfMemoryError", "SyncTimeoutError", "MemoryAccessError", "KernelError", "ERROR_CLASSES",
           "error_from_code", "raising"]
