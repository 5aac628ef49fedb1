"""The Pythonic layer: context managers, numpy in and out, typed exceptions.

Sits directly over :class:`acl_runtime.runtime.Runtime` (not over the pyACL-style
binding), so both levels share one process-wide ACL context and one device::

    from acl_runtime.api import Session, run_op
    import opsnn

    with Session("tiny") as s:
        a, b = s.to_device(x), s.to_device(y)
        out = s.empty((x.shape[0], y.shape[1]), x.dtype)
        run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul, a, b, out, 0)
        result = out.numpy()            # blocking copy back: the device clock advances

Naming follows ``../shared/STYLE.md`` section 4: snake_case derived from the CANN
name (``aclrtSynchronizeStream`` -> ``Stream.synchronize``), keyword-only options,
memcpy kinds as :class:`MemcpyKind`, and every failure raised as an exception that
carries its CANN status in ``.code`` (``ACL_ERROR_*`` codes for the runtime,
:class:`AclRuntimeError` and subclasses; ``ACLNN_*`` codes for operators,
:class:`OpError`). Status codes: CANN AscendCL "aclError" reference and
``aclnn_base.h``, as listed in ``../shared/DESIGN.md`` sections 5 and 6.

Units: sizes in bytes, device and host times in ns (the simulator's unit),
event timings in ms (as ``aclrtEventElapsedTime``).
"""
from __future__ import annotations

import contextlib
import math
from enum import IntEnum
from typing import Any, Callable, Iterator

import numpy as np

from . import constants as C
from .runtime import AclError, runtime

# ---------------------------------------------------------------------------- exceptions


class AclRuntimeError(Exception):
    """A failed ACL runtime call. ``code`` is the ACL status (``ACL_ERROR_*``),
    ``message`` the readable text; ``str(err)`` is ``"[code NAME] message"``."""

    def __init__(self, code: int, message: str):
        super().__init__(f"[{code} {C.ERROR_NAMES.get(code, '')}] {message}")
        self.code = code
        self.message = message


class InvalidParamError(AclRuntimeError):
    """ACL_ERROR_INVALID_PARAM (100000) / ACL_ERROR_RT_PARAM_INVALID (107000): a bad
    argument (size, pointer, kind, handle, double free, unrecorded event...)."""


class NotInitializedError(AclRuntimeError):
    """ACL_ERROR_UNINITIALIZE (100001): no ACL context (no open :class:`Session`)."""


class RepeatInitializeError(AclRuntimeError):
    """ACL_ERROR_REPEAT_INITIALIZE (100002): ACL is already initialised (sessions do not nest)."""


class InvalidDeviceError(AclRuntimeError):
    """ACL_ERROR_INVALID_DEVICE (100004): no such device, or none set."""


class OutOfMemoryError(AclRuntimeError):
    """ACL_ERROR_RT_MEMORY_ALLOCATION (207001) / ACL_ERROR_BAD_ALLOC (200000): device memory exhausted."""


class SyncTimeoutError(AclRuntimeError):
    """ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046) / ACL_ERROR_RT_EVENT_SYNC_TIMEOUT (507047):
    a synchronization that can never finish (a stream waits on an event nobody records)."""


class MemoryAccessError(AclRuntimeError):
    """507899 (simulator-specific): a kernel or copy touched freed or unallocated device memory."""


class KernelError(AclRuntimeError):
    """ACL_ERROR_RT_AICORE_EXCEPTION (507015): a kernel failed on the device."""


#: ACL status -> exception class; codes not listed raise the base class.
ERROR_CLASSES: dict[int, type[AclRuntimeError]] = {
    C.ACL_ERROR_INVALID_PARAM: InvalidParamError,
    C.ACL_ERROR_RT_PARAM_INVALID: InvalidParamError,
    C.ACL_ERROR_RT_INVALID_MEMORY_TYPE: InvalidParamError,
    C.ACL_ERROR_UNINITIALIZE: NotInitializedError,
    C.ACL_ERROR_REPEAT_INITIALIZE: RepeatInitializeError,
    C.ACL_ERROR_INVALID_DEVICE: InvalidDeviceError,
    C.ACL_ERROR_BAD_ALLOC: OutOfMemoryError,
    C.ACL_ERROR_RT_MEMORY_ALLOCATION: OutOfMemoryError,
    C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT: SyncTimeoutError,
    C.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT: SyncTimeoutError,
    C.ACL_ERROR_RT_MEMORY_ACCESS: MemoryAccessError,
    C.ACL_ERROR_RT_AICORE_EXCEPTION: KernelError,
}


def error_from_code(code: int, message: str) -> AclRuntimeError:
    """The typed exception for ACL status ``code`` (see :data:`ERROR_CLASSES`)."""
    return ERROR_CLASSES.get(code, AclRuntimeError)(code, message)


class OpError(Exception):
    """A failed aclnn call: ``code`` is the aclnn status (161001 ACLNN_ERR_PARAM_NULLPTR,
    161002 ACLNN_ERR_PARAM_INVALID, 361001 ACLNN_ERR_RUNTIME_ERROR, 561xxx inner
    errors) and ``message`` the ``aclGetRecentErrMsg()`` text."""

    def __init__(self, code: int, message: str):
        from opsnn.base.status import STATUS_NAMES
        text = message if message.startswith(f"[{code}") else f"[{code} {STATUS_NAMES.get(code, '')}] {message}"
        super().__init__(text)
        self.code = code
        self.message = message


@contextlib.contextmanager
def _raising() -> Iterator[None]:
    """Turn a Runtime failure into its typed exception (remembered for aclGetRecentErrMsg):
    AclError -> its class by code; TypeError/ValueError -> InvalidParamError (100000);
    MemoryError -> OutOfMemoryError (200000 ACL_ERROR_BAD_ALLOC); any other exception ->
    AclRuntimeError (500000 ACL_ERROR_INTERNAL_ERROR) naming its type. Typed exceptions
    of this module pass through."""
    try:
        yield
    except (AclRuntimeError, OpError):
        raise
    except AclError as e:
        runtime().last_error = str(e)
        raise error_from_code(e.code, e.message) from None
    except Exception as e:  # noqa: BLE001 - the Pythonic layer raises only typed exceptions
        if isinstance(e, (TypeError, ValueError)):
            code, text = C.ACL_ERROR_INVALID_PARAM, str(e)
        elif isinstance(e, MemoryError):
            code, text = C.ACL_ERROR_BAD_ALLOC, f"MemoryError: {e}"
        else:
            code, text = C.ACL_ERROR_INTERNAL_ERROR, f"unexpected {type(e).__name__}: {e}"
        err = error_from_code(code, text)
        runtime().last_error = str(err)
        raise err from None


def _check_int(value, what: str, min_value: int = 0) -> int:
    """``value`` as a Python int (Python or numpy integer, not bool, >= ``min_value``),
    else InvalidParamError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{what} must be an int, got {type(value).__name__} "
                                                         f"{value!r}")
    if value < min_value:
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{what} must be "
                                                         f"{'non-negative' if min_value == 0 else f'>= {min_value}'}, "
                                                         f"got {value}")
    return int(value)


def _shape(shape) -> tuple[int, ...]:
    """A shape as a tuple of Python ints: one int or a tuple/list of non-negative ints
    (numpy integers accepted; floats, bools, strings refused)."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    elif isinstance(shape, np.ndarray) and shape.ndim == 1 and shape.dtype.kind in "iu":
        shape = tuple(shape.tolist())
    if not isinstance(shape, (tuple, list)):
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"shape must be an int or a tuple of ints, got "
                                                         f"{type(shape).__name__} {shape!r}")
    return tuple(_check_int(d, f"shape {list(shape)}: dimension") for d in shape)


def _dtype(dtype) -> np.dtype:
    """A numpy dtype that has an aclDataType (opsnn.base.dtypes), else InvalidParamError."""
    from opsnn.base.dtypes import from_numpy_dtype
    if dtype is None:
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, "dtype is required (None would mean float64)")
    try:
        dt = np.dtype(dtype)
        from_numpy_dtype(dt)
    except TypeError as e:
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"dtype {dtype!r} is not a numpy dtype: {e}") from None
    except ValueError as e:
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"dtype {dtype!r}: {e}") from None
    return dt


# ---------------------------------------------------------------------------- enums and handles


class MemcpyKind(IntEnum):
    """aclrtMemcpyKind (acl_rt.h): the direction of a copy."""

    HOST_TO_HOST = C.ACL_MEMCPY_HOST_TO_HOST
    HOST_TO_DEVICE = C.ACL_MEMCPY_HOST_TO_DEVICE
    DEVICE_TO_HOST = C.ACL_MEMCPY_DEVICE_TO_HOST
    DEVICE_TO_DEVICE = C.ACL_MEMCPY_DEVICE_TO_DEVICE


class Stream:
    """An aclrtStream. Tasks on one stream run in order; streams run concurrently.
    ``handle`` is the binding-level id (0 = the default stream)."""

    def __init__(self, session: "Session", handle: int):
        self.session = session
        self.handle = handle

    def synchronize(self) -> None:
        """aclrtSynchronizeStream: run the device until this stream's work is done.
        Raises SyncTimeoutError (507046) if it never can, KernelError/MemoryAccessError
        for a failed task."""
        self.session._check_open()
        with _raising():
            runtime().synchronize_stream(self.handle)

    def wait(self, event: "Event") -> None:
        """aclrtStreamWaitEvent: later tasks on this stream wait for ``event``'s latest record."""
        self.session._check_open()
        event = _need_event(event, "Stream.wait")
        with _raising():
            runtime().stream_wait_event(self.handle, event.handle)

    def record(self, event: "Event") -> "Event":
        """aclrtRecordEvent on this stream; returns ``event``."""
        _need_event(event, "Stream.record").record(self)
        return event

    def destroy(self) -> None:
        """aclrtDestroyStream (finishes the stream's work first)."""
        self.session._check_open()
        with _raising():
            runtime().destroy_stream(self.handle)
        ws = self.session._workspaces.pop(self.handle, None)
        if ws is not None:
            self.session._retired.append(ws)

    def __repr__(self) -> str:
        return f"Stream({'default' if self.handle == 0 else self.handle})"


class Event:
    """An aclrtEvent: a marker recorded on a stream, with the device time it ran at."""

    def __init__(self, session: "Session", handle: int):
        self.session = session
        self.handle = handle

    def record(self, stream: Stream | None = None) -> None:
        """aclrtRecordEvent: enqueue EVENT_RECORD on ``stream`` (default stream if None)."""
        self.session._check_open()
        with _raising():
            runtime().record_event(self.handle, _stream_handle(stream))

    def synchronize(self) -> None:
        """aclrtSynchronizeEvent: run the device until the latest record has happened."""
        self.session._check_open()
        with _raising():
            runtime().synchronize_event(self.handle)

    def destroy(self) -> None:
        """aclrtDestroyEvent."""
        self.session._check_open()
        with _raising():
            runtime().destroy_event(self.handle)

    @staticmethod
    def elapsed_ms(start: "Event", end: "Event") -> float:
        """aclrtEventElapsedTime: device time in ms from ``start``'s record to ``end``'s.
        Both must be recorded and completed (synchronize first), else InvalidParamError."""
        start = _need_event(start, "Event.elapsed_ms start")
        end = _need_event(end, "Event.elapsed_ms end")
        start.session._check_open()
        with _raising():
            return runtime().event_elapsed_time(start.handle, end.handle)

    def __repr__(self) -> str:
        return f"Event({self.handle})"


def _need_event(event, what: str) -> "Event":
    if not isinstance(event, Event):
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{what}: expected an Event (from Session.event()), got "
                                                         f"{type(event).__name__}")
    return event


def _stream_handle(stream: Stream | int | None) -> int:
    if stream is None:
        return 0
    if isinstance(stream, Stream):
        stream.session._check_open()
        return stream.handle
    return stream


# ---------------------------------------------------------------------------- device arrays


class DeviceArray:
    """A device buffer with a shape and a numpy dtype (always C-contiguous).

    Made by :meth:`Session.to_device` / :meth:`Session.empty`. ``ptr`` is the device
    address (64 B aligned), ``nbytes`` the array's bytes (the allocation is rounded up
    to 32 B, and is at least 32 B for an empty array). Valid until :meth:`free` or the
    end of its session.
    """

    def __init__(self, session: "Session", ptr: int, shape: tuple[int, ...], dtype: np.dtype):
        self.session = session
        self.ptr = ptr
        self.shape = shape
        self.dtype = dtype
        self._tensor = None
        self._freed = False

    @property
    def nbytes(self) -> int:
        """Bytes of the array's elements (``prod(shape) * itemsize``, Python ints)."""
        return math.prod(self.shape) * self.dtype.itemsize

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def _check(self) -> None:
        self.session._check_open()
        if self._freed:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"device array at {self.ptr:#x} was freed")

    @property
    def tensor(self):
        """An opsnn ``aclTensor`` (ND format, contiguous) over this buffer, created on
        first use. Raises OpError if aclCreateTensor refuses the metadata."""
        self._check()
        if self._tensor is None:
            import opsnn
            from opsnn.base.dtypes import from_numpy_dtype
            try:
                code = from_numpy_dtype(self.dtype)
            except ValueError as e:
                raise OpError(161002, f"aclCreateTensor: {e}") from None
            t = opsnn.aclCreateTensor(self.shape, code, None, 0, opsnn.aclFormat.ACL_FORMAT_ND, self.shape, self.ptr)
            if t is None:
                raise OpError(161002, opsnn.aclGetRecentErrMsg())
            self._tensor = t
        return self._tensor

    def numpy(self, *, stream: Stream | None = None) -> np.ndarray:
        """Copy back to a new host array. Blocking: with ``stream`` None an aclrtMemcpy
        ordered after the default stream's work; otherwise an aclrtMemcpyAsync on
        ``stream`` followed by its synchronization. Not available in timing-only mode."""
        self._check()
        if not self.session._backed:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM,
                                    "a timing_only session holds no data: numpy() has nothing to return")
        out = np.empty(self.shape, self.dtype)
        self.session.memcpy(out, self, stream=stream)
        if stream is not None:
            stream.synchronize()
        return out

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def copy_from(self, array: np.ndarray, *, stream: Stream | None = None) -> None:
        """Overwrite the buffer with ``array`` (same shape and dtype): blocking when
        ``stream`` is None, else an async copy on ``stream`` (the host data is read at
        enqueue)."""
        self._check()
        try:
            array = np.asarray(array)
        except Exception as e:  # noqa: BLE001 - ragged lists and the like
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"copy_from: not array-like: "
                                                             f"{type(e).__name__}: {e}") from None
        if array.shape != self.shape or array.dtype != self.dtype:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"copy_from: got {array.dtype}{list(array.shape)}, "
                                                             f"buffer is {self.dtype}{list(self.shape)}")
        self.session.memcpy(self, array, stream=stream)

    def free(self) -> None:
        """aclrtFree (waits for queued work first). A second free raises InvalidParamError."""
        self.session._check_open()
        with _raising():
            runtime().free(self.ptr)
        self._freed = True
        if self._tensor is not None:
            self._tensor.destroyed = True

    def __repr__(self) -> str:
        state = " freed" if self._freed else ""
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr={self.ptr:#x}{state})"


# ---------------------------------------------------------------------------- session

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

    ACL has one process-wide context, so sessions do not nest: opening a second one
    (or opening one while the binding has ACL initialised) raises RepeatInitializeError.
    """

    def __init__(self, chip: Any = None, *, timing_only: bool = False):
        self.chip_name = chip
        self.timing_only = timing_only
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
        with _raising():
            rt.init(self.chip_name, backed=self._backed)
        try:
            with _raising():
                rt.set_device(0)
        except BaseException:
            rt.finalize()
            raise
        self._device = rt.device
        self._open = True
        _ACTIVE = self
        return self

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
        with _raising():
            return runtime().malloc(nbytes)

    def empty(self, shape, dtype) -> DeviceArray:
        """aclrtMalloc for an array of ``shape`` and ``dtype`` (zero-filled by the simulator).

        ``shape``: an int or a tuple of non-negative ints (numpy integers accepted);
        ``dtype``: a numpy dtype with an aclDataType (float32/16, bfloat16, int8..int64,
        uint8, float64, bool, ...). Sizes are computed in Python ints (no int64 wrap).
        Raises InvalidParamError (100000) for a bad shape or dtype, OutOfMemoryError
        (207001) when the array does not fit in HBM."""
        self._check_open()
        shape = _shape(shape)
        dtype = _dtype(dtype)
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
        count = smax if nbytes is None else _check_int(nbytes, "memcpy nbytes")
        if count > smax:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"memcpy of {count} B reads past src ({smax} B)")
        with _raising():
            runtime().memcpy(dptr, dmax, sptr, count, int(inferred), _stream_handle(stream), sync=stream is None)

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
            with _raising():
                return runtime().register_host(x), x.nbytes, False
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM,
                                f"memcpy {name} must be a DeviceArray or numpy array, got {type(x).__name__}")

    # ---- streams, events, sync ------------------------------------------------------
    @property
    def default_stream(self) -> Stream:
        """The device's default stream (handle 0)."""
        self._check_open()
        return Stream(self, 0)

    def stream(self) -> Stream:
        """aclrtCreateStream."""
        self._check_open()
        with _raising():
            return Stream(self, runtime().create_stream())

    def event(self) -> Event:
        """aclrtCreateEvent."""
        self._check_open()
        with _raising():
            return Event(self, runtime().create_event())

    def synchronize(self) -> None:
        """aclrtSynchronizeDevice: run every stream to completion (then release
        outgrown op workspaces). Raises SyncTimeoutError / KernelError / MemoryAccessError."""
        self._check_open()
        with _raising():
            runtime().synchronize_device()
            while self._retired:
                runtime().free(self._retired.pop().ptr)

    def write_trace(self, path, metadata: dict | None = None):
        """Run queued work to completion and write everything recorded so far as a
        Chrome/Perfetto trace (see traces/README.md). Returns the path written.
        Raises InvalidParamError for an unwritable path."""
        self._check_open()
        with _raising():
            try:
                return runtime().write_trace(path, metadata)
            except OSError as e:
                raise AclError(C.ACL_ERROR_INVALID_PARAM, f"cannot write trace {path!r}: {e}") from None

    # ---- operators ------------------------------------------------------------------
    def _workspace(self, nbytes: int, stream: int) -> int:
        """A workspace of at least ``nbytes`` for ops on ``stream``. Ops on one stream run
        in order, so they share one buffer (DESIGN.md section 7); a larger request
        retires the old buffer (freed at the next :meth:`synchronize`)."""
        ws = self._workspaces.get(stream)
        if ws is None or ws.nbytes < nbytes:
            if ws is not None:
                self._retired.append(ws)
            ws = self.empty((nbytes,), np.uint8)
            self._workspaces[stream] = ws
        return ws.ptr

    def run_op(self, prepare_fn: Callable, launch_fn: Callable, *args, stream: Stream | None = None):
        """:func:`run_op` on this session."""
        self._check_open()
        return run_op(prepare_fn, launch_fn, *args, stream=stream)

    def __repr__(self) -> str:
        return f"Session(chip={self.chip_name!r}, timing_only={self.timing_only}, open={self._open})"


_KIND = {(False, False): MemcpyKind.HOST_TO_HOST, (False, True): MemcpyKind.HOST_TO_DEVICE,
         (True, False): MemcpyKind.DEVICE_TO_HOST, (True, True): MemcpyKind.DEVICE_TO_DEVICE}


def run_op(prepare_fn: Callable, launch_fn: Callable, *args, stream: Stream | int | None = None):
    """Run one aclnn operator through both phases and return its executor.

    ``prepare_fn(*args)`` is phase 1 (``aclnnXxxGetWorkspaceSize``; DeviceArray
    arguments are passed as their ``.tensor``) and must return
    ``(workspace_size, executor, status)``; then a workspace of that many bytes is
    provided and ``launch_fn(workspace, workspace_size, executor, stream)``
    (``aclnnXxx``) enqueues the kernels. Asynchronous: synchronize to see the result.

    Workspace: with an open Session, one per-stream buffer reused across ops;
    without one (ACL initialised through the binding), a fresh buffer freed right
    after the launch, which makes the call blocking.

    Raises OpError (the aclnn status and ``aclGetRecentErrMsg()``) if either phase
    fails, OutOfMemoryError if the workspace does not fit.
    """
    from opsnn.base.status import aclGetRecentErrMsg
    args = tuple(a.tensor if isinstance(a, DeviceArray) else a for a in args)
    ws_size, executor, ret = prepare_fn(*args)
    if ret != 0:
        raise OpError(ret, aclGetRecentErrMsg())
    handle = _stream_handle(stream)
    session = _ACTIVE if _ACTIVE is not None and _ACTIVE._live() else None
    workspace = 0
    if ws_size:
        if session is not None:
            workspace = session._workspace(ws_size, handle)
        else:
            with _raising():
                workspace = runtime().malloc(ws_size)
    try:
        ret = launch_fn(workspace, ws_size, executor, handle)
    finally:
        if workspace and session is None:
            with _raising():
                runtime().free(workspace)
    if ret != 0:
        raise OpError(ret, aclGetRecentErrMsg())
    return executor


__all__ = [
    "AclRuntimeError", "InvalidParamError", "NotInitializedError", "RepeatInitializeError", "InvalidDeviceError",
    "OutOfMemoryError", "SyncTimeoutError", "MemoryAccessError", "KernelError", "OpError", "ERROR_CLASSES",
    "error_from_code", "MemcpyKind", "Session", "DeviceArray", "Stream", "Event", "run_op", "active_session",
]
