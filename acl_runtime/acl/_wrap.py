"""Turn Runtime exceptions into pyACL-style returns: values first, status last.

Nothing escapes a wrapped call (the binding layer never raises for a bad argument):

* :class:`AclError` -> its own code and message;
* ``TypeError`` / ``ValueError`` -> ACL_ERROR_INVALID_PARAM (100000);
* ``MemoryError`` (host memory exhausted) -> ACL_ERROR_BAD_ALLOC (200000);
* anything else -> ACL_ERROR_INTERNAL_ERROR (500000; CANN maps unrecognised errors
  there, "aclError" reference), the message naming the exception type.

The message goes to the calling thread's recent-error store (``acl.get_recent_err_msg()``).
Every wrapped call runs under the runtime lock (:mod:`acl_runtime.lock`): the
binding is safe to call from many threads.
"""
from __future__ import annotations

import functools

from .. import constants as C
from ..errors import AclError, set_recent_err_msg
from ..lock import RUNTIME_LOCK


def error_status(fn_name: str, e: BaseException) -> int:
    """Record the message for ``e`` raised inside ``fn_name`` and return its status."""
    if isinstance(e, AclError):
        set_recent_err_msg(str(e))
        return e.code
    if isinstance(e, (TypeError, ValueError)):
        code, what = C.ACL_ERROR_INVALID_PARAM, ""
    elif isinstance(e, MemoryError):
        code, what = C.ACL_ERROR_BAD_ALLOC, "MemoryError: "
    else:
        code, what = C.ACL_ERROR_INTERNAL_ERROR, f"unexpected {type(e).__name__}: "
    set_recent_err_msg(f"[{code} {C.ERROR_NAMES.get(code, '')}] {fn_name}: {what}{e}")
    return code


def status_only(fn):
    """Wrap ``fn`` to return an ACL status (0 on success); never raises."""
    acquire, release = RUNTIME_LOCK.acquire, RUNTIME_LOCK.release   # (as lock.serialized: no `with`)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            acquire()
            try:
                fn(*args, **kwargs)
            finally:
                release()
            return C.ACL_SUCCESS
        except Exception as e:  # noqa: BLE001 - the binding never raises
            return error_status(fn.__name__, e)
    return wrapper


def value_status(default):
    """Wrap ``fn`` to return ``(value, status)``; on failure ``(default, code)``."""
    def deco(fn):
        acquire, release = RUNTIME_LOCK.acquire, RUNTIME_LOCK.release

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                acquire()
                try:
                    return fn(*args, **kwargs), C.ACL_SUCCESS
                finally:
                    release()
            except Exception as e:  # noqa: BLE001 - the binding never raises
                return default, error_status(fn.__name__, e)
        return wrapper
    return deco
