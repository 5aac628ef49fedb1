"""Running aclnn operators from Python: DeviceArrays in, typed exceptions out.

The runtime's Pythonic layer (``acl_runtime.Session``, ``DeviceArray``) knows no
operators; this module is the operator half of it:

* :class:`OpError` -- a failed aclnn call, carrying its aclnn status (``.code``)
  and the ``aclGetRecentErrMsg()`` text;
* :func:`as_tensor` -- the ND, contiguous ``aclTensor`` over a DeviceArray (also
  what ``DeviceArray.tensor`` returns: this module registers it with the runtime,
  ``acl_runtime.device_array.register_tensor_view``);
* :func:`run_op` -- both phases of one operator, with the workspace provided.

Status codes: CANN ``aclnn_base.h`` (:mod:`opsnn.base.status`).
"""
from __future__ import annotations

from typing import Callable

from acl_runtime.api import DeviceArray, Stream, active_session, register_tensor_view
from acl_runtime.errors import AclRuntimeError, raising
from acl_runtime.launch import serialized
from acl_runtime.handles import stream_handle
from acl_runtime.runtime import runtime

from .base.dtypes import aclFormat, from_numpy_dtype
from .base.status import ACLNN_ERR_PARAM_INVALID, STATUS_NAMES, aclGetRecentErrMsg
from .base.tensor import aclCreateTensor


class OpError(AclRuntimeError):
    """A failed aclnn call: ``code`` is the aclnn status (161001 ACLNN_ERR_PARAM_NULLPTR,
    161002 ACLNN_ERR_PARAM_INVALID, 361001 ACLNN_ERR_RUNTIME_ERROR, 561xxx inner
    errors) and ``message`` the ``aclGetRecentErrMsg()`` text. A subclass of the
    runtime's base exception (``acl_runtime.errors.AclRuntimeError``), so one
    ``except AclRuntimeError`` catches runtime and operator failures alike."""

    def __init__(self, code: int, message: str):
        text = message if message.startswith(f"[{code}") else f"[{code} {STATUS_NAMES.get(code, '')}] {message}"
        Exception.__init__(self, text)   # (aclnn status names, not the ACL ones AclRuntimeError would add)
        self.code = code
        self.message = message


def _make_tensor(array: DeviceArray):
    try:
        code = from_numpy_dtype(array.dtype)
    except ValueError as e:
        raise OpError(ACLNN_ERR_PARAM_INVALID, f"aclCreateTensor: {e}") from None
    t = aclCreateTensor(array.shape, code, None, 0, aclFormat.ACL_FORMAT_ND, array.shape, array.ptr)
    if t is None:
        raise OpError(ACLNN_ERR_PARAM_INVALID, aclGetRecentErrMsg())
    return t


def _release_tensor(tensor) -> None:
    tensor.destroyed = True   # its buffer was freed: ops refuse it (161001)


register_tensor_view(_make_tensor, _release_tensor)


def as_tensor(array: DeviceArray):
    """The ``aclTensor`` (ND format, contiguous, ``array``'s shape, dtype and address)
    over ``array``, made on first use and kept (``array.tensor`` is the same object).
    Raises OpError (161002) if aclCreateTensor refuses the metadata, and the
    runtime's InvalidParamError / NotInitializedError for a freed array or a closed
    session."""
    return array.tensor


@serialized   # both phases and the workspace as one step under the runtime lock (threads)
def run_op(prepare_fn: Callable, launch_fn: Callable, *args, stream: Stream | int | None = None):
    """Run one aclnn operator through both phases and return its executor.

    ``prepare_fn(*args)`` is phase 1 (``aclnnXxxGetWorkspaceSize``; DeviceArray
    arguments are passed as their aclTensor, :func:`as_tensor`) and must return
    ``(workspace_size, executor, status)``; then a workspace of that many bytes is
    provided and ``launch_fn(workspace, workspace_size, executor, stream)``
    (``aclnnXxx``) enqueues the kernels. Asynchronous: synchronize to see the result.

    Workspace: with an open Session, one per-stream buffer reused across ops
    (``Session.workspace``); without one (ACL initialised through the binding), a
    fresh buffer freed right after the launch, which makes the call blocking.

    Raises OpError (the aclnn status and ``aclGetRecentErrMsg()``) if either phase
    fails, OutOfMemoryError if the workspace does not fit.
    """
    if not callable(prepare_fn) or not callable(launch_fn):
        raise OpError(ACLNN_ERR_PARAM_INVALID, "run_op(prepare_fn, launch_fn, *args): both must be aclnn functions "
                                               f"(got {type(prepare_fn).__name__}, {type(launch_fn).__name__})")
    pname = getattr(prepare_fn, "__name__", "")
    lname = getattr(launch_fn, "__name__", "")
    if lname.endswith("GetWorkspaceSize") and not pname.endswith("GetWorkspaceSize"):
        raise OpError(ACLNN_ERR_PARAM_INVALID, f"run_op: phases swapped: give {lname} (phase 1) first, then {pname}")
    args = tuple(a.tensor if isinstance(a, DeviceArray) else a for a in args)
    try:
        ws_size, executor, ret = prepare_fn(*args)
    except (TypeError, ValueError) as e:   # not a phase-1 function, or its arguments do not fit it
        raise OpError(ACLNN_ERR_PARAM_INVALID, f"run_op: phase 1 {pname or prepare_fn!r} must take the operator's "
                                               f"arguments and return (workspace_size, executor, status): {e}") from None
    if ret != 0:
        raise OpError(ret, aclGetRecentErrMsg())
    handle = stream_handle(stream)
    session = active_session()
    if session is not None and not session.is_open:
        session = None
    workspace = 0
    if ws_size:
        if session is not None:
            workspace = session.workspace(ws_size, handle)
        else:
            with raising():
                workspace = runtime().malloc(ws_size)
    try:
        ret = launch_fn(workspace, ws_size, executor, handle)
    finally:
        if workspace and session is None:
            with raising():
                runtime().free(workspace)
    if ret != 0:
        raise OpError(ret, aclGetRecentErrMsg())
    return executor


__all__ = ["OpError", "as_tensor", "run_op"]
