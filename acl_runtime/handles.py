"""Argument checks, memcpy kinds, and the Stream and Event handles of the Pythonic layer.

Handles wrap the binding-level ids (``acl.rt.create_stream`` returns them) and call
the process-wide runtime; failures raise the typed exceptions of
:mod:`acl_runtime.errors`. Event timings are in ms, as ``aclrtEventElapsedTime``.
"""
from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

import numpy as np

from . import constants as C
from .acl_base import from_numpy_dtype
from .errors import InvalidParamError, raising
from .runtime import runtime

if TYPE_CHECKING:
    from .session import Session

# ---------------------------------------------------------------------------- argument checks


def check_int(value, what: str, min_value: int = 0) -> int:
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


def as_shape(shape) -> tuple[int, ...]:
    """A shape as a tuple of Python ints: one int or a tuple/list of non-negative ints
    (numpy integers accepted; floats, bools, strings refused)."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    elif isinstance(shape, np.ndarray) and shape.ndim == 1 and shape.dtype.kind in "iu":
        shape = tuple(shape.tolist())
    if not isinstance(shape, (tuple, list)):
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"shape must be an int or a tuple of ints, got "
                                                         f"{type(shape).__name__} {shape!r}")
    return tuple(check_int(d, f"shape {list(shape)}: dimension") for d in shape)


def as_dtype(dtype) -> np.dtype:
    """A numpy dtype that has an aclDataType (:mod:`acl_runtime.acl_base`), else InvalidParamError."""
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
        with raising():
            runtime().synchronize_stream(self.handle)

    def wait(self, event: "Event") -> None:
        """aclrtStreamWaitEvent: later tasks on this stream wait for ``event``'s latest record."""
        self.session._check_open()
        event = need_event(event, "Stream.wait")
        with raising():
            runtime().stream_wait_event(self.handle, event.handle)

    def record(self, event: "Event") -> "Event":
        """aclrtRecordEvent on this stream; returns ``event``."""
        need_event(event, "Stream.record").record(self)
        return event

    def destroy(self) -> None:
        """aclrtDestroyStream (finishes the stream's work first)."""
        self.session._check_open()
        with raising():
            runtime().destroy_stream(self.handle)
        self.session._retire_workspace(self.handle)

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
        with raising():
            runtime().record_event(self.handle, stream_handle(stream))

    def synchronize(self) -> None:
        """aclrtSynchronizeEvent: run the device until the latest record has happened."""
        self.session._check_open()
        with raising():
            runtime().synchronize_event(self.handle)

    def query(self) -> bool:
        """aclrtQueryEventStatus: True once the latest record has run on the device
        (False if never recorded or still queued). Does not advance the device."""
        self.session._check_open()
        with raising():
            return runtime().query_event_status(self.handle) == C.ACL_EVENT_RECORDED_STATUS_COMPLETE

    def reset(self, stream: Stream | None = None) -> None:
        """aclrtResetEvent on ``stream`` (default stream if None)."""
        self.session._check_open()
        with raising():
            runtime().reset_event(self.handle, stream_handle(stream))

    @property
    def timestamp_us(self) -> int:
        """aclrtEventGetTimestamp: device time (us) at which the latest record ran;
        InvalidParamError before a completed record."""
        self.session._check_open()
        with raising():
            return runtime().event_timestamp_us(self.handle)

    def destroy(self) -> None:
        """aclrtDestroyEvent."""
        self.session._check_open()
        with raising():
            runtime().destroy_event(self.handle)

    @staticmethod
    def elapsed_ms(start: "Event", end: "Event") -> float:
        """aclrtEventElapsedTime: device time in ms from ``start``'s record to ``end``'s.
        Both must be recorded and completed (synchronize first), else InvalidParamError."""
        start = need_event(start, "Event.elapsed_ms start")
        end = need_event(end, "Event.elapsed_ms end")
        start.session._check_open()
        with raising():
            return runtime().event_elapsed_time(start.handle, end.handle)

    def __repr__(self) -> str:
        return f"Event({self.handle})"


def need_event(event, what: str) -> "Event":
    """``event`` if it is an :class:`Event`, else InvalidParamError naming ``what``."""
    if not isinstance(event, Event):
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{what}: expected an Event (from Session.event()), got "
                                                         f"{type(event).__name__}")
    return event


def stream_handle(stream: Stream | int | None) -> int:
    """The binding-level handle of ``stream`` (None -> 0, the default stream; an int as is)."""
    if stream is None:
        return 0
    if isinstance(stream, Stream):
        stream.session._check_open()
        return stream.handle
    return stream
