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


def sustained_hbm_bytes_per_ns(chip) -> float:
    """The rate (bytes/ns = GB/s) the shared HBM server runs at: the peak
    ``hbm_bandwidth_bytes_per_ns``, capped by what the cores can request, times
    ``hbm_efficiency``.

    Assumption [A], named: the platform config's ``[AICoreMemoryRates] ddr_rate`` (bytes
    per cycle) is each AI Core's sustained GM request rate, so the chip as a whole can
    sustain at most ``ddr_bytes_per_cycle x aic_count x clock_hz`` plus, on a chip with
    vector-only cores that have their own rate (310P3 ``[VectorCoreMemoryRates]``),
    ``vector_ddr_bytes_per_cycle x aiv_count x vector_clock_hz``. On 910B2 that is
    32 x 24 x 1.8 GHz = 1382.4 GB/s, 86% of the 1.6 TB/s peak, where public streaming
    measurements sit at 1.25-1.45 TB/s (``benchmarks/fidelity.py``: an fp32 copy of
    128 MiB in 185.6 us, of 224 MiB in 374 us). The same reading of the ini rate is
    made by third-party roofline notes for 910B1 (32 B/cycle x 24 x 1.85 GHz = 1.42
    TB/s). A chip without ``ddr_bytes_per_cycle`` runs at its peak.
    """
    peak = chip.hbm_bandwidth_bytes_per_ns
    cap = 0.0
    if chip.ddr_bytes_per_cycle:
        cap += chip.ddr_bytes_per_cycle * chip.aic_count * chip.clock_hz / 1e9
    if chip.vector_ddr_bytes_per_cycle:
        vclk = chip.vector_clock_hz or chip.clock_hz
        cap += chip.vector_ddr_bytes_per_cycle * chip.aiv_count * vclk / 1e9
    rate = min(peak, cap) if cap else peak
    return rate * chip.hbm_efficiency


def l2_read_bytes_per_ns(chip) -> float:
    """The L2 server's rate for hits (bytes/ns): ``l2_read_bytes_per_cycle`` (ini
    ``[AICoreMemoryRates] l2_read_rate``, per AI Core) x ``aic_count`` x ``clock_hz``
    when the chip gives it (910B2: 110 x 24 x 1.8 GHz = 4752 GB/s), else
    ``l2_bandwidth_bytes_per_ns``. Assumption [A]: the per-core rates add up, as the
    ddr_rate does in :func:`sustained_hbm_bytes_per_ns`."""
    if chip.l2_read_bytes_per_cycle:
        return chip.l2_read_bytes_per_cycle * chip.aic_count * chip.clock_hz / 1e9
    return chip.l2_bandwidth_bytes_per_ns


def l2_write_cost_factor(chip) -> float:
    """Bytes of L2-server time one byte written into L2 costs: read rate / write rate
    (``l2_read_rate`` / ``l2_write_rate``: 110 / 86 on 910B2), 1 when either is unset.
    The L2 server books ``hit_read + factor x hit_write`` bytes, so writes run at the
    ini write rate on the same server as reads."""
    if chip.l2_read_bytes_per_cycle and chip.l2_write_bytes_per_cycle:
        return chip.l2_read_bytes_per_cycle / chip.l2_write_bytes_per_cycle
    return 1.0
