"""``acl.mdl``: stream capture and model run instances (CANN 8.x aclmdlRI*) in pyACL's
conventions: aclmdlRIXxx -> ``acl.mdl.ri_xxx``, out-params first, status last, nothing
raises (``acl.get_recent_err_msg()`` has the message of a failure).

  ret = acl.mdl.ri_capture_begin(stream, acl.mdl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
  ...  launches, async copies, events on ``stream`` are recorded, not run ...
  model_ri, ret = acl.mdl.ri_capture_end(stream)
  ret = acl.mdl.ri_execute_async(model_ri, stream)     # one host launch for all tasks
  ret = acl.mdl.ri_destroy(model_ri)

Task groups (CANN 8.x aclmdlRICaptureTaskGrp* / aclmdlRICaptureTaskUpdate*):

  ret = acl.mdl.ri_capture_task_grp_begin(stream)        # inside a capture
  ...  single-operator launches ...
  grp, ret = acl.mdl.ri_capture_task_grp_end(stream)
  ...  after aclmdlRICaptureEnd, on a stream that is not capturing:
  ret = acl.mdl.ri_capture_task_update_begin(stream, grp)
  ...  the same launches with new tensors / scalars (recorded, not run) ...
  ret = acl.mdl.ri_capture_task_update_end(stream)        # the next replay uses them

Rules, modes and status codes: :mod:`acl_runtime.capture`.
"""
from __future__ import annotations

from ..capture import (  # noqa: F401  (re-exported constants)
    ACL_ERROR_RT_CAPTURE_DEPENDENCY, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
    ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, ACL_ERROR_RT_STREAM_CAPTURED, ACL_ERROR_RT_STREAM_NOT_CAPTURED,
    ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, ARENA_COUNTER,
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, ACL_MODEL_RI_CAPTURE_MODE_RELAXED, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, ACL_MODEL_RI_CAPTURE_STATUS_NONE,
    manager)
from ..runtime import runtime
from ._wrap import status_only, value_status


def _m():
    rt = runtime()
    rt.context.need_device()
    return manager(rt)


@status_only
def ri_capture_begin(stream, mode: int = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL):
    """aclmdlRICaptureBegin: tasks issued on ``stream`` are recorded until
    ri_capture_end. 107027 if the stream is already capturing; 100000 for a bad mode."""
    _m().begin(stream, mode)


@value_status(0)
def ri_capture_end(stream):
    """aclmdlRICaptureEnd -> (model_ri, ret). 107029 if ``stream`` is not capturing,
    107036 if it joined a capture begun on another stream, 507903 if the capture was
    invalidated (the instance is dropped)."""
    return _m().end(stream)


@value_status((ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0))
def _get_info(stream):
    return _m().get_info(stream)


def ri_capture_get_info(stream):
    """aclmdlRICaptureGetInfo -> (status, model_ri, ret); model_ri is 0 when the stream
    is not capturing (status ACL_MODEL_RI_CAPTURE_STATUS_NONE)."""
    (status, ri), ret = _get_info(stream)
    return status, ri, ret


@status_only
def ri_execute_async(model_ri: int, stream):
    """aclmdlRIExecuteAsync: submit every captured task (the capture stream's tasks on
    ``stream``); the host pays one launch. 100000 for a destroyed or unknown model_ri."""
    _m().execute_async(model_ri, stream)


@status_only
def ri_execute(model_ri: int, timeout: int = -1):
    """aclmdlRIExecute: run the instance on the default stream and wait for it
    (``timeout`` in ms is accepted and ignored: the simulator never hangs silently)."""
    _m().execute(model_ri, None)


@status_only
def ri_destroy(model_ri: int):
    """aclmdlRIDestroy (100000 for a destroyed or unknown model_ri)."""
    _m().destroy(model_ri)


@status_only
def ri_capture_task_grp_begin(stream):
    """aclmdlRICaptureTaskGrpBegin(aclrtStream stream): the launches issued on the
    capturing ``stream`` until ri_capture_task_grp_end form a task group. 107029 if the
    stream is not capturing, 107000 if a group is already open."""
    _m().group_begin(stream)


@value_status(0)
def ri_capture_task_grp_end(stream):
    """aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle) -> (handle,
    ret). 107029 if the stream is not capturing, 107000 without an open group on it."""
    return _m().group_end(stream)


@status_only
def ri_capture_task_update_begin(stream, handle: int):
    """aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle): tasks
    issued on ``stream`` (not capturing) replace the group's at update end. 107027 on a
    capturing stream, 100000 for an unknown group or a destroyed instance."""
    _m().update_begin(stream, handle)


@status_only
def ri_capture_task_update_end(stream):
    """aclmdlRICaptureTaskUpdateEnd(aclrtStream stream). 107000 without an update begun
    on ``stream`` or when the count or types of the tasks differ from the group's."""
    _m().update_end(stream)


@status_only
def ri_set_arena_use(model_ri: int, per_kernel):
    """Simulator extension (no CANN call): bytes of memory in use while each captured
    kernel runs, plus one entry for after the last; replays sample them on the counter
    track ``ARENA_COUNTER``. 100000 for a bad instance or length."""
    _m().set_arena_use(model_ri, list(per_kernel))


def ri_task_count(model_ri: int) -> int:
    """Simulator extension: tasks captured in ``model_ri`` (0 for a bad instance)."""
    try:
        return len(_m().model(model_ri).tasks)
    except Exception:  # noqa: BLE001 - the binding never raises
        return 0


@status_only
def ri_debug_print(model_ri: int):
    """aclmdlRIDebugPrint: print the instance's tasks, one a line."""
    print(_m().model(model_ri).describe())


__all__ = ["ri_capture_begin", "ri_capture_end", "ri_capture_get_info", "ri_execute_async", "ri_execute",
           "ri_destroy", "ri_debug_print", "ri_capture_task_grp_begin", "ri_capture_task_grp_end",
           "ri_capture_task_update_begin", "ri_capture_task_update_end", "ri_set_arena_use", "ri_task_count"]
