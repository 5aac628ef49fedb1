"""An object pool for executor handles, made safe by CPython reference counts.

Phase 1 hands the caller an ``aclOpExecutor``; a single-use executor is released
by its phase-2 run and a repeatable one by ``aclDestroyAclOpExecutor``. Released
handles go back to this pool and the next phase 1 reuses one instead of
allocating, so a hot ``GetWorkspaceSize`` -> ``aclnnXxx`` loop creates no new
executor objects once warm.

Safety: a caller may still hold a released handle (``ex`` from the previous loop
iteration) and pass it again by mistake; that must keep returning 161002, so a
handle is reused only when nothing outside the pool refers to it any more. The
pool checks this with ``sys.getrefcount`` (a CPython reference count: the free
list, the local name and the call's own argument, calibrated at import), looking
at a few of the most recently released handles. A handle that someone still holds
simply stays in the free list until they drop it. (A ``weakref`` to a handle does
not count as a reference: do not keep executors alive through weak references.)

``executor_pool_stats()`` reports the pool's size and hit rate.
"""
from __future__ import annotations

import sys
from typing import Any

from acl_runtime.env import env_int

_getrefcount = sys.getrefcount

#: released handles kept for reuse, at most [A]: a loop needs 2 (the one the caller
#: still names and the one being reused); a few hundred covers many live streams
DEFAULT_CAPACITY = env_int("NPU_SIM_EXECUTOR_POOL_SIZE", 256, min_value=0)   # a bad value: one line, default
#: how many of the most recently released handles ``take`` inspects
SCAN = 4


def _calibrate() -> int:
    # the same access pattern as HandlePool.take: one list slot + one local + the argument
    free = [object()]
    h = free[-1]
    return _getrefcount(h)


class HandlePool:
    """A free list of released handles with hit/miss counters.

    ``take()`` returns an idle handle (nothing outside the pool refers to it) or
    None; ``give(h)`` returns a released handle. The caller re-initialises a
    taken handle. Counters: ``created`` (pool missed, the caller allocated),
    ``reused`` (hits), ``released`` (handles given back), ``dropped`` (given back
    while the pool was full).
    """

    __slots__ = ("_free", "capacity", "created", "reused", "released", "dropped", "_base")

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._free: list[Any] = []
        self.capacity = max(int(capacity), 0)
        self.created = 0
        self.reused = 0
        self.released = 0
        self.dropped = 0
        self._base = _calibrate()

    def take(self) -> Any | None:
        """An idle released handle, or None (then the caller allocates one)."""
        free = self._free
        n = len(free)
        base = self._base
        i = n - 1
        stop = max(n - SCAN, 0) - 1
        while i > stop:
            h = free[i]
            if _getrefcount(h) <= base:
                if i == n - 1:
                    free.pop()
                else:
                    del free[i]
                self.reused += 1
                return h
            del h
            i -= 1
        self.created += 1
        return None

    def give(self, h: Any) -> None:
        """Give back a handle that just became released or destroyed (exactly once)."""
        self.released += 1
        free = self._free
        if len(free) < self.capacity:
            free.append(h)
        else:
            self.dropped += 1

    def clear(self) -> None:
        self._free.clear()

    def stats(self) -> dict[str, Any]:
        """{free, capacity, created, reused, released, dropped, hit_rate} (hit_rate =
        reused / (reused + created), 0.0 before any phase 1)."""
        total = self.created + self.reused
        return {"free": len(self._free), "capacity": self.capacity, "created": self.created,
                "reused": self.reused, "released": self.released, "dropped": self.dropped,
                "hit_rate": self.reused / total if total else 0.0}

    def reset_stats(self) -> None:
        self.created = self.reused = self.released = self.dropped = 0


#: the process-wide executor handle pool
POOL = HandlePool()


def executor_pool_stats() -> dict[str, Any]:
    """Executor handle pool counters: ``free`` (released handles ready for reuse),
    ``capacity``, ``created`` (handles allocated because none was idle), ``reused``,
    ``released``, ``dropped`` (released while full) and ``hit_rate``."""
    return POOL.stats()
