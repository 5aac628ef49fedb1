"""Device and host memory: aclrtMalloc/Free, aclrtMallocHost/FreeHost, the host buffers
known by pointer (``acl.util.numpy_to_ptr``), aclrtMemcpy/MemcpyAsync and
aclrtMemset/MemsetAsync.

Device pointers are byte addresses in the simulated HBM (``npu_sim.device_memory``:
64 B aligned, sizes rounded to 32 B). Host pointers are the addresses of numpy
buffers the runtime was shown; a copy's host side must lie inside one. Copies are
timed on the device (the host link); the host is charged the enqueue
(``host_clock.HOST_COST_NS``). Methods raise :class:`acl_runtime.errors.AclError`.
"""
from __future__ import annotations

import weakref

import numpy as np

from npu_sim import DeviceMemoryError

from . import constants as C
from .capture import copy_hook, memset_hook
from .errors import AclError, as_int
from .sanitizer import SANITIZER


class Memory:
    """Memory calls of one ACL context. ``rt``: the
    :class:`acl_runtime.runtime.Runtime` (its context, profiler, streams and
    launch queue)."""

    def __init__(self, rt) -> None:
        self.rt = rt
        self.ctx = rt.context
        self.profiler = rt.profiler
        self.reset()

    def reset(self) -> None:
        """Forget every host buffer (aclFinalize)."""
        self._host_bufs: "weakref.WeakValueDictionary[int, np.ndarray]" = weakref.WeakValueDictionary()
        self._host_keep: dict[int, np.ndarray] = {}   # malloc_host buffers

    # ---- device memory --------------------------------------------------------------------
    def malloc(self, size: int, policy: int = C.ACL_MEM_MALLOC_HUGE_FIRST) -> int:
        """aclrtMalloc -> device pointer. 100000 for a bad size or policy, 207001 when it
        does not fit in HBM."""
        dev = self.ctx.need_device()
        if (policy if policy.__class__ is int else as_int(policy, "malloc policy")) not in (0, 1, 2):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"unknown malloc policy {policy!r}")
        if size.__class__ is not int or size < 1:   # a plain positive int needs no conversion
            size = as_int(size, "malloc size", min_value=1)
        try:
            addr = dev.memory.malloc(size)
        except DeviceMemoryError as e:
            raise AclError(C.ACL_ERROR_RT_MEMORY_ALLOCATION, str(e)) from None
        t, _ = self.profiler.host_span("malloc", args={"bytes": int(size)})
        self.profiler.memory_in_use(t, dev.memory.used_bytes)
        return addr

    def free(self, ptr: int) -> None:
        """aclrtFree: waits for all queued work first (a free must not pull memory out
        from under it); 100000 for a pointer that is not an allocation."""
        dev = self.ctx.need_device()
        ptr = as_int(ptr, "free: device pointer", min_value=0)
        self.rt.run_device()
        self.ctx.clock.catch_up(dev.env.now)
        SANITIZER.synchronized()   # the wait orders every earlier task before the bytes' next owner
        try:
            dev.memory.free(ptr)
        except DeviceMemoryError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None
        t, _ = self.profiler.host_span("free")
        self.profiler.memory_in_use(t, dev.memory.used_bytes)

    # ---- host memory ----------------------------------------------------------------------
    def register_host(self, arr: np.ndarray) -> int:
        """The host pointer of C-contiguous ``arr``, remembered for copies."""
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
        """aclrtMallocHost -> host pointer (zeroed; 200000 when host memory runs out)."""
        self.ctx.need_init()
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
        """aclrtFreeHost: 100000 for a pointer not from malloc_host."""
        self.ctx.need_init()
        ptr = as_int(ptr, "free_host: host pointer", min_value=0)
        if self._host_keep.pop(ptr, None) is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"free_host of {ptr:#x}: not from malloc_host")

    def host_view(self, ptr: int, nbytes: int, writable: bool = False) -> np.ndarray:
        """uint8 view of ``nbytes`` at host pointer ``ptr`` (must lie in a known host
        buffer; with ``writable``, one that numpy lets us write). A pointer that is a
        buffer's own start is looked up directly (DenseNet-121's 673 uploads scanned every
        registered buffer each: quadratic); others scan the buffers."""
        ptr = as_int(ptr, "host pointer", min_value=0)
        nbytes = as_int(nbytes, "host byte count", min_value=0)
        base, arr = self._host_buf(ptr, nbytes, writable)
        flat = arr.ravel(order="K").view(np.uint8)  # memory order: a view, never a copy
        return flat[ptr - base: ptr - base + nbytes]

    def _host_buf(self, ptr: int, nbytes: int, writable: bool = False) -> tuple[int, np.ndarray]:
        """``(base, array)``: the known host buffer holding ``[ptr, ptr + nbytes)``
        (ints >= 0); AclError 100000 if none does, or (``writable``) if numpy does not
        let us write it. :meth:`host_view` without building the view (a timing-only
        copy only checks its host side)."""
        hit = self._host_bufs.get(ptr)   # the common case, a copy from a buffer's start: O(1), no scan
        cands = [(ptr, hit)] if hit is not None and nbytes <= hit.nbytes else list(self._host_bufs.items())
        for base, arr in cands:
            if base <= ptr and ptr + nbytes <= base + arr.nbytes:
                if writable and not arr.flags.writeable:
                    raise AclError(C.ACL_ERROR_INVALID_PARAM,
                                   f"memcpy dst: host buffer at {ptr:#x} is not writable (a read-only numpy array)")
                return base, arr
        raise AclError(C.ACL_ERROR_INVALID_PARAM,
                       f"host pointer {ptr:#x} (+{nbytes} B) is not inside a buffer from acl.util.numpy_to_ptr "
                       "or acl.rt.malloc_host")

    # ---- copies ---------------------------------------------------------------------------
    def _check_dev(self, ptr: int, nbytes: int) -> None:
        try:
            self.ctx.device.memory.find(ptr, nbytes)
        except DeviceMemoryError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None

    def memcpy(self, dst: int, dst_max: int, src: int, count: int, kind: int, stream=None, sync: bool = True) -> None:
        """aclrtMemcpy (``sync``: blocking, after ``stream``'s queued work) or
        aclrtMemcpyAsync of ``count`` bytes; ``kind`` 0 H2H, 1 H2D, 2 D2H, 3 D2D."""
        rt = self.rt
        dev = self.ctx.need_device()
        if not (dst.__class__ is int and src.__class__ is int and dst_max.__class__ is int   # the common case,
                and count.__class__ is int and dst >= 0 and src >= 0 and dst_max >= 0 and count >= 0):   # cheaply
            dst, src, dst_max, count = (as_int(v, f"memcpy {name}", min_value=0) for name, v in
                                        (("dst", dst), ("src", src), ("dst_max", dst_max), ("count", count)))
        if count > dst_max:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"memcpy count {count} exceeds dst_max {dst_max}")
        if kind.__class__ is not int:
            kind = as_int(kind, "memcpy kind")
        if kind not in (0, 1, 2, 3):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"unknown memcpy kind {kind!r}")
        s = rt.streams.stream(stream)
        if count == 0:
            return
        rt.launcher.flush()
        captured = bool(rt.streams.capturing) and copy_hook(rt, s, sync, kind, src)   # acl_runtime.capture
        mem = dev.memory
        if kind == C.ACL_MEMCPY_HOST_TO_HOST:
            self.host_view(dst, count, writable=True)[...] = self.host_view(src, count)
            return
        if kind == C.ACL_MEMCPY_HOST_TO_DEVICE:
            if dev.backed:
                hv = self.host_view(src, count)
                self._check_dev(dst, count)
                # async copies read the host buffer at enqueue (pinned-copy model)
                snapshot = hv.copy() if (not sync and not captured) else hv
                apply = (lambda: mem.write(dst, snapshot))
            else:   # timing-only runs move no bytes: the host side is only checked
                self._host_buf(src, count)
                self._check_dev(dst, count)
                apply = None
            tag = "H2D"
        elif kind == C.ACL_MEMCPY_DEVICE_TO_HOST:
            if dev.backed:
                hv = self.host_view(dst, count, writable=True)
                self._check_dev(src, count)

                def apply():
                    hv[...] = mem.read(src, count)
            else:   # timed, the host buffer left as it is (see the end)
                self._host_buf(dst, count, writable=True)
                self._check_dev(src, count)
                apply = None
            tag = "D2H"
        else:
            self._check_dev(src, count)
            self._check_dev(dst, count)
            apply = (lambda: mem.write(dst, mem.read(src, count))) if dev.backed else None
            tag = "D2D"
        t, fid = self.profiler.host_span("memcpy" if sync else "memcpy_async",
                                         f"aclrtMemcpy{'' if sync else 'Async'} {tag}", {"bytes": count}, flow=True)
        reads = ((src, count),) if tag != "H2D" else ()
        writes = ((dst, count),) if tag != "D2H" else ()
        if captured:   # replays read the (page-locked) host buffer when they run
            rt.streams.capture_manager.task(s, "memcpy", f"aclrtMemcpyAsync {tag}", (count, tag, apply, reads, writes))
            return
        proc = dev.submit_memcpy(s, count, tag, apply, t, fid, writes[0] if writes else None, sync)
        if SANITIZER.enabled:
            SANITIZER.task(s.stream_id, f"aclrtMemcpy{'' if sync else 'Async'} {tag}", reads=reads, writes=writes)
        if sync:
            rt.streams.wait(proc, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
            SANITIZER.synchronized([s.stream_id])
        if tag == "D2H" and not dev.backed:
            # timed like any copy (so timing-only runs keep their times), but the host buffer is not
            # filled: say so rather than return success (Session.numpy refuses the same way)
            raise AclError(C.ACL_ERROR_FEATURE_UNSUPPORTED, f"device-to-host copy of {count} B under "
                           "acl.init(timing_only=True): the device holds no data, the host buffer is unchanged "
                           "(the copy was timed)")

    # ---- memset ---------------------------------------------------------------------------
    def memset(self, ptr: int, max_count: int, value: int, count: int, stream=None, sync: bool = True) -> None:
        """aclrtMemset (``sync``) or aclrtMemsetAsync on ``stream``: set ``count`` bytes
        at ``ptr`` to ``value``. Signatures and rules: CANN runtime API reference
        "aclrtMemset" / "aclrtMemsetAsync" (hiascend.com, canncommercial 8.0.0 and 8.5.0,
        aclcppdevg_03_0103 / _0104): ``(devPtr, maxCount, value, count[, stream])``,
        sizes in bytes; the memory may be on the host or the device (told apart by the
        address); the async form only delivers a task (synchronize the stream to see it).

        Device memory: a MEMSET task on the device, timed by the DMA write of ``count``
        bytes to HBM (``npu_sim.hardware.cost.memset_ns``). Host memory (a buffer from
        acl.util.numpy_to_ptr or aclrtMallocHost): set at the call, no device task.
        Assumptions [A]: each byte takes ``value & 0xFF`` (C memset's rule; CANN's
        reference only says "the value to set"); the synchronous call runs on the default
        stream after its queued work and the host waits for it, as aclrtMemcpy does here
        (CANN says it makes no implicit device or stream sync: other streams' work is not
        awaited). Inside a stream capture the synchronous call is unsafe
        (acl_runtime.capture); the async one on a capturing stream is captured.
        AclError 100000: ``count`` over ``max_count``, a negative size, a non-integer
        value, or a pointer in no known host buffer or device allocation."""
        rt = self.rt
        dev = self.ctx.need_device()
        ptr, max_count, count = (as_int(v, f"memset {name}", min_value=0) for name, v in
                                 (("ptr", ptr), ("max_count", max_count), ("count", count)))
        value = as_int(value, "memset value")
        if count > max_count:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"memset count {count} exceeds max_count {max_count}")
        s = rt.streams.stream(stream)
        call = "aclrtMemset" if sync else "aclrtMemsetAsync"
        if count == 0:
            return
        rt.launcher.flush()
        if any(b <= ptr < b + a.nbytes for b, a in list(self._host_bufs.items())):
            self.host_view(ptr, count, writable=True)[...] = value & 0xFF
            return
        self._check_dev(ptr, count)
        captured = bool(rt.streams.capturing) and memset_hook(rt, s, sync)   # acl_runtime.capture
        mem = dev.memory
        apply = (lambda: mem.write(ptr, np.full(count, value & 0xFF, dtype=np.uint8))) if dev.backed else None
        t, fid = self.profiler.host_span("memcpy" if sync else "memcpy_async", call, {"bytes": count}, flow=True)
        writes = ((ptr, count),)
        if captured:
            rt.streams.capture_manager.task(s, "memset", call, (count, "MEMSET", apply, (), writes))
            return
        proc = dev.submit_memcpy(s, count, "MEMSET", apply, t, fid, writes[0], sync)
        if SANITIZER.enabled:
            SANITIZER.task(s.stream_id, call, writes=writes)
        if sync:
            rt.streams.wait(proc, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
            SANITIZER.synchronized([s.stream_id])
