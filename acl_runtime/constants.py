"""ACL status codes and enums, spelled as in CANN (acl_base.h / acl_rt.h).

Sources: CANN AscendCL API reference, "aclError" return codes; DESIGN.md section 6.
"""
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_INVALID_DEVICE = 100004
ACL_ERROR_BAD_ALLOC = 200000
ACL_ERROR_RT_PARAM_INVALID = 107000
ACL_ERROR_FEATURE_UNSUPPORTED = 200006  # rule 2 of "aclError": an API the current setup does not support
ACL_ERROR_RT_INVALID_MEMORY_TYPE = 107005
ACL_ERROR_RT_MEMORY_ALLOCATION = 207001
ACL_ERROR_RT_NO_EVENT_RESOURCE = 207007   # rt_error_codes.h: "no event resource"
ACL_ERROR_RT_NO_STREAM_RESOURCE = 207008  # rt_error_codes.h: "no stream resource"
ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046
ACL_ERROR_RT_EVENT_SYNC_TIMEOUT = 507047
ACL_ERROR_RT_AICORE_EXCEPTION = 507015
ACL_ERROR_INTERNAL_ERROR = 500000  # CANN: unrecognised errors are mapped to 500000 ("aclError" reference)
ACL_ERROR_RT_MEMORY_ACCESS = 507899  # [A] simulator-specific: use-after-free / out-of-bounds access

# Per-device resource limits (CANN AscendCL API reference, Atlas A2 training products):
# aclrtCreateStream: 1984 streams per device, the default stream included (CANN 8.3.RC1
# and later; the 8.0 pages said 2048); aclrtCreateEvent: 65535 events per device (CANN
# 8.0), while events made with only ACL_EVENT_TIME_LINE are not limited
# (aclrtCreateEventWithFlag).
MAX_STREAMS_PER_DEVICE = 1984
MAX_EVENTS_PER_DEVICE = 65535

# aclrtCreateEventWithFlag flags (acl_rt.h): ACL_EVENT_TIME_LINE = 0x8 (CANN
# aclrtCreateEventWithFlag doc); ACL_EVENT_SYNC = 0x1 [A: value as in acl_rt.h, not
# confirmed from a document]
ACL_EVENT_SYNC = 0x1
ACL_EVENT_TIME_LINE = 0x8

# aclrtEventRecordedStatus (CANN "aclrtEventRecordedStatus")
ACL_EVENT_RECORDED_STATUS_NOT_READY = 0
ACL_EVENT_RECORDED_STATUS_COMPLETE = 1

# aclrtMemcpyKind
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3

# aclrtMemMallocPolicy
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_HUGE_ONLY = 1
ACL_MEM_MALLOC_NORMAL_ONLY = 2

# aclSysParamOpt (CANN runtime API reference, "aclSysParamOpt"; aclrtSetSysParamOpt /
# aclrtCtxSetSysParamOpt set them, default 0)
ACL_OPT_DETERMINISTIC = 0
ACL_OPT_ENABLE_DEBUG_KERNEL = 1
ACL_OPT_STRONG_CONSISTENCY = 2
SYS_PARAM_OPTS = {ACL_OPT_DETERMINISTIC: "ACL_OPT_DETERMINISTIC", ACL_OPT_ENABLE_DEBUG_KERNEL: "ACL_OPT_ENABLE_DEBUG_KERNEL",
                  ACL_OPT_STRONG_CONSISTENCY: "ACL_OPT_STRONG_CONSISTENCY"}

ERROR_NAMES = {v: k for k, v in list(globals().items()) if k.startswith("ACL_ERROR") or k == "ACL_SUCCESS"}
