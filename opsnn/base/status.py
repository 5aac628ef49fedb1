"""aclnn status codes (CANN aclnn_base.h; DESIGN.md section 5) and the internal error.

Phase-1 and phase-2 code raises :class:`AclnnError`; the ``aclnnXxx`` entry points
catch it, store the message and return the code. There is one recent-error store,
as in CANN: ACL's (:func:`acl_runtime.errors.set_recent_err_msg`), so
:func:`aclGetRecentErrMsg` and ``acl.get_recent_err_msg()`` return the same text
after any failing ACL or aclnn call.
"""
from __future__ import annotations

from acl_runtime.errors import get_recent_err_msg, set_recent_err_msg

ACLNN_SUCCESS = 0
ACLNN_ERR_PARAM_NULLPTR = 161001
ACLNN_ERR_PARAM_INVALID = 161002
ACLNN_ERR_RUNTIME_ERROR = 361001
ACLNN_ERR_INNER = 561000
ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001
ACLNN_ERR_INNER_TILING_ERROR = 561002
ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003
ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101
ACLNN_ERR_INNER_NULLPTR = 561103

STATUS_NAMES = {v: k for k, v in list(globals().items()) if k.startswith("ACLNN_")}


class AclnnError(Exception):
    """An aclnn failure with its status ``code`` and a readable ``message``."""

    def __init__(self, code: int, message: str):
        super().__init__(f"[{code} {STATUS_NAMES.get(code, '')}] {message}")
        self.code = code
        self.message = message


class _RecentErrorAlias:
    """``LAST_ERROR.message``: reads and writes the one ACL store (no store of its own).
    Kept for modules that still assign it; new code calls :func:`set_recent_err_msg`."""

    __slots__ = ()

    @property
    def message(self) -> str:
        return get_recent_err_msg()

    @message.setter
    def message(self, text: str) -> None:
        set_recent_err_msg(text)


LAST_ERROR = _RecentErrorAlias()


def aclGetRecentErrMsg() -> str:  # noqa: N802 (CANN spelling)
    """The message of the most recent ACL or aclnn failure ("" if none)."""
    return get_recent_err_msg()

