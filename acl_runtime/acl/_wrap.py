"""Turn Runtime exceptions into pyACL-style returns: values first, status last."""
from __future__ import annotations

import functools

from .. import constants as C
from ..runtime import AclError, runtime


def status_only(fn):
    """Wrap ``fn`` to return an ACL status (0 on success); never raises for bad input."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            fn(*args, **kwargs)
            return C.ACL_SUCCESS
        except AclError as e:
            runtime().last_error = str(e)
            return e.code
        except (TypeError, ValueError) as e:
            runtime().last_error = f"[{C.ACL_ERROR_INVALID_PARAM}] {fn.__name__}: {e}"
            return C.ACL_ERROR_INVALID_PARAM
    return wrapper


def value_status(default):
    """Wrap ``fn`` to return ``(value, status)``; on failure ``(default, code)``."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return fn(*args, **kwargs), C.ACL_SUCCESS
            except AclError as e:
                runtime().last_error = str(e)
                return default, e.code
            except (TypeError, ValueError) as e:
                runtime().last_error = f"[{C.ACL_ERROR_INVALID_PARAM}] {fn.__name__}: {e}"
                return default, C.ACL_ERROR_INVALID_PARAM
        return wrapper
    return deco
