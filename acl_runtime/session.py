"""Session: one ACL context on device 0 as a context manager, with numpy in and out.

Sits directly over :class:`acl_runtime.runtime.Runtime` (not over the pyACL-style
binding), so both levels share one process-wide ACL context and one device::

    from acl_runtime import Session
    import opsnn

    with Session("tiny") as s:
        a, b = s.to_device(x), s.to_device(y)
        out = s.empty((x.shape[0], y.shape[1]), x.dtype)
        opsnn.run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul, a, b, out, 0)
        result = out.numpy()            # blocking copy back: the device clock advances

Naming follows ``../shared/STYLE.md`` section 4: snake_case derived from the CANN
name (``aclrtSynchronizeStream`` -> ``Stream.synchronize``), keyword-only options,
memcpy kinds as :class:`MemcpyKind`, and every failure raised as an exception that
carries its ACL status in ``.code`` (:mod:`acl_runtime.errors`). Operators and
their exceptions are opsnn's (``opsnn.run_op``, ``opsnn.OpError``).

Units: sizes in bytes, device and host times in ns (the simulator's unit),
event timings in ms (as ``aclrtEventElapsedTime``).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import constants as C
from . import sanitizer
from .device_array import DeviceArray
from .errors import AclError, InvalidParamError, NotInitializedError, RepeatInitializeError, raising
from .handles import Event, MemcpyKind, Stream, as_dtype, as_shape, check_int, stream_handle
from .runtime import runtime

_ACTIVE: "Session | None" = None


def active_session() -> "Session | None":
    """The open :class:`Session`, if any."""
    return _ACTIVE


class Session:
    """One ACL context on device 0: aclInit + aclrtSetDevice on entry, aclFinalize
    on exit (which finishes all queued work and frees everything).

    Args:
        chip: a preset name (``"ascend910b2"``, ``"tiny"``, ...), a ``.json``/``.yaml``
            path, or a :class:`npu_sim.ChipConfig`. None (the default): ``$NPU_SIM_CHIP``
            if set, else ascend910b2 -- the same choice ``acl.init()`` makes. A bad chip
            raises InvalidParamError (100000) on open, with the reason (unknown name,
            wrong type, unreadable file, YAML syntax, pydantic validation).
        timing_only: keep no data (device memory unbacked, kernel bodies skipped):
            for architecture sweeps. ``DeviceArray.numpy()`` then raises.
        sanitize: run the stream sanitizer (:mod:`acl_runtime.sanitizer`): races
            between tasks no event orders are issued as ``SanitizerWarning`` and kept
            in :attr:`findings`.

    ACL has one process-wide context, so sessions do not nest: opening a second one
    (or opening one while the binding has ACL initialised) raises RepeatInitializeError.
    """

    def __init__(self, chip: Any = None, *, timing_only: bool = False, sanitize: bool = False):
        self.chip_name = chip
        self.timing_only = timing_only
        self.sanitize = sanitize
        self._open = False
        self._device = None                              # the npu_sim Device this session opened
        self._backed = not timing_only
        self._workspaces: dict[int, DeviceArray] = {}   # per-stream op workspace, grown on demand
        self._retired: list[DeviceArray] = []           # outgrown workspaces, freed at the next sync

    # ---- lifecycle ---------------------------------------------------------------
    def open(self) -> "Session":
        """aclInit + aclrtSetDevice(0). Prefer ``with Session(...) as s``."""
        global _ACTIVE
        if _ACTIVE is not None and not _ACTIVE._live():
            _ACTIVE.close()   # finalised behind its back (acl.finalize): forget it
        if _ACTIVE is not None:
            raise RepeatInitializeError(C.ACL_ERROR_REPEAT_INITIALIZE,
                                        "a Session is already open; sessions do not nest (ACL has one process-wide "
                                        "context): close the other one first")
        rt = runtime()
        with raising():
            rt.init(self.chip_name, backed=self._backed)
        try:
            with raising():
                rt.set_device(0)
        except BaseException:
            rt.finalize()
            raise
        self._device = rt.device
        self._open = True
        _ACTIVE = self
        if self.sanitize:
            sanitizer.enable(True)
        return self

    @property
    def findings(self) -> list:
        """The stream sanitizer's findings so far (:class:`acl_runtime.sanitizer.Finding`)."""
        return sanitizer.findings()

    def close(self) -> None:
        """aclFinalize: finish all queued work and drop every buffer, stream and event.
        Errors of tasks nobody synchronized are discarded, as in ACL."""
        global _ACTIVE
        if not self._open:
            return
        self._open = False
        self._workspaces.clear()
        self._retired.clear()
        if _ACTIVE is self:
            _ACTIVE = None
        rt = runtime()
        if rt.initialized and rt.device is self._device:
            rt.finalize()
        self._device = None

    def __enter__(self) -> "Session":
        return self.open()

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def is_open(self) -> bool:
        """True while the session is open and its device is still the runtime's."""
        return self._live()

    def _live(self) -> bool:
        """Open, and its device is still the runtime's (not finalised through the binding)."""
        return self._open and self._device is not None and runtime().device is self._device

    def _check_open(self) -> None:
        if not self._live():
            raise NotInitializedError(C.ACL_ERROR_UNINITIALIZE,
                                      "this Session is not open (or ACL was finalised under it): "
                                      "use `with Session(...) as s:`")

    # ---- device facts and clocks ---------------------------------------------------
    @property
    def chip(self):
        """The device's :class:`npu_sim.ChipConfig`."""
        self._check_open()
        return runtime().chip

    @property
    def elapsed_ns(self) -> float:
        """Device clock (ns). It advances only when the host synchronizes."""
        self._check_open()
        return runtime().need_device().env.now

    @property
    def host_ns(self) -> float:
        """Simulated host clock (ns): the cost of every API call made so far."""
        self._check_open()
        return runtime().clock.now_ns

    # ---- memory -------------------------------------------------------------------
    def _malloc(self, nbytes: int) -> int:
        self._check_open()
        with raising():
            return runtime().malloc(nbytes)

    def empty(self, shape, dtype) -> DeviceArray:
        """aclrtMalloc for an array of ``shape`` and ``dtype`` (zero-filled by the simulator).

        ``shape``: an int or a tuple of non-negative ints (numpy integers accepted);
        ``dtype``: a numpy dtype with an aclDataType (float32/16, bfloat16, int8..int64,
        uint8, float64, bool, ...). Sizes are computed in Python ints (no int64 wrap).
        Raises InvalidParamError (100000) for a bad shape or dtype, OutOfMemoryError
        (207001) when the array does not fit in HBM."""
        self._check_open()
        shape = as_shape(shape)
        dtype = as_dtype(dtype)
        nbytes = math.prod(shape) * dtype.itemsize
        return DeviceArray(self, self._malloc(max(nbytes, 1)), shape, dtype)

    def to_device(self, array, *, stream: Stream | None = None) -> DeviceArray:
        """aclrtMalloc + a host-to-device copy of ``array`` (made C-contiguous first):
        blocking when ``stream`` is None, else async on ``stream``."""
        try:
            array = np.asarray(array)
        except Exception as e:  # noqa: BLE001 - ragged lists and the like
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"to_device: not array-like: "
                                                             f"{type(e).__name__}: {e}") from None
        if not array.flags.c_contiguous:
            array = array.copy(order="C")   # (np.ascontiguousarray would turn 0-d into 1-d)
        dev = self.empty(array.shape, array.dtype)
        if array.nbytes:
            self.memcpy(dev, array, stream=stream)
        return dev

    def memcpy(self, dst, src, *, kind: MemcpyKind | int | None = None, nbytes: int | None = None,
               stream: Stream | None = None) -> None:
        """aclrtMemcpy (``stream`` None: blocking, after the default stream's work) or
        aclrtMemcpyAsync on ``stream``. ``dst``/``src`` are DeviceArrays or C-contiguous
        numpy arrays; ``kind`` is inferred from them (a given kind must agree);
        ``nbytes`` (a non-negative int) defaults to ``src.nbytes`` and may not exceed
        it or ``dst.nbytes``. Raises InvalidParamError for bad operands, kind or size."""
        self._check_open()
        dptr, dmax, d_dev = self._endpoint(dst, "dst")
        sptr, smax, s_dev = self._endpoint(src, "src")
        inferred = _KIND[(s_dev, d_dev)]
        if kind is not None:
            try:
                kind = MemcpyKind(kind)
            except ValueError:
                raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"unknown memcpy kind {kind!r}") from None
            if kind is not inferred:
                raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM,
                                        f"memcpy kind {kind.name} does not match the operands ({inferred.name})")
        count = smax if nbytes is None else check_int(nbytes, "memcpy nbytes")
        if count > smax:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"memcpy of {count} B reads past src ({smax} B)")
        with raising():
            runtime().memcpy(dptr, dmax, sptr, count, int(inferred), stream_handle(stream), sync=stream is None)

    def _endpoint(self, x, name: str) -> tuple[int, int, bool]:
        """(pointer, bytes, is_device) of a copy operand."""
        if isinstance(x, DeviceArray):
            x._check()
            return x.ptr, x.nbytes, True
        if isinstance(x, np.ndarray):
            if not x.flags.c_contiguous or (name == "dst" and not x.flags.writeable):
                raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM,
                                        f"memcpy {name}: host array must be C-contiguous" +
                                        (" and writeable" if name == "dst" else ""))
            with raising():
                return runtime().register_host(x), x.nbytes, False
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM,
                                f"memcpy {name} must be a DeviceArray or numpy array, got {type(x).__name__}")

    # ---- streams, events, sync ------------------------------------------------------
    @property
    def default_stream(self) -> Stream:
        """The device's default stream (handle 0)."""
        self._check_open()
        return Stream(self, 0)

    def stream(self, *, priority: int = 0, flag: int = 0) -> Stream:
        """aclrtCreateStream, or aclrtCreateStreamWithConfig when ``priority`` (0 the
        highest .. 7 the lowest, clamped) or ``flag`` is given: the core scheduler serves
        the waiting blocks of a higher-priority stream first. Raises AclError 207008
        past the stream limit (captured graphs count against it)."""
        self._check_open()
        with raising():
            if priority or flag:
                return Stream(self, runtime().streams.create_stream(priority, flag))
            return Stream(self, runtime().create_stream())

    def event(self) -> Event:
        """aclrtCreateEvent."""
        self._check_open()
        with raising():
            return Event(self, runtime().create_event())

    def synchronize(self) -> None:
        """aclrtSynchronizeDevice: run every stream to completion (then release
        outgrown op workspaces). Raises SyncTimeoutError / KernelError / MemoryAccessError."""
        self._check_open()
        with raising():
            runtime().synchronize_device()
            while self._retired:
                runtime().free(self._retired.pop().ptr)

    def capture(self, stream: Stream | None = None, *, mode: int = 0):
        """Stream capture as a context manager (aclmdlRICaptureBegin/End; ``mode`` an
        aclmdlRICaptureMode, default GLOBAL): ``with s.capture(st) as g: ...`` records the
        block's tasks, ``g.replay(inputs)`` runs them for one host launch. See
        :class:`acl_runtime.capture.Graph`."""
        from .capture import Graph
        self._check_open()
        return Graph(self, stream or self.default_stream, mode)

    def write_trace(self, path, metadata: dict | None = None):
        """Run queued work to completion and write everything recorded so far as a
        Chrome/Perfetto trace (see traces/README.md). Returns the path written.
        Raises InvalidParamError for an unwritable path."""
        self._check_open()
        with raising():
            try:
                return runtime().write_trace(path, metadata)
            except OSError as e:
                raise AclError(C.ACL_ERROR_INVALID_PARAM, f"cannot write trace {path!r}: {e}") from None

    # ---- operator workspaces -------------------------------------------------------
    def workspace(self, nbytes: int, stream: int = 0) -> int:
        """The device address of a workspace of at least ``nbytes`` for operators on
        stream handle ``stream``. Operators on one stream run in order, so they share
        one buffer (DESIGN.md section 7); a larger request retires the old buffer
        (freed at the next :meth:`synchronize`). Raises like :meth:`empty`."""
        ws = self._workspaces.get(stream)
        if ws is None or ws.nbytes < nbytes:
            if ws is not None:
                self._retired.append(ws)
            ws = self.empty((nbytes,), np.uint8)
            self._workspaces[stream] = ws
        return ws.ptr

    def _retire_workspace(self, stream: int) -> None:
        """Stream ``stream`` was destroyed: its workspace is freed at the next synchronize."""
        ws = self._workspaces.pop(stream, None)
        if ws is not None:
            self._retired.append(ws)

    def __repr__(self) -> str:
        return f"Session(chip={self.chip_name!r}, timing_only={self.timing_only}, open={self._open})"


_KIND = {(False, False): MemcpyKind.HOST_TO_HOST, (False, True): MemcpyKind.HOST_TO_DEVICE,
         (True, False): MemcpyKind.DEVICE_TO_HOST, (True, True): MemcpyKind.DEVICE_TO_DEVICE}
