"""One prepared program: the aclnn calls of a graph (or a layer), in stream order.

Both front ends build one: :class:`frontend.runner.ModelRunner` lowers an ONNX graph
into it, :mod:`frontend.workloads` builds a transformer layer into it. A program
holds the prepared calls (phase 1 done once, executors made repeatable with
``aclSetAclOpExecutorRepeatable``), one workspace shared by every call and the
stream they run on. Ops on one stream run in order, so one workspace sized for the
largest call serves them all (the baseline of DESIGN.md section 7). A program can be
captured once (:meth:`PreparedProgram.capture`, CANN's aclmdlRICapture*) and is then
replayed by one aclmdlRIExecuteAsync per run instead of one launch per kernel.

Everything goes through public interfaces: the pyACL-style binding
(``acl.rt.malloc``, ``acl.rt.memcpy[_async]``, ``acl.util.numpy_to_ptr``,
``acl.rt.create_stream``, ``acl.rt.create_event``, ``acl.rt.record_event``,
``acl.rt.synchronize_stream``, ``acl.rt.event_elapsed_time``, ``acl.mdl.ri_*``) with every status
checked and turned into :class:`~frontend.errors.DeviceError`, the aclnn entry
points of ``opsnn`` for both phases, and the read-only profiling views of
:mod:`frontend.profiling`.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np

import opsnn
from acl_runtime import acl
from npu_sim.host_gc import with_gc_paused

from . import profiling
from .errors import DeviceError, PrepareError

#: seconds between two progress reports while the device runs (wall clock, not simulated)
PROGRESS_POLL_S = 0.1


def check(ret: int, what: str) -> None:
    """Raise :class:`DeviceError` for a failed ACL status ``ret`` of call ``what``
    (message from ``acl.get_recent_err_msg()``)."""
    if ret != acl.ACL_SUCCESS:
        raise DeviceError(ret, acl.get_recent_err_msg() or f"{what} failed",
                          acl.constants.ERROR_NAMES.get(ret, ""))


def malloc(nbytes: int) -> int:
    """aclrtMalloc of ``nbytes`` bytes (64 B aligned by the runtime); the device address."""
    ptr, ret = acl.rt.malloc(nbytes)
    check(ret, "acl.rt.malloc")
    return ptr


def freeze(array: np.ndarray) -> None:
    """Make a constant's host ``array`` read-only when it owns its memory, so that a
    blocking upload of it is shared rather than copied (``npu_sim.device_memory``:
    bytes nobody can change are shared; the device copies them on its first write, so
    a device-side write never reaches the host array). A view (its owner could still be
    written) is left as it is and uploaded by a copy as before."""
    if array.base is None and array.flags.writeable:
        array.flags.writeable = False


def upload(ptr: int, array: np.ndarray, stream: int | None = None, *, constant: bool = False) -> None:
    """Copy a C-contiguous host ``array`` to device address ``ptr``: aclrtMemcpy
    (blocking, ordered after the default stream) when ``stream`` is None, else
    aclrtMemcpyAsync on ``stream`` (the host data is read at enqueue).
    ``constant``: the array is a graph constant the host never writes again (weights,
    tables): it is made read-only first (:func:`freeze`), and the device shares its
    bytes instead of copying them (232 MiB per AlexNet run)."""
    if not array.nbytes:
        return
    if constant:
        freeze(array)
    host = acl.util.numpy_to_ptr(array)
    if not host:
        check(acl.ACL_ERROR_INVALID_PARAM, "acl.util.numpy_to_ptr")
    kind = acl.ACL_MEMCPY_HOST_TO_DEVICE
    if stream is None:
        check(acl.rt.memcpy(ptr, array.nbytes, host, array.nbytes, kind), "acl.rt.memcpy")
    else:
        check(acl.rt.memcpy_async(ptr, array.nbytes, host, array.nbytes, kind, stream), "acl.rt.memcpy_async")


def download(ptr: int, shape, dtype) -> np.ndarray:
    """A new host array of ``shape``/``dtype`` copied back from device address ``ptr``
    by aclrtMemcpy (blocking; ordered after the default stream's work only, so
    synchronise the stream that wrote ``ptr`` first, as :meth:`PreparedProgram.launch_timed`
    does). Raises DeviceError. In a timing-only run (``acl.init(timing_only=True)``) the
    copy is timed but brings no data (the runtime's 200006): the array is zeros then."""
    host = np.empty(shape, dtype)
    if host.nbytes:
        dst = acl.util.numpy_to_ptr(host)
        if not dst:
            check(acl.ACL_ERROR_INVALID_PARAM, "acl.util.numpy_to_ptr")
        ret = acl.rt.memcpy(dst, host.nbytes, ptr, host.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
        if ret == acl.constants.ACL_ERROR_FEATURE_UNSUPPORTED:   # only a timing-only runtime says this
            host[...] = 0
            return host
        check(ret, "acl.rt.memcpy")
    return host


@dataclass
class PreparedCall:
    """One prepared aclnn call: phase 2 is ``launch(workspace, workspace_size,
    executor, stream)``. ``name`` is the ONNX node name or the layer op's label,
    ``op_type`` the ONNX op type ("" for built-in layers)."""

    name: str
    op_type: str
    aclnn: str
    launch: Callable
    executor: object
    workspace_size: int

    @property
    def node(self) -> str:
        """The ONNX node this call came from (same as ``name``)."""
        return self.name

    @property
    def kernel_count(self) -> int:
        """Kernels one launch enqueues (decided in phase 1)."""
        return len(self.executor.kernels)


def prepare_call(name: str, op_type: str, aclnn: str, *args) -> PreparedCall:
    """Phase 1 of ``aclnn`` (``opsnn.<aclnn>GetWorkspaceSize(*args)``, arguments in CANN
    order), executor made repeatable. Raises :class:`PrepareError` with the aclnn
    status when phase 1 (or making the executor repeatable) fails, AttributeError
    when opsnn has no such entry point."""
    ws, ex, ret = getattr(opsnn, f"{aclnn}GetWorkspaceSize")(*args)
    if ret != 0:
        raise PrepareError(ret, aclnn, opsnn.aclGetRecentErrMsg())
    ret = opsnn.aclSetAclOpExecutorRepeatable(ex)
    if ret != 0:
        raise PrepareError(ret, aclnn, opsnn.aclGetRecentErrMsg())
    return PreparedCall(name, op_type, aclnn, getattr(opsnn, aclnn), ex, ws)


class PreparedProgram:
    """Prepared calls in stream order, their shared workspace and their stream.

    Build it by :meth:`add`-ing calls, then :meth:`allocate` (workspace + stream),
    then upload inputs, :meth:`launch_timed` and read outputs back with
    :func:`download`. ``name`` prefixes the messages of launch failures."""

    def __init__(self, name: str = ""):
        self.name = name
        self.calls: list[PreparedCall] = []
        self.workspace = 0          #: device address of the shared workspace (0: none needed)
        self.stream: int | None = None
        #: per-call workspace addresses from a memory plan (frontend.memory); None: the shared one
        self.call_workspaces: list[int] | None = None
        self.poison: list[list[tuple[int, int]]] | None = None   #: regions to fill after each call
        self._poison_src = 0
        self.model_ri = 0           #: captured model run instance (:meth:`capture`); 0: launch eagerly
        self.captured_tasks = 0     #: tasks in it

    def add(self, *calls: PreparedCall) -> None:
        self.calls.extend(calls)

    @property
    def workspace_size(self) -> int:
        """Bytes of the shared workspace: the largest any call asked for."""
        return max((c.workspace_size for c in self.calls), default=0)

    def set_poison(self, regions: list[list[tuple[int, int]]], alloc) -> None:
        """Poison mode: after call ``i``, fill each ``(address, bytes)`` of ``regions[i]``
        with 0xFF bytes (an async device-to-device copy on the stream; frontend.memory)."""
        n = max((b for r in regions for _, b in r), default=0)
        if n:
            self._poison_src = alloc(n)
            upload(self._poison_src, np.full(n, 0xFF, np.uint8))
        self.poison = regions

    def allocate(self) -> None:
        """aclrtMalloc the shared workspace (when any call needs one), then
        aclrtCreateStream. Each call gives a fresh workspace and stream; the previous
        ones stay allocated. Raises DeviceError (207001 when HBM is full)."""
        size = self.workspace_size if self.call_workspaces is None else 0
        self.workspace = malloc(size) if size else 0
        stream, ret = acl.rt.create_stream()
        check(ret, "acl.rt.create_stream")
        self.stream = stream

    def launch_timed(self, progress: Callable[[int, int], None] | None = None) -> float:
        """Phase 2 of every call on the stream between two events, then synchronise.
        Returns the simulated ns between the events (aclrtEventElapsedTime).

        ``progress(kernels_done, total_calls)`` is reported from a helper thread about
        every :data:`PROGRESS_POLL_S` wall seconds while the device runs, and once at
        the end with ``(total, total)``; it only reads
        ``profiling.kernels_completed()``, so simulated time does not depend on it.
        Raises DeviceError for a failed runtime call or launch."""
        start, end = self._event(), self._event()
        check(acl.rt.record_event(start, self.stream), "acl.rt.record_event")
        if self.model_ri:
            check(acl.mdl.ri_execute_async(self.model_ri, self.stream), "acl.mdl.ri_execute_async")
        else:
            self._launch_all()
        check(acl.rt.record_event(end, self.stream), "acl.rt.record_event")
        total = len(self.calls)
        self._synchronize(progress, total)
        if progress:
            progress(total, total)
        ms, ret = acl.rt.event_elapsed_time(start, end)
        check(ret, "acl.rt.event_elapsed_time")
        return ms * 1e6

    def _launch_all(self) -> None:
        """Phase 2 of every call on the stream (and the poison copies after each)."""
        ws, ws_size = self.workspace, self.workspace_size
        per_call = self.call_workspaces
        for i, c in enumerate(self.calls):
            if per_call is not None:
                ws, ws_size = per_call[i], c.workspace_size
            ret = c.launch(ws, ws_size, c.executor, self.stream)
            if ret != 0:
                where = f"{self.name} " if self.name else ""
                raise DeviceError(ret, f"{c.aclnn} for {where}{c.name!r}: {opsnn.aclGetRecentErrMsg()}",
                                  acl.constants.ERROR_NAMES.get(ret, ""))
            for addr, n in (self.poison[i] if self.poison is not None else ()):
                check(acl.rt.memcpy_async(addr, n, self._poison_src, n, acl.ACL_MEMCPY_DEVICE_TO_DEVICE, self.stream),
                      "acl.rt.memcpy_async (poison)")

    @with_gc_paused   # records ~1 task object per kernel: no cycle scans of the model's heap (npu_sim/host_gc.py)
    def capture(self, live_bytes: list[int] | None = None) -> int:
        """Capture phase 2 of every call once (aclmdlRICaptureBegin in GLOBAL mode on the
        program's stream, the launches and poison copies recorded instead of run,
        aclmdlRICaptureEnd); from then on :meth:`launch_timed` replays the instance
        (aclmdlRIExecuteAsync: one host launch instead of one per kernel). After
        :meth:`allocate`. ``live_bytes``: bytes of intermediates + workspaces live at
        each call, then after the last (``frontend.memory.live_bytes``): the replays
        draw them on the trace's arena counter track. Returns the number of captured
        tasks. Raises DeviceError (the capture is ended first)."""
        s = self.stream
        check(acl.mdl.ri_capture_begin(s, acl.mdl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), "acl.mdl.ri_capture_begin")
        try:
            self._launch_all()
        except BaseException:   # never leave the stream capturing
            acl.mdl.ri_capture_end(s)
            raise
        ri, ret = acl.mdl.ri_capture_end(s)
        check(ret, "acl.mdl.ri_capture_end")
        self.model_ri = ri
        self.captured_tasks = acl.mdl.ri_task_count(ri)
        if live_bytes is not None:
            per_kernel = [b for c, b in zip(self.calls, live_bytes) for _ in range(c.kernel_count)]
            check(acl.mdl.ri_set_arena_use(ri, per_kernel + [live_bytes[len(self.calls)]]), "acl.mdl.ri_set_arena_use")
        return self.captured_tasks

    def try_capture(self, live_bytes: list[int] | None = None) -> tuple[int, str]:
        """:meth:`capture` (``live_bytes`` cut or padded with zeros to one entry per call
        and one after), as ``(captured tasks, "")``, or ``(0, the reason)`` when a call
        cannot be captured: then nothing captured has run and the program launches
        eagerly (``npu-sim run``)."""
        n = len(self.calls)
        live = None if live_bytes is None else list(live_bytes)[:n + 1] + [0] * max(0, n + 1 - len(live_bytes))
        try:
            return self.capture(live), ""
        except DeviceError as e:
            return 0, str(e)

    @staticmethod
    def _event() -> int:
        ev, ret = acl.rt.create_event()
        check(ret, "acl.rt.create_event")
        return ev

    def _synchronize(self, progress, total: int) -> None:
        """aclrtSynchronizeStream, with ``progress`` polled from another thread."""
        if progress is None:
            check(acl.rt.synchronize_stream(self.stream), "acl.rt.synchronize_stream")
            return
        done0 = profiling.kernels_completed()
        stop = threading.Event()

        def poll() -> None:
            while not stop.wait(PROGRESS_POLL_S):
                progress(profiling.kernels_completed() - done0, total)

        poller = threading.Thread(target=poll, name="npu-sim progress", daemon=True)
        poller.start()
        try:
            ret = acl.rt.synchronize_stream(self.stream)
        finally:
            stop.set()
            poller.join()
        check(ret, "acl.rt.synchronize_stream")

    def split_records(self, records: list[dict]) -> list[list[dict]]:
        """``records`` (kernel records of one launch of this program, oldest first) cut
        into one list per call, by each call's kernel count."""
        out, i = [], 0
        for c in self.calls:
            n = c.kernel_count
            out.append(records[i:i + n])
            i += n
        return out
