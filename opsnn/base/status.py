"""aclnn status codes (CANN aclnn_base.h; DESIGN.md section 5) and the internal error.

Phase-1 and phase-2 code raises :class:`AclnnError`; the ``aclnnXxx`` entry points
catch it, remember the message (``opsnn.aclGetRecentErrMsg()``) and return the code.
"""
from __future__ import annotations

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


class _LastError:
    message = ""


LAST_ERROR = _LastError()


def aclGetRecentErrMsg() -> str:  # noqa: N802 (CANN spelling)
    """The message of the most recent aclnn failure ("" if none)."""
    return LAST_ERROR.message
