"""pyACL-style binding: ``from acl_runtime import acl``.

``acl.init()``, ``acl.finalize()``, ``acl.rt.*`` (runtime), ``acl.util.*`` (host
buffers). Values first, status last; nothing raises for a bad argument.
Simulator extension: ``acl.init(chip="tiny")`` picks the chip preset (default
``$NPU_SIM_CHIP`` or ascend910b2); ``timing_only=True`` skips all numbers.
"""
from __future__ import annotations

from .. import constants
from ..constants import *  # noqa: F401,F403  (ACL_SUCCESS, ACL_MEMCPY_HOST_TO_DEVICE, ...)
from ..runtime import runtime
from . import rt, util
from ._wrap import status_only


@status_only
def init(config_path: str | None = None, chip: str | None = None, timing_only: bool = False):
    """aclInit. 100002 if already initialised."""
    try:
        runtime().init(chip, backed=not timing_only)
    except KeyError as e:
        from ..runtime import AclError
        raise AclError(constants.ACL_ERROR_INVALID_PARAM, str(e).strip('"')) from None
    except OSError as e:  # a chip config path that cannot be read
        from ..runtime import AclError
        raise AclError(constants.ACL_ERROR_INVALID_PARAM, f"chip config: {e}") from None


@status_only
def finalize():
    """aclFinalize: finish all work and drop all state."""
    runtime().finalize()


def get_recent_err_msg() -> str:
    """aclGetRecentErrMsg: message of the most recent failure ("" if none)."""
    return runtime().last_error


__all__ = ["init", "finalize", "get_recent_err_msg", "rt", "util", "constants"]
