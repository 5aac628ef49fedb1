"""The simulated host clock and its cost model (ns).

Every runtime or aclnn call advances the host clock by a cost from this module,
and the device cannot start a task before the host has enqueued it, so a host that
spends longer per op than the device needs leaves the device idle (the trace's
idle gaps marked host-bound, ``traces.analysis.idle_gaps``).

All figures are assumptions [A], chosen for the order of magnitude CANN and
torch_npu users report for host-side overhead: a kernel launch costs a few
microseconds; phase 1 (validate, infer shapes, tile, build the executor) costs
several launches, more for Cube kernels whose tiling searches tile shapes; an
executor-cache hit costs a hash and a lookup, well under a launch.

The aclnn two-phase model:

* phase 1, executor built (cache off or miss)::

      prepare_cost_ns = aclnn_prepare                              (checks, infershape, executor)
                      + sum over kernels of TILING_NS[core type]   (one tiling run per kernel)
                      + TILING_CANDIDATE_NS * tiling_candidates    (strategies asked before the one that
                                                                    tiled: opsnn's Phase1Report.extra_candidates)

* phase 1, executor-cache hit: ``aclnn_cache_hit``;
* phase 2: ``aclnn_launch`` per kernel (each kernel is one stream task); an
  executor with no kernels (empty tensors) costs nothing.
"""
from __future__ import annotations

from typing import Iterable

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
    "aclnn_prepare": 10000.0,  # phase 1 base: validate, infer shape, create the executor
    "aclnn_cache_hit": 1500.0,  # phase 1 answered by the executor cache: hash the arguments, look up, bind
    "aclnn_launch": 4000.0,    # phase 2, per kernel: bind addresses, launch one stream task
}

#: phase-1 tiling cost per kernel by core type, ns [A]: a vector kernel splits one
#: dimension over cores and UB; a cube kernel also picks base_m/base_n/base_k and L1 depth
TILING_NS = {"AIV": 3000.0, "AIC": 8000.0}
#: phase-1 cost of each tiling strategy asked (and found not capable) before the one
#: that tiled, ns [A]
TILING_CANDIDATE_NS = 1000.0


def prepare_cost_ns(core_types: Iterable[str], tiling_candidates: int = 0) -> float:
    """Simulated host cost (ns) of a phase 1 that builds an executor with kernels on
    ``core_types`` ("AIC"/"AIV", one entry per kernel) after asking
    ``tiling_candidates`` strategies that could not tile it (module docstring formula)."""
    return (HOST_COST_NS["aclnn_prepare"] + sum(TILING_NS.get(str(c), TILING_NS["AIV"]) for c in core_types)
            + TILING_CANDIDATE_NS * max(int(tiling_candidates), 0))


class HostClock:
    """Host time in ns. ``advance`` charges a call; ``advance_ns`` charges an explicit
    duration; ``catch_up`` jumps to the device time after a synchronization."""

    __slots__ = ("now_ns",)

    def __init__(self) -> None:
        self.now_ns = 0.0

    def advance(self, what: str) -> tuple[float, float]:
        """Charge ``what`` (a key of HOST_COST_NS); returns (start, duration) ns."""
        return self.advance_ns(HOST_COST_NS[what])

    def advance_ns(self, dur_ns: float) -> tuple[float, float]:
        """Charge ``dur_ns`` ns; returns (start, duration) ns."""
        start = self.now_ns
        self.now_ns = start + dur_ns
        return start, dur_ns

    def catch_up(self, device_now_ns: float) -> None:
        if device_now_ns > self.now_ns:
            self.now_ns = device_now_ns
