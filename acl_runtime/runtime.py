"""Runtime state behind both API levels: one process-wide context, as in ACL.

The pyACL-style binding (``acl_runtime.acl``) and the Pythonic layer
(``acl_runtime.api``) both call :class:`Runtime`. Methods here raise
:class:`AclError` (carrying an ACL status code); the binding turns that into a
returned code, the Pythonic layer lets it propagate.
"""
from __future__ import annotations

import os
import weakref
from typing import Any

import numpy as np

from npu_sim import DEFAULT_CHIP, Device, DeviceMemoryError, KernelConfigError, get_chip
from npu_sim.device_memory import DEVICE_BASE_ADDR
from npu_sim.program import KernelLaunch, KernelSpec

from . import constants as C
from .host_clock import HOST_COST_NS, HostClock

HOST_TRACK = ("host", "thread 0")

#: environment variable naming the chip preset (or config path) that ``acl.init()``
#: and ``Session()`` use when no chip is given
CHIP_ENV = "NPU_SIM_CHIP"

#: distance between the address spaces of successive devices (bytes). Each device the
#: runtime opens gets base ``DEVICE_BASE_ADDR + generation * ADDRESS_SPACE_STRIDE``, so a
#: pointer kept from a finalised session lies outside every live allocation and is
#: reported as out of bounds instead of silently reading the new session's buffer.
#: Chip configs cap HBM at 2**42 bytes, so spaces never overlap; generations wrap
#: after 2**19 devices, keeping addresses below 2**64.
ADDRESS_SPACE_STRIDE = 2 ** 44
_GENERATIONS = 2 ** 19


class AclError(Exception):
    """An ACL failure: ``code`` is the ACL status, ``str(err)`` a readable message."""

    def __init__(self, code: int, message: str):
        super().__init__(f"[{code} {C.ERROR_NAMES.get(code, '')}] {message}")
        self.code = code
        self.message = message


def as_int(value: Any, what: str, code: int = C.ACL_ERROR_INVALID_PARAM, min_value: int | None = None) -> int:
    """``value`` as a Python int: a Python or numpy integer (never a bool). Raises
    AclError(``code``) naming ``what`` and the type otherwise, or when it is below
    ``min_value``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise AclError(code, f"{what} must be an int, got {type(value).__name__} {value!r}")
    v = int(value)
    if min_value is not None and v < min_value:
        bound = {0: "non-negative", 1: "positive"}.get(min_value, f">= {min_value}")
        raise AclError(code, f"{what} must be {bound}, got {v}")
    return v


def resolve_chip(chip: Any = None):
    """The ChipConfig for ``chip`` (preset name, .json/.yaml path, or ChipConfig); None
    means ``$NPU_SIM_CHIP`` if set, else the default preset. Raises AclError(100000)
    with a readable message for anything that does not give a valid config (unknown
    name, wrong type, unreadable file, YAML/JSON syntax, pydantic validation)."""
    source = "chip"
    if chip is None:
        env = os.environ.get(CHIP_ENV)
        if env:
            chip, source = env, f"{CHIP_ENV}={env!r}"
        else:
            chip = DEFAULT_CHIP
    try:
        config = get_chip(chip)
        if chip is config:   # built in code: model_copy(update=...) skips validation, so check it here
            type(config).model_validate(config.model_dump())
        return config
    except KeyError as e:
        msg = str(e.args[0]) if e.args else str(e)
    except OSError as e:
        msg = f"cannot read the config file: {e}"
    except (TypeError, ValueError) as e:   # pydantic.ValidationError is a ValueError
        msg = str(e)
    raise AclError(C.ACL_ERROR_INVALID_PARAM, f"{source}: {msg}" if source != "chip" else f"chip config: {msg}")


class Runtime:
    """Process-wide ACL state: initialised flag, the current device, streams, events,
    the host clock, host buffers known by pointer, and system parameters
    (``sys_params``: aclSysParamOpt -> value, e.g. ACL_OPT_DETERMINISTIC).

    Deferred launches: phase 2 (:meth:`launch_prepared`) charges the host clock,
    records its host span and queues the kernel in ``_pending``; the kernels are
    handed to the simulator (one SimPy process each) by :meth:`flush`, which every
    call that lets the device run or enqueues other work on it calls first. The
    device clock only moves inside those calls, so deferring the hand-over changes
    no simulated time and keeps the submission order; it keeps SimPy work (part of
    simulating the device, not of the host API) out of the phase-2 call.
    """

    def __init__(self) -> None:
        self.initialized = False
        self.device: Device | None = None
        self.device_id: int | None = None
        self.chip_config = None      #: the ChipConfig chosen at init (validated there)
        self.chip_name = os.environ.get(CHIP_ENV) or DEFAULT_CHIP
        self.backed = True
        self.clock = HostClock()
        self.default_stream = None
        self._host_bufs: "weakref.WeakValueDictionary[int, np.ndarray]" = weakref.WeakValueDictionary()
        self._host_keep: dict[int, np.ndarray] = {}   # malloc_host buffers
        self.last_error = ""
        self._flow = 0
        self._pending: list[tuple] = []
        self.sys_params: dict[int, int] = {}
        self.deterministic = 0
        self._generation = getattr(self, "_generation", 0)   #: devices opened so far (address spaces)

    # ---- lifecycle ----------------------------------------------------------------
    def init(self, chip: Any = None, backed: bool = True) -> None:
        """aclInit. ``chip``: preset name, config path or ChipConfig; None means
        ``$NPU_SIM_CHIP`` or the default preset. The chip is validated here: 100000
        (with the reason, naming the variable if it came from there) when it is bad."""
        if self.initialized:
            raise AclError(C.ACL_ERROR_REPEAT_INITIALIZE, "acl.init called twice without acl.finalize")
        config = resolve_chip(chip)
        self.chip_config = config
        self.chip_name = chip if isinstance(chip, str) else config.name
        self.backed = backed
        self.initialized = True

    def finalize(self) -> None:
        self._need_init()
        if self.device is not None:
            self.flush()
            self.device.run_until(None)
        self.__init__()   # keeps _generation: the next device gets a fresh address space

    def _need_init(self) -> None:
        if not self.initialized:
            raise AclError(C.ACL_ERROR_UNINITIALIZE, "ACL is not initialised: call acl.init() first")

    def need_device(self) -> Device:
        self._need_init()
        if self.device is None:
            raise AclError(C.ACL_ERROR_INVALID_DEVICE, "no device set: call acl.rt.set_device(0) first")
        return self.device

    def set_device(self, device_id: int) -> None:
        """aclrtSetDevice: 100004 for a device id that is not an int (numpy ints are)
        or not 0. Each device opened gets its own address space (ADDRESS_SPACE_STRIDE)."""
        self._need_init()
        dev_id = as_int(device_id, "device id", C.ACL_ERROR_INVALID_DEVICE)
        if dev_id != 0:
            raise AclError(C.ACL_ERROR_INVALID_DEVICE, f"device {dev_id} does not exist (only device 0)")
        if self.device is None:
            config = self.chip_config if self.chip_config is not None else resolve_chip(self.chip_name)
            dev = Device(config, dev_id, backed=self.backed)
            dev.memory.rebase(DEVICE_BASE_ADDR + (self._generation % _GENERATIONS) * ADDRESS_SPACE_STRIDE)
            self._generation += 1
            self.device = dev
            self.device_id = dev_id
            self.default_stream = self.device.create_stream()

    def reset_device(self, device_id: int) -> None:
        dev = self.need_device()
        dev_id = as_int(device_id, "device id", C.ACL_ERROR_INVALID_DEVICE)
        if dev_id != self.device_id:
            raise AclError(C.ACL_ERROR_INVALID_DEVICE, f"device {dev_id} is not set")
        self.flush()
        dev.run_until(None)

    # ---- host timeline ------------------------------------------------------------
    def host_span(self, what: str, name: str | None = None, args: dict | None = None,
                  flow: bool = False) -> tuple[float, int | None]:
        """Charge a host call, record its span; returns (host time after, flow id)."""
        start, dur = self.clock.advance(what)
        fid = None
        if flow:
            self._flow += 1
            fid = self._flow
        if self.device is not None:
            self.device.recorder.span(HOST_TRACK, name or what, start, dur, "host", args, flow_id=fid,
                                      flow_out=flow)
        return self.clock.now_ns, fid

    def charge_prepare(self, name: str, dur_ns: float, args: dict | None = None) -> None:
        """Charge a phase-1 call of ``dur_ns`` ns (host_clock.prepare_cost_ns, or the
        cache-hit cost) and record its span on the host track (no flow: phase 1
        enqueues nothing)."""
        start, dur = self.clock.advance_ns(dur_ns)
        if self.device is not None:
            self.device.recorder.span(HOST_TRACK, name, start, dur, "host", args)

    # ---- system parameters ----------------------------------------------------------
    def set_sys_param(self, opt: int, value: int) -> None:
        """aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt (one context here)."""
        self._need_init()
        opt = self._sys_opt(opt)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in (0, 1):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"{C.SYS_PARAM_OPTS[opt]} value must be 0 or 1 (an int), "
                                                     f"got {type(value).__name__} {value!r}")
        self.sys_params[opt] = int(value)
        if opt == C.ACL_OPT_DETERMINISTIC:
            self.deterministic = int(value)

    def get_sys_param(self, opt: int) -> int:
        """aclrtGetSysParamOpt / aclrtCtxGetSysParamOpt: the value set, default 0."""
        self._need_init()
        return self.sys_params.get(self._sys_opt(opt), 0)

    @staticmethod
    def _sys_opt(opt) -> int:
        opt = as_int(opt, "aclSysParamOpt")
        if opt not in C.SYS_PARAM_OPTS:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"unknown aclSysParamOpt {opt!r}; known: "
                                                     f"{', '.join(f'{k} {v}' for k, v in C.SYS_PARAM_OPTS.items())}")
        return opt

    # ---- memory -------------------------------------------------------------------
    def malloc(self, size: int, policy: int = C.ACL_MEM_MALLOC_HUGE_FIRST) -> int:
        dev = self.need_device()
        if as_int(policy, "malloc policy") not in (0, 1, 2):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"unknown malloc policy {policy!r}")
        size = as_int(size, "malloc size", min_value=1)
        try:
            addr = dev.memory.malloc(size)
        except DeviceMemoryError as e:
            raise AclError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, str(e)) from None
        t, _ = self.host_span("malloc", args={"bytes": int(size)})
        dev.recorder.counter("device memory", "in use (bytes)", t, dev.memory.used_bytes)
        return addr

    def free(self, ptr: int) -> None:
        dev = self.need_device()
        ptr = as_int(ptr, "free: device pointer", min_value=0)
        # a free must not pull memory out from under queued work
        self.flush()
        dev.run_until(None)
        self.clock.catch_up(dev.env.now)
        try:
            dev.memory.free(ptr)
        except DeviceMemoryError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None
        t, _ = self.host_span("free")
        dev.recorder.counter("device memory", "in use (bytes)", t, dev.memory.used_bytes)

    def register_host(self, arr: np.ndarray) -> int:
        if not isinstance(arr, np.ndarray) or not arr.flags.c_contiguous:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, "numpy_to_ptr needs a C-contiguous numpy array")
        ptr = int(arr.ctypes.data)
        # Track the array that owns the memory, not the (possibly temporary) view: the
        # pointer stays valid while the memory lives, as in pyACL, and registering a
        # shorter view at the same address does not shrink the known buffer.
        owner = arr
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        if owner is not arr and (owner.flags.c_contiguous or owner.flags.f_contiguous):
            self._host_bufs[int(owner.ctypes.data)] = owner
        else:
            self._host_bufs[ptr] = arr
        return ptr

    def malloc_host(self, size: int) -> int:
        self._need_init()
        size = as_int(size, "malloc_host size", min_value=1)
        try:
            arr = np.zeros(size, dtype=np.uint8)
        except MemoryError:
            raise AclError(C.ACL_ERROR_BAD_ALLOC, f"malloc_host of {size} B: host memory exhausted") from None
        except ValueError as e:   # beyond numpy's largest array
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"malloc_host of {size} B: {e}") from None
        ptr = self.register_host(arr)
        self._host_keep[ptr] = arr
        return ptr

    def free_host(self, ptr: int) -> None:
        self._need_init()
        ptr = as_int(ptr, "free_host: host pointer", min_value=0)
        if self._host_keep.pop(ptr, None) is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"free_host of {ptr:#x}: not from malloc_host")

    def host_view(self, ptr: int, nbytes: int, writable: bool = False) -> np.ndarray:
        """uint8 view of ``nbytes`` at host pointer ``ptr`` (must lie in a known host
        buffer; with ``writable``, one that numpy lets us write)."""
        ptr = as_int(ptr, "host pointer", min_value=0)
        nbytes = as_int(nbytes, "host byte count", min_value=0)
        for base, arr in list(self._host_bufs.items()):
            if base <= ptr and ptr + nbytes <= base + arr.nbytes:
                if writable and not arr.flags.writeable:
                    raise AclError(C.ACL_ERROR_INVALID_PARAM,
                                   f"memcpy dst: host buffer at {ptr:#x} is not writable (a read-only numpy array)")
                flat = arr.ravel(order="K").view(np.uint8)  # memory order: a view, never a copy
                return flat[ptr - base: ptr - base + nbytes]
        raise AclError(C.ACL_ERROR_INVALID_PARAM,
                       f"host pointer {ptr:#x} (+{nbytes} B) is not inside a buffer from acl.util.numpy_to_ptr "
                       "or acl.rt.malloc_host")

    def _check_dev(self, ptr: int, nbytes: int) -> None:
        try:
            self.device.memory.find(ptr, nbytes)
        except DeviceMemoryError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None

    def memcpy(self, dst: int, dst_max: int, src: int, count: int, kind: int, stream=None, sync: bool = True) -> None:
        dev = self.need_device()
        dst, src, dst_max, count = (as_int(v, f"memcpy {name}", min_value=0) for name, v in
                                    (("dst", dst), ("src", src), ("dst_max", dst_max), ("count", count)))
        if count > dst_max:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"memcpy count {count} exceeds dst_max {dst_max}")
        kind = as_int(kind, "memcpy kind")
        if kind not in (0, 1, 2, 3):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"unknown memcpy kind {kind!r}")
        s = self.stream(stream)
        if count == 0:
            return
        self.flush()
        mem = dev.memory
        if kind == C.ACL_MEMCPY_HOST_TO_HOST:
            self.host_view(dst, count, writable=True)[...] = self.host_view(src, count)
            return
        if kind == C.ACL_MEMCPY_HOST_TO_DEVICE:
            hv = self.host_view(src, count)
            self._check_dev(dst, count)
            # async copies read the host buffer at enqueue (pinned-copy model); timing-only runs move no bytes
            snapshot = hv.copy() if (not sync and dev.backed) else hv
            apply = (lambda: mem.write(dst, snapshot)) if dev.backed else None
            tag = "H2D"
        elif kind == C.ACL_MEMCPY_DEVICE_TO_HOST:
            hv = self.host_view(dst, count, writable=True)
            self._check_dev(src, count)

            def apply():
                if dev.backed:
                    hv[...] = mem.read(src, count)
            tag = "D2H"
        else:
            self._check_dev(src, count)
            self._check_dev(dst, count)
            apply = (lambda: mem.write(dst, mem.read(src, count))) if dev.backed else None
            tag = "D2D"
        t, fid = self.host_span("memcpy" if sync else "memcpy_async", f"aclrtMemcpy{'' if sync else 'Async'} {tag}",
                                {"bytes": count}, flow=True)
        proc = dev.submit_memcpy(s, count, tag, apply, t, fid)
        if sync:
            self._wait(proc, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)

    # ---- streams and events -------------------------------------------------------------
    def stream(self, handle):
        """Resolve a stream handle (None or 0 = default stream; numpy ints accepted)."""
        dev = self.need_device()
        if handle is None:
            return self.default_stream
        handle = as_int(handle, "stream handle")
        if handle == 0:
            return self.default_stream
        s = dev.streams.get(handle)
        if s is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"stream {handle!r} does not exist (destroyed or never created)")
        return s

    def create_stream(self) -> int:
        dev = self.need_device()
        self.host_span("create_stream")
        return dev.create_stream().stream_id

    def destroy_stream(self, handle) -> None:
        s = self.stream(handle)
        if s is self.default_stream:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, "the default stream cannot be destroyed")
        self.flush()
        self._wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        del self.device.streams[s.stream_id]

    def event(self, handle):
        dev = self.need_device()
        e = dev.events.get(as_int(handle, "event handle"))
        if e is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"event {handle!r} does not exist")
        return e

    def create_event(self) -> int:
        dev = self.need_device()
        self.host_span("create_event")
        return dev.create_event().event_id

    def destroy_event(self, handle) -> None:
        e = self.event(handle)
        del self.device.events[e.event_id]

    def record_event(self, event, stream) -> None:
        e, s = self.event(event), self.stream(stream)
        self.flush()
        t, _ = self.host_span("record_event", "aclrtRecordEvent")
        self.device.submit_record(s, e, t)

    def stream_wait_event(self, stream, event) -> None:
        e, s = self.event(event), self.stream(stream)
        self.flush()
        t, _ = self.host_span("stream_wait_event", "aclrtStreamWaitEvent")
        self.device.submit_wait(s, e, t)

    def _wait(self, ev, stream, timeout_code: int, progress=None) -> None:
        dev = self.device
        if ev is None:
            return
        self.flush()
        ok = dev.run_until(ev, progress)
        dev.recorder.pack()   # keep the trace out of the garbage collector's way (npu_sim.trace)
        before = self.clock.now_ns
        self.clock.catch_up(dev.env.now)
        if self.clock.now_ns > before:
            # the host blocked: draw the wait, as msprof's host track does for a blocking call
            dev.recorder.span(HOST_TRACK, "blocked (waiting for the device)", before, self.clock.now_ns - before,
                              "host")
        if not ok:
            stuck = ", ".join(f"stream {s.stream_id}" for s in dev.blocked_streams())
            raise AclError(timeout_code, f"synchronize would wait forever: {stuck} wait on an event that "
                                         "nobody records (aclrtStreamWaitEvent with no matching aclrtRecordEvent)")
        if stream is not None and stream.errors:
            errs, stream.errors = stream.errors, []
            code = C.ACL_ERROR_RT_MEMORY_ACCESS if any("access" in e or "alloc" in e for e in errs) \
                else C.ACL_ERROR_RT_AICORE_EXCEPTION
            raise AclError(code, "; ".join(errs))

    def synchronize_stream(self, stream, progress=None) -> None:
        """Run the device until ``stream`` is idle. ``progress(kernels_done)``, if
        given, is called now and then while the simulation runs (for progress bars)."""
        s = self.stream(stream)
        self.flush()
        self.host_span("synchronize", "aclrtSynchronizeStream")
        self._wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, progress)

    def synchronize_device(self) -> None:
        dev = self.need_device()
        self.flush()
        self.host_span("synchronize", "aclrtSynchronizeDevice")
        for s in list(dev.streams.values()):
            self._wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)

    def synchronize_event(self, event) -> None:
        e = self.event(event)
        self.flush()
        self.host_span("synchronize", "aclrtSynchronizeEvent")
        if e.records:
            self._wait(e.records[-1], None, C.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT)

    def event_elapsed_time(self, start, end) -> float:
        a, b = self.event(start), self.event(end)
        for name, e in (("start", a), ("end", b)):
            if not e.records or not e.records[-1].processed:
                raise AclError(C.ACL_ERROR_INVALID_PARAM,
                               f"{name} event {e.event_id} has not completed a record: record it and synchronize first")
        return (b.timestamp_ns - a.timestamp_ns) / 1e6

    # ---- kernels (used by opsnn) ------------------------------------------------------------
    def launch_kernel(self, stream, launch: KernelLaunch, host_args: dict | None = None) -> None:
        """Enqueue a kernel on ``stream`` now (after any deferred launches); charges the
        host a launch. Raises AclError (100000) for a bad stream or a kernel the chip
        cannot run."""
        dev = self.need_device()
        s = self.stream(stream)
        self.flush()
        t, fid = self.host_span("aclnn_launch", f"aclnn{launch.spec.name}", host_args, flow=True)
        try:
            dev.submit_kernel(s, launch, t, fid)
        except KernelConfigError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None

    def check_kernel(self, spec: KernelSpec) -> None:
        """Raise AclError (100000) if the current chip cannot run ``spec`` (a buffer
        over capacity, no blocks, no cores of its type). Phase 1 calls this so that
        phase 2 never has to."""
        try:
            self.need_device().check_kernel(KernelLaunch(spec, None))
        except KernelConfigError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None

    def launch_prepared(self, stream, kernels: list, launch_args: list, name: str, addrs: list,
                        workspace: int) -> None:
        """Phase 2's runtime half, for opsnn: per kernel, charge one ``aclnn_launch``,
        record the host launch span ``name`` (with a flow arrow to the device task it
        creates) and queue the kernel bound to ``addrs`` (slot addresses) and
        ``workspace``. ``kernels``: objects with ``spec`` and ``make_body(addrs, ws)``
        already checked against the chip (:meth:`check_kernel`). Raises AclError for a
        stream that does not exist or when no device is set."""
        dev = self.device
        s = None
        if dev is not None:
            if stream is None or stream.__class__ is int:   # the common case, checked cheaply
                s = self.default_stream if not stream else dev.streams.get(stream)
        if s is None:
            s = self.stream(stream)   # validates: no device, numpy ints, bools, junk, unknown ids
            dev = self.device
        clock = self.clock
        span = dev.recorder.span
        pending = self._pending
        dur = HOST_COST_NS["aclnn_launch"]
        for k, args in zip(kernels, launch_args):
            start = clock.now_ns
            clock.now_ns = end = start + dur
            self._flow = fid = self._flow + 1
            span(HOST_TRACK, name, start, dur, "host", args, fid, True)
            pending.append((s, k, addrs, workspace, end, fid))

    def flush(self) -> None:
        """Hand deferred phase-2 launches to the device, in order. A kernel the device
        refuses (it was checked in phase 1, so only if the chip changed) becomes an
        error of its stream, reported at the next synchronize."""
        pending = self._pending
        if not pending:
            return
        self._pending = []
        dev = self.device
        if dev is None:
            return
        backed = dev.backed
        for s, k, addrs, ws, t, fid in pending:
            try:
                dev.submit_kernel(s, KernelLaunch(k.spec, k.make_body(addrs, ws) if backed else None), t, fid)
            except Exception as e:  # noqa: BLE001 - a bad kernel is a stream error, never a crash
                s.errors.append(f"{k.spec.name}: {e}")

    def kernels_completed(self) -> int:
        """Kernels the device has finished so far (for progress reporting)."""
        return len(self.need_device().kernel_records)

    # ---- profiling (read-only views of what the device recorded) ---------------------------
    def kernel_records(self, since: int = 0) -> list[dict]:
        """Completed kernels, oldest first, from index ``since``: dicts with name,
        stream, start_ns, dur_ns, block_dim, tiling_key, pipe_busy_ns, pipe ratios,
        flops, bytes and bound class (see npu_sim/device.py and npu_sim/metrics.py)."""
        self.flush()
        return list(self.need_device().kernel_records[since:])

    def peak_memory_bytes(self) -> int:
        """Peak device memory in use since the device was set (bytes, aligned sizes)."""
        return self.need_device().memory.peak_bytes

    def write_trace(self, path, metadata: dict | None = None):
        """Write everything recorded so far as a Chrome/Perfetto trace (see traces/)."""
        from traces.chrome_trace import write_chrome_trace
        dev = self.need_device()
        self.flush()
        dev.run_until(None)
        return write_chrome_trace(dev, path, metadata=metadata)

    @property
    def chip(self):
        return self.need_device().chip


_RUNTIME = Runtime()


def runtime() -> Runtime:
    """The process-wide runtime."""
    return _RUNTIME


def current_chip():
    """The chip config of the current device; raises AclError if none is set."""
    return _RUNTIME.need_device().chip
