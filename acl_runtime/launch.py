"""The launch interface opsnn uses: the aclnn -> runtime boundary.

In CANN an aclnn operator reaches the device through a few runtime calls -- which
SoC it runs on, the kernel launch (``rtKernelLaunch``), the context's
deterministic setting -- and reads nothing else of the runtime. This module is
that boundary for ``opsnn``; nothing in opsnn reads runtime attributes.

* :func:`current_chip` -- the current device's ChipConfig, or AclError when there
  is none (opsnn turns it into 361001 ACLNN_ERR_RUNTIME_ERROR);
  :func:`device_chip` -- the same, None instead of the error (the phase-2 fast path);
* :func:`deterministic` -- the ACL_OPT_DETERMINISTIC value (part of the executor
  cache key);
* :func:`check_kernel` -- AclError if the chip cannot run a ``KernelSpec``;
* :func:`charge_prepare` -- charge a phase-1 call to the host clock, with its span;
* :func:`launch_prepared` -- phase 2: queue the kernels, one host launch each.

All raise :class:`acl_runtime.errors.AclError` (re-exported here).

Threads: :func:`serialized` (the runtime lock, :mod:`acl_runtime.lock`) wraps
opsnn's two phases, so phase 1 (which reads the device and the executor cache)
and phase 2 (which queues kernels) of different threads never interleave;
:func:`launch_prepared` expects its caller to hold that lock.
"""
from __future__ import annotations

from .errors import AclError
from .lock import RUNTIME_LOCK, serialized
from .runtime import runtime
from .sanitizer import SANITIZER

_RT = runtime()
_CTX = _RT.context      # reset in place by aclFinalize, never replaced
_QUEUE = _RT.launcher


def current_chip():
    """The current device's ``npu_sim.ChipConfig``. Raises AclError (100001 before
    aclInit, 100004 before aclrtSetDevice)."""
    return _CTX.need_device().chip


def device_chip():
    """The current device's ChipConfig, or None when no device is set."""
    dev = _CTX.device
    return None if dev is None else dev.chip


def deterministic() -> int:
    """The ACL_OPT_DETERMINISTIC system parameter (0 or 1; 0 when never set)."""
    return _CTX.deterministic


def charge_prepare(name: str, dur_ns: float, args: dict | None = None) -> None:
    """Charge a phase-1 call of ``dur_ns`` ns (``host_clock.prepare_cost_ns``, or the
    cache-hit cost) to the host clock and record its span ``name`` with ``args`` on
    the host track (no flow: phase 1 enqueues nothing)."""
    _RT.profiler.charge(name, dur_ns, args)


#: ``check_kernel(spec)``: raise AclError (100000) if the current chip cannot run
#: ``spec`` (a buffer over capacity, no blocks, no cores of its type; 100001/100004
#: without a device). Phase 1 calls it so that phase 2 never has to.
check_kernel = _QUEUE.check_kernel

#: ``launch_prepared(stream, kernels, launch_args, name, addrs, workspace, ranges=None)``:
#: phase 2's runtime half. Per kernel: charge one ``aclnn_launch`` (host_clock), record
#: the host span ``name`` with that kernel's ``launch_args`` entry and a flow to the
#: device task, and queue the kernel bound to ``addrs`` (slot addresses) and
#: ``workspace`` (a device address or 0). Raises AclError for a stream that does not
#: exist or without a device. The queue's bound method itself (the phase-2 hot path):
#: the caller holds :data:`RUNTIME_LOCK`, as opsnn's ``execute`` does (``serialized``).
launch_prepared = _QUEUE.launch_prepared

#: the stream sanitizer (:mod:`acl_runtime.sanitizer`): while ``SANITIZER.enabled``,
#: phase 2 passes ``ranges=(reads, writes, workspace)`` to ``launch_prepared``.
__all__ = ["AclError", "serialized", "RUNTIME_LOCK", "current_chip", "device_chip", "deterministic",
           "check_kernel", "charge_prepare", "launch_prepared", "SANITIZER"]
