"""``acl.rt``: runtime calls in pyACL's conventions (aclrtXxx -> acl.rt.xxx).

Out-params come first and the status last: ``ptr, ret = acl.rt.malloc(size, policy)``;
calls with nothing to return give ``ret`` alone. Nothing raises for a bad argument;
``acl.get_recent_err_msg()`` gives the message of the last failure.
Status codes: :mod:`acl_runtime.constants`.
"""
from __future__ import annotations

from ..runtime import runtime
from ._wrap import status_only, value_status


@status_only
def set_device(device_id: int):
    """aclrtSetDevice: open device 0 (creates its default stream)."""
    runtime().set_device(device_id)


@status_only
def reset_device(device_id: int):
    """aclrtResetDevice: finish all work on the device."""
    runtime().reset_device(device_id)


@value_status(0)
def malloc(size: int, policy: int = 0):
    """aclrtMalloc -> (ptr, ret). 64 B aligned, size rounded up to 32 B.
    207001 (ACL_ERROR_RT_MEMORY_ALLOCATION) when it does not fit in HBM."""
    return runtime().malloc(size, policy)


@status_only
def free(ptr: int):
    """aclrtFree: release device memory (waits for queued work first)."""
    runtime().free(ptr)


@value_status(0)
def malloc_host(size: int):
    """aclrtMallocHost -> (host_ptr, ret)."""
    return runtime().malloc_host(size)


@status_only
def free_host(ptr: int):
    """aclrtFreeHost."""
    runtime().free_host(ptr)


@status_only
def memcpy(dst: int, dst_max: int, src: int, count: int, kind: int):
    """aclrtMemcpy: synchronous copy of ``count`` bytes (kind: 0 H2H, 1 H2D, 2 D2H, 3 D2D).
    Ordered after work already queued on the default stream."""
    runtime().memcpy(dst, dst_max, src, count, kind, None, sync=True)


@status_only
def memcpy_async(dst: int, dst_max: int, src: int, count: int, kind: int, stream):
    """aclrtMemcpyAsync: enqueue a copy on ``stream``."""
    runtime().memcpy(dst, dst_max, src, count, kind, stream, sync=False)


@status_only
def memset(dev_ptr: int, max_count: int, value: int, count: int):
    """aclrtMemset: ``ret = acl.rt.memset(dev_ptr, max_count, value, count)`` (pyACL
    reference "Function: memset", aclpythondevg_01_0118): set ``count`` bytes to
    ``value & 0xFF``; device memory is filled by a device task the host waits for, host
    memory at once. 100000 if ``count`` > ``max_count`` or the pointer is unknown;
    107030 inside a GLOBAL / THREAD_LOCAL stream capture (which it invalidates)."""
    runtime().memory.memset(dev_ptr, max_count, value, count, None, sync=True)


@status_only
def memset_async(dev_ptr: int, max_count: int, value: int, count: int, stream):
    """aclrtMemsetAsync: ``ret = acl.rt.memset_async(dev_ptr, max_count, value, count,
    stream)`` (pyACL "Function: memset_async", aclpythondevg_01_0119): enqueue the fill
    on ``stream`` (synchronize it to see the bytes); captured on a capturing stream."""
    runtime().memory.memset(dev_ptr, max_count, value, count, stream, sync=False)


@value_status(0)
def create_stream():
    """aclrtCreateStream -> (stream, ret)."""
    return runtime().create_stream()


@value_status(0)
def create_stream_with_config(priority: int, flag: int):
    """aclrtCreateStreamWithConfig -> (stream, ret). ``priority``: 0 (highest) to 7
    (lowest), clamped into that range; the core scheduler serves a higher-priority
    stream's waiting blocks first. ``flag``: ACL_STREAM_FAST_LAUNCH (0x1) etc., no
    effect on simulated time. 207008 past the stream limit, as create_stream."""
    return runtime().streams.create_stream(priority, flag)


@status_only
def destroy_stream(stream):
    """aclrtDestroyStream (finishes the stream's work first)."""
    runtime().destroy_stream(stream)


@value_status(0)
def create_event():
    """aclrtCreateEvent -> (event, ret)."""
    return runtime().create_event()


@value_status(0)
def create_event_with_flag(flag: int):
    """aclrtCreateEventWithFlag -> (event, ret); ``flag``: ACL_EVENT_SYNC and/or
    ACL_EVENT_TIME_LINE (TIME_LINE-only events are not counted against the limit)."""
    return runtime().create_event(flag)


@status_only
def reset_event(event, stream):
    """aclrtResetEvent: forget the event's records once ``stream``'s earlier work is done."""
    runtime().reset_event(event, stream)


@value_status(0)
def query_event_status(event):
    """aclrtQueryEventStatus -> (status, ret): ACL_EVENT_RECORDED_STATUS_COMPLETE (1)
    or ACL_EVENT_RECORDED_STATUS_NOT_READY (0)."""
    return runtime().query_event_status(event)


@value_status(0)
def event_get_timestamp(event):
    """aclrtEventGetTimestamp -> (us, ret): when the latest record completed, in us of
    device time (100000 before a completed record)."""
    return runtime().event_timestamp_us(event)


@status_only
def destroy_event(event):
    """aclrtDestroyEvent."""
    runtime().destroy_event(event)


@status_only
def record_event(event, stream):
    """aclrtRecordEvent: enqueue EVENT_RECORD on ``stream``."""
    runtime().record_event(event, stream)


@status_only
def stream_wait_event(stream, event):
    """aclrtStreamWaitEvent: later tasks on ``stream`` wait for the event's latest
    record (or its next one, if never recorded)."""
    runtime().stream_wait_event(stream, event)


@status_only
def synchronize_stream(stream):
    """aclrtSynchronizeStream. 507046 if the stream can never finish (waits on an
    event nobody records); a failed kernel's error code otherwise."""
    runtime().synchronize_stream(stream)


@status_only
def synchronize_device():
    """aclrtSynchronizeDevice: finish every stream."""
    runtime().synchronize_device()


@status_only
def synchronize_event(event):
    """aclrtSynchronizeEvent: wait for the event's latest record (no-op if never recorded)."""
    runtime().synchronize_event(event)


@value_status(0.0)
def event_elapsed_time(start, end):
    """aclrtEventElapsedTime -> (ms, ret): simulated time between two completed records."""
    return runtime().event_elapsed_time(start, end)


@value_status("")
def get_soc_name():
    """aclrtGetSocName -> (name, ret): the chip preset's name."""
    return runtime().need_device().chip.name


@status_only
def set_sys_param_opt(opt: int, value: int):
    """aclrtSetSysParamOpt(opt, value): set a process-wide runtime parameter
    (aclSysParamOpt: ACL_OPT_DETERMINISTIC 0, ACL_OPT_ENABLE_DEBUG_KERNEL 1,
    ACL_OPT_STRONG_CONSISTENCY 2; values 0 or 1). 100000 for an unknown option or
    value. ACL_OPT_DETERMINISTIC is part of the executor-cache key. Reset by
    acl.finalize."""
    runtime().set_sys_param(opt, value)


@status_only
def ctx_set_sys_param_opt(opt: int, value: int):
    """aclrtCtxSetSysParamOpt: as set_sys_param_opt (the simulator has one context)."""
    runtime().set_sys_param(opt, value)


@value_status(0)
def get_sys_param_opt(opt: int):
    """aclrtGetSysParamOpt(opt) -> (value, ret); 0 if never set."""
    return runtime().get_sys_param(opt)


@value_status(0)
def ctx_get_sys_param_opt(opt: int):
    """aclrtCtxGetSysParamOpt(opt) -> (value, ret)."""
    return runtime().get_sys_param(opt)


@value_status(0)
def get_context():
    """aclrtGetCurrentContext -> (context, ret): the calling thread's context (the
    device's default context unless the thread set another; only that one exists)."""
    return runtime().context.current_context()


@status_only
def set_context(context: int):
    """aclrtSetCurrentContext: bind ``context`` to the calling thread; 100000 for a
    context that does not exist (e.g. kept across acl.finalize)."""
    runtime().context.set_current_context(context)
