"""Shared bandwidth as a reservation timeline.

A :class:`BandwidthServer` (HBM, the host link) serves transfers first come, first
served at its full rate: a transfer of ``n`` bytes that arrives at ``t`` occupies
the server from ``max(t, free_at)`` for ``n / rate`` ns. Because SimPy processes
call :meth:`reserve` in simulated-time order, this is FIFO service, and when
several cores stream at once each sees its share: two cores each moving ``n``
bytes at the same instant finish at ``n/rate`` and ``2n/rate``, an average of
half the bandwidth each. A transfer's own engine (a core's MTE) may be slower than
its share; the caller takes the later of the two finish times. One reservation is
one arithmetic update, so contention costs no extra SimPy events.
"""
from __future__ import annotations


class BandwidthServer:
    """FIFO bandwidth server. ``rate_bytes_per_ns`` equals GB/s numerically."""

    __slots__ = ("name", "rate_bytes_per_ns", "free_at_ns", "busy_ns", "bytes_moved")

    def __init__(self, name: str, rate_bytes_per_ns: float):
        self.name = name
        self.rate_bytes_per_ns = rate_bytes_per_ns
        self.free_at_ns = 0.0
        self.busy_ns = 0.0
        self.bytes_moved = 0

    def reserve(self, now_ns: float, nbytes: int) -> float:
        """Book ``nbytes`` starting no earlier than ``now_ns``; returns the time (ns)
        the last byte has been served."""
        start = now_ns if now_ns > self.free_at_ns else self.free_at_ns
        service = nbytes / self.rate_bytes_per_ns
        self.free_at_ns = start + service
        self.busy_ns += service
        self.bytes_moved += nbytes
        return self.free_at_ns
