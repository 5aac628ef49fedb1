"""pyACL-style binding: ``from acl_runtime import acl``.

``acl.init()``, ``acl.finalize()``, ``acl.rt.*`` (runtime), ``acl.util.*`` (host
buffers), ``acl.mdl.ri_*`` (stream capture, aclmdlRI*). Values first, status last; nothing raises for a bad argument.
Simulator extension: ``acl.init(chip="tiny")`` picks the chip preset (default
``$NPU_SIM_CHIP`` or ascend910b2, validated at init); ``timing_only=True`` skips
all numbers. Numpy integers are accepted wherever an int is expected; bools and
floats are refused.
"""
from __future__ import annotations

from .. import constants
from ..constants import *  # noqa: F401,F403  (ACL_SUCCESS, ACL_MEMCPY_HOST_TO_DEVICE, ...)
from ..errors import get_recent_err_msg as _recent
from ..runtime import runtime
from . import mdl, rt, util
from ._wrap import status_only


@status_only
def init(config_path: str | None = None, chip=None, timing_only: bool = False):
    """aclInit. ``chip`` (simulator extension): preset name, ``.json``/``.yaml`` path or
    ChipConfig; None means ``$NPU_SIM_CHIP`` if set, else ascend910b2. 100002 if
    already initialised; 100000 (with the reason: unknown name, wrong type, unreadable
    file, YAML/JSON syntax, pydantic validation; naming NPU_SIM_CHIP when the chip
    came from it) when the chip is not usable. ``config_path`` is accepted and ignored."""
    runtime().init(chip, backed=not timing_only)


@status_only
def finalize():
    """aclFinalize: finish all work and drop all state."""
    runtime().finalize()


def get_recent_err_msg() -> str:
    """aclGetRecentErrMsg: message of the most recent failure of an ACL call or an aclnn
    operator ("" if none). One store serves both, as in CANN (acl_runtime.errors)."""
    return _recent()


__all__ = ["init", "finalize", "get_recent_err_msg", "rt", "util", "mdl", "constants"]
