"""The process-wide ACL runtime: one object that both API levels call.

The pyACL-style binding (``acl_runtime.acl``) and the Pythonic layer
(``acl_runtime.session`` and friends) call :class:`Runtime`; its methods raise
:class:`AclError` (an ACL status code); the binding turns that into a returned
code, the Pythonic layer into a typed exception.

``Runtime`` only assembles the parts, one module per concern, and forwards to them:

========================  =====================================================
``context.Context``       aclInit/aclFinalize, devices, system parameters, host clock
``memory.Memory``         aclrtMalloc/Free, host buffers, aclrtMemcpy(Async)
``streams.Streams``       streams, events, synchronizing calls, elapsed time
``launch_queue``          the deferred launch queue behind aclnn phase 2, flush
``profiler.Profiler``     the host track, counters, kernel records, trace writing
========================  =====================================================

opsnn reaches the runtime only through :mod:`acl_runtime.launch`.
"""
from __future__ import annotations

from typing import Any

from npu_sim import Device
from npu_sim.program import KernelLaunch, KernelSpec

from .context import ADDRESS_SPACE_STRIDE, CHIP_ENV, Context, resolve_chip
from .errors import AclError, as_int, get_recent_err_msg, set_recent_err_msg
from .interrupt import run_until
from .launch_queue import LaunchQueue
from .memory import Memory
from .profiler import HOST_TRACK, Profiler
from .sanitizer import SANITIZER, sanitize_from_env
from .streams import Streams


class Runtime:
    """Process-wide ACL state. Parts: ``context``, ``profiler``, ``streams``,
    ``memory``, ``launcher`` (see the module docstring). :meth:`finalize` resets
    them in place, so references to them (and to this object) stay valid."""

    def __init__(self) -> None:
        self.context = Context()
        self.profiler = Profiler(self.context)
        self.streams = Streams(self)
        self.launcher = LaunchQueue(self)
        self.memory = Memory(self)

    # ---- context state (read-only views) ----------------------------------------------
    @property
    def initialized(self) -> bool:
        return self.context.initialized

    @property
    def device(self) -> Device | None:
        """The current ``npu_sim.Device`` (None before aclrtSetDevice)."""
        return self.context.device

    @property
    def device_id(self) -> int | None:
        return self.context.device_id

    @property
    def default_stream(self):
        return self.context.default_stream

    @property
    def clock(self):
        """The host clock (``host_clock.HostClock``; ``now_ns``)."""
        return self.context.clock

    @property
    def deterministic(self) -> int:
        return self.context.deterministic

    @property
    def chip(self):
        """The current device's ChipConfig (AclError without one)."""
        return self.context.need_device().chip

    @property
    def last_error(self) -> str:
        """The recent-error message (:func:`acl_runtime.errors.get_recent_err_msg`)."""
        return get_recent_err_msg()

    @last_error.setter
    def last_error(self, message: str) -> None:
        set_recent_err_msg(message)

    # ---- lifecycle --------------------------------------------------------------------
    def init(self, chip: Any = None, backed: bool = True) -> None:
        """aclInit (:meth:`Context.init`); the stream sanitizer starts afresh
        (``NPU_SIM_SANITIZE=1`` turns it on)."""
        self.context.init(chip, backed)
        SANITIZER.reset()
        SANITIZER.enabled = sanitize_from_env()

    def finalize(self) -> None:
        """aclFinalize: finish all queued work, then forget every device, buffer,
        stream, event, span and system parameter (100001 if not initialised)."""
        self.context.need_init()
        if self.context.device is not None:
            self.run_device()
        self.launcher.reset()
        self.memory.reset()
        self.profiler.reset()
        self.context.reset()   # keeps the device generation: the next device gets a fresh address space

    def need_device(self) -> Device:
        return self.context.need_device()

    def set_device(self, device_id: int) -> None:
        """aclrtSetDevice (:meth:`Context.open_device`)."""
        self.context.open_device(device_id)

    def reset_device(self, device_id: int) -> None:
        """aclrtResetDevice: finish all work on the device."""
        self.context.check_device_id(device_id)
        self.run_device()

    def run_device(self) -> None:
        """Hand queued launches to the device and run it until nothing is left."""
        run_until(self.context.device, None, None, self.launcher.flush)   # Ctrl-C: acl_runtime.interrupt
        self.profiler.device_ran()

    def set_sys_param(self, opt: int, value: int) -> None:
        self.context.set_sys_param(opt, value)

    def get_sys_param(self, opt: int) -> int:
        return self.context.get_sys_param(opt)

    # ---- host timeline ------------------------------------------------------------------
    def host_span(self, what: str, name: str | None = None, args: dict | None = None,
                  flow: bool = False) -> tuple[float, int | None]:
        """Charge a host call and record its span (:meth:`Profiler.host_span`)."""
        return self.profiler.host_span(what, name, args, flow)

    def charge_prepare(self, name: str, dur_ns: float, args: dict | None = None) -> None:
        """Charge a phase-1 call of ``dur_ns`` ns (host_clock.prepare_cost_ns, or the
        cache-hit cost) and record its span on the host track (no flow: phase 1
        enqueues nothing)."""
        self.profiler.charge(name, dur_ns, args)

    # ---- memory -------------------------------------------------------------------------
    def malloc(self, size: int, policy: int = 0) -> int:
        return self.memory.malloc(size, policy)

    def free(self, ptr: int) -> None:
        self.memory.free(ptr)

    def register_host(self, arr) -> int:
        return self.memory.register_host(arr)

    def malloc_host(self, size: int) -> int:
        return self.memory.malloc_host(size)

    def free_host(self, ptr: int) -> None:
        self.memory.free_host(ptr)

    def host_view(self, ptr: int, nbytes: int, writable: bool = False):
        return self.memory.host_view(ptr, nbytes, writable)

    def memcpy(self, dst: int, dst_max: int, src: int, count: int, kind: int, stream=None, sync: bool = True) -> None:
        self.memory.memcpy(dst, dst_max, src, count, kind, stream, sync)

    # ---- streams and events -----------------------------------------------------------------
    def stream(self, handle):
        return self.streams.stream(handle)

    def create_stream(self) -> int:
        return self.streams.create_stream()

    def destroy_stream(self, handle) -> None:
        self.streams.destroy_stream(handle)

    def event(self, handle):
        return self.streams.event(handle)

    def create_event(self, flag: int = 0) -> int:
        return self.streams.create_event(flag)

    def reset_event(self, event, stream) -> None:
        self.streams.reset_event(event, stream)

    def query_event_status(self, event) -> int:
        return self.streams.query_event_status(event)

    def event_timestamp_us(self, event) -> int:
        return self.streams.event_timestamp_us(event)

    def destroy_event(self, handle) -> None:
        self.streams.destroy_event(handle)

    def record_event(self, event, stream) -> None:
        self.streams.record_event(event, stream)

    def stream_wait_event(self, stream, event) -> None:
        self.streams.stream_wait_event(stream, event)

    def synchronize_stream(self, stream, progress=None) -> None:
        self.streams.synchronize_stream(stream, progress)

    def synchronize_device(self) -> None:
        self.streams.synchronize_device()

    def synchronize_event(self, event) -> None:
        self.streams.synchronize_event(event)

    def event_elapsed_time(self, start, end) -> float:
        return self.streams.event_elapsed_time(start, end)

    # ---- kernels --------------------------------------------------------------------------
    def launch_kernel(self, stream, launch: KernelLaunch, host_args: dict | None = None) -> None:
        self.launcher.launch_kernel(stream, launch, host_args)

    def check_kernel(self, spec: KernelSpec) -> None:
        self.launcher.check_kernel(spec)

    def launch_prepared(self, stream, kernels: list, launch_args: list, name: str, addrs: list,
                        workspace: int) -> None:
        self.launcher.launch_prepared(stream, kernels, launch_args, name, addrs, workspace)

    def flush(self) -> None:
        self.launcher.flush()

    def pending_launches(self) -> int:
        """Phase-2 launches queued and not yet handed to the device."""
        return len(self.launcher.pending)

    # ---- profiling (read-only views) -----------------------------------------------------------
    def kernels_completed(self) -> int:
        """Kernels the device has finished so far (for progress reporting)."""
        return len(self.need_device().kernel_records)

    def kernel_records(self, since: int = 0) -> list[dict]:
        """Completed kernels, oldest first, from index ``since``: dicts with name,
        stream, start_ns, dur_ns, block_dim, tiling_key, pipe_busy_ns, pipe ratios,
        flops, bytes and bound class (see npu_sim/device.py and npu_sim/metrics.py)."""
        self.launcher.flush()
        return list(self.need_device().kernel_records[since:])

    def peak_memory_bytes(self) -> int:
        """Peak device memory in use since the device was set (bytes, aligned sizes)."""
        return self.need_device().memory.peak_bytes

    def trace_data(self, metadata: dict | None = None):
        """Run queued work to completion; host and device records as a ``traces.TraceData``."""
        self.need_device()
        self.run_device()
        return self.profiler.trace_data(metadata)

    def write_trace(self, path, metadata: dict | None = None):
        """Run queued work to completion and write everything recorded so far as a
        Chrome/Perfetto trace (see traces/)."""
        self.need_device()
        self.run_device()
        return self.profiler.write_trace(path, metadata)


_RUNTIME = Runtime()


def runtime() -> Runtime:
    """The process-wide runtime."""
    return _RUNTIME


def current_chip():
    """The chip config of the current device; raises AclError if none is set."""
    return _RUNTIME.need_device().chip


__all__ = ["Runtime", "runtime", "current_chip", "AclError", "as_int", "resolve_chip", "HOST_TRACK", "CHIP_ENV",
           "ADDRESS_SPACE_STRIDE"]
