"""The simulated host clock and its cost model (ns).

Every runtime or aclnn call advances the host clock by a fixed cost, and the device
cannot start a task before the host has enqueued it. All figures are assumptions
[A], chosen to match the order of magnitude CANN users report for host-side API
overhead (a launch costs microseconds; phase 1 costs several times a launch).
"""
from __future__ import annotations

#: host cost of each API, ns [A]
HOST_COST_NS = {
    "malloc": 1000.0,
    "free": 500.0,
    "memcpy": 1000.0,          # enqueue cost; the copy itself is timed on the device
    "memcpy_async": 1000.0,
    "create_stream": 2000.0,
    "create_event": 500.0,
    "record_event": 500.0,
    "stream_wait_event": 500.0,
    "synchronize": 1000.0,
    "aclnn_prepare": 15000.0,  # phase 1: validate, infer shape, tiling
    "aclnn_launch": 4000.0,    # phase 2: bind addresses, launch
}


class HostClock:
    """Host time in ns. ``advance`` charges a call; ``catch_up`` jumps to the device
    time after a synchronization."""

    __slots__ = ("now_ns",)

    def __init__(self) -> None:
        self.now_ns = 0.0

    def advance(self, what: str) -> tuple[float, float]:
        """Charge ``what`` (a key of HOST_COST_NS); returns (start, duration) ns."""
        start = self.now_ns
        dur = HOST_COST_NS[what]
        self.now_ns = start + dur
        return start, dur

    def catch_up(self, device_now_ns: float) -> None:
        if device_now_ns > self.now_ns:
            self.now_ns = device_now_ns
