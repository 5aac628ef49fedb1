"""The two entry-point shapes every operator shares.

``prepare(op_name, build, ...)`` runs a phase-1 builder and turns its outcome into
CANN's ``(workspace_size, executor, status)``; ``execute(...)`` is the phase-2 body
common to all ops: check the executor, bind addresses, hand kernels to the stream.
Phase 2 does no validation of shapes or dtypes and no tiling: that is phase 1's job.
"""
from __future__ import annotations

from typing import Callable

from acl_runtime.runtime import AclError, runtime
from npu_sim import Device  # noqa: F401  (type reference only)

from .executor import aclOpExecutor, make_launches
from .status import (ACLNN_ERR_INNER, ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, ACLNN_ERR_RUNTIME_ERROR,
                     ACLNN_SUCCESS, LAST_ERROR, AclnnError)


def _fail(code: int, msg: str) -> int:
    LAST_ERROR.message = msg if msg.startswith("[") else f"[{code}] {msg}"
    return code


def prepare(op_name: str, build: Callable[..., aclOpExecutor], *args, **kwargs):
    """Run phase 1. ``build(chip, *args)`` validates, infers shapes, tiles and returns
    an executor (or raises AclnnError). Returns ``(workspace_size, executor, status)``;
    on failure ``(0, None, code)`` with the message in ``aclGetRecentErrMsg()``."""
    rt = runtime()
    try:
        chip = rt.need_device().chip
    except AclError as e:
        return 0, None, _fail(ACLNN_ERR_RUNTIME_ERROR, f"aclnn{op_name}GetWorkspaceSize: {e.message}")
    try:
        ex = build(chip, *args, **kwargs)
    except AclnnError as e:
        return 0, None, _fail(e.code, str(e))
    except (TypeError, ValueError, AttributeError) as e:  # malformed arguments: report, never crash
        return 0, None, _fail(ACLNN_ERR_PARAM_INVALID, f"aclnn{op_name}GetWorkspaceSize: bad argument: {e}")
    rt.host_span("aclnn_prepare", f"aclnn{op_name}GetWorkspaceSize", {"workspace": ex.workspace_size})
    return ex.workspace_size, ex, ACLNN_SUCCESS


def execute(op_name: str, workspace: int, workspace_size: int, executor: aclOpExecutor | None, stream) -> int:
    """Run phase 2 for any op. Status: 161001 null executor or missing address,
    161002 misuse (released, destroyed, workspace too small, wrong op),
    361001 runtime failure (bad stream, kernel refused by the chip)."""
    name = f"aclnn{op_name}"
    if executor is None:
        return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{name}: executor is null")
    if not isinstance(executor, aclOpExecutor):
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor is not an aclOpExecutor")
    if executor.op_name != op_name:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor was prepared by aclnn{executor.op_name}")
    if executor.destroyed:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor was destroyed")
    if executor.runs and not executor.repeatable:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor already ran once and is not repeatable "
                                              "(call aclSetAclOpExecutorRepeatable after phase 1 to reuse it)")
    need = executor.workspace_size
    if need:
        if not isinstance(workspace_size, int) or workspace_size < need:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: workspace of {workspace_size} B is smaller than the "
                                                  f"{need} B phase 1 asked for")
        if not workspace:
            return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{name}: workspace address is null but {need} B are needed")
    addrs = executor.slot_addrs()
    if 0 in addrs:
        i = addrs.index(0)
        kind = "input" if i < len(executor.inputs) else "output"
        j = i if kind == "input" else i - len(executor.inputs)
        return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{name}: {kind} {j} has no device address")
    rt = runtime()
    executor.runs += 1
    try:
        for launch in make_launches(executor, addrs, workspace or 0):
            rt.launch_kernel(stream, launch, executor.info or None)
    except AclError as e:
        return _fail(ACLNN_ERR_RUNTIME_ERROR, f"{name}: {e}")
    except Exception as e:  # noqa: BLE001 - never crash the caller
        return _fail(ACLNN_ERR_INNER, f"{name}: internal error: {e!r}")
    return ACLNN_SUCCESS
