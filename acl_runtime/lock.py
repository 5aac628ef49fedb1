"""The runtime lock: every ACL entry point runs under one re-entrant lock.

ACL is called from many host threads. A context is bound to the thread that
creates or sets it, and a thread that never creates one uses the device's default
context (CANN "aclrtSetCurrentContext" / pyACL ``acl.rt.set_context`` reference:
"If aclrtCreateContext is not called to explicitly create a context, the default
context is bound to the calling thread"). The simulator has that one default
context per device, shared by every thread, so its state -- the SimPy
environment, the allocator, the deferred launch queue, the host clock, the
executor cache and pool in opsnn -- is shared too. Rather than many fine-grained
locks, each entry point takes :data:`RUNTIME_LOCK` once at the boundary:

* the pyACL-style binding (``acl_runtime.acl._wrap``: every wrapped call);
* the Pythonic layer (``acl_runtime.errors.raising``, around every runtime call);
* the aclnn boundary (``acl_runtime.launch.serialized``, used by opsnn's two phases).

It is re-entrant, so a call made under it (a Session method calling the runtime,
run_op calling both phases) takes it again without blocking. The per-thread
state ACL has -- the recent-error message (aclGetRecentErrMsg is per thread) and
the current context binding -- lives in thread-locals (``acl_runtime.errors``,
``acl_runtime.context``).
"""
from __future__ import annotations

import functools
import threading

#: the one lock around every runtime entry point (re-entrant)
RUNTIME_LOCK = threading.RLock()


def serialized(fn):
    """Wrap ``fn`` so that it runs under :data:`RUNTIME_LOCK` (released also when ``fn``
    raises). The lock's bound ``acquire``/``release`` are called directly rather than
    through ``with``: ~80 ns less per call on the phase-2 path (CPython 3.11)."""
    acquire, release = RUNTIME_LOCK.acquire, RUNTIME_LOCK.release

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        acquire()
        try:
            return fn(*args, **kwargs)
        finally:
            release()
    return wrapper


__all__ = ["RUNTIME_LOCK", "serialized"]
