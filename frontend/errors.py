"""The frontend's exceptions.

* :class:`UnsupportedModelError` -- the model uses something the frontend cannot run
  (an op, attribute, dtype or dynamic shape); the message names the op and node.
* :class:`PrepareError` -- an aclnn phase 1 (``aclnnXxxGetWorkspaceSize``) returned a
  status other than ACLNN_SUCCESS; callers turn it into their own error (the lowering
  into UnsupportedModelError, the workloads into ``opsnn.OpError``).
* :class:`DeviceError` -- an ACL runtime call (``acl.rt.*``) or an aclnn phase 2 call
  returned a failure status while a program ran.

Each carries the status ``code`` and the ``message`` of ``acl.get_recent_err_msg()`` /
``aclGetRecentErrMsg()`` at the time of the failure.
"""
from __future__ import annotations

import re

from acl_runtime.constants import ACL_ERROR_RT_MEMORY_ALLOCATION


class UnsupportedModelError(Exception):
    """The model uses something the frontend cannot run; the message names the op and node."""


class PrepareError(Exception):
    """A failed aclnn phase 1: ``code`` is the aclnn status (e.g. 161002
    ACLNN_ERR_PARAM_INVALID, 561002 for a shape the chip cannot tile), ``aclnn`` the
    entry point and ``message`` the ``aclGetRecentErrMsg()`` text."""

    def __init__(self, code: int, aclnn: str, message: str):
        super().__init__(f"{aclnn}GetWorkspaceSize failed: {message}")
        self.code = code
        self.aclnn = aclnn
        self.message = message


class DeviceError(Exception):
    """A failed ACL runtime or aclnn phase-2 call: ``code`` is its status (ACL codes as
    in CANN's "aclError" reference, e.g. 207001 ACL_ERROR_RT_MEMORY_ALLOCATION, 507015
    ACL_ERROR_RT_AICORE_EXCEPTION; aclnn codes 161xxx/361xxx/561xxx). ``str(err)`` is
    ``"[code NAME] message"``, as the runtime formats its own errors."""

    def __init__(self, code: int, message: str, name: str = ""):
        text = message if message.startswith(f"[{code}") else f"[{code} {name}] {message}"
        super().__init__(text)
        self.code = code
        self.message = message


_OOM = re.compile(r"asked (\d+) B, (\d+) B free of (\d+) B")


def readable_device_error(err: DeviceError, chip_name: str) -> str:
    """``str(err)``, except that an out-of-device-memory failure (207001
    ACL_ERROR_RT_MEMORY_ALLOCATION, raised by ``acl_runtime.memory`` when an
    ``aclrtMalloc`` finds no free range) is said in MiB against the chip's HBM, with
    what to change, and the runtime's status kept at the end."""
    m = _OOM.search(err.message) if err.code == ACL_ERROR_RT_MEMORY_ALLOCATION else None
    if m is None:
        return str(err)
    asked, free, total = (int(v) / 2**20 for v in m.groups())
    return (f"out of device memory: the run does not fit in chip {chip_name}'s {total:,.1f} MiB of HBM "
            f"(an allocation of {asked:,.1f} MiB found {free:,.1f} MiB free); use a smaller batch or sequence, "
            f"or a chip config with a larger hbm_bytes  [{err.code} ACL_ERROR_RT_MEMORY_ALLOCATION]")
