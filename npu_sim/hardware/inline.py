"""The uncontended fast path: a kernel's blocks run without SimPy events.

When nothing else on the device can act while a kernel's blocks run (the device
checks: ``Device._uncontended``), the :func:`~npu_sim.hardware.pipeline.run_block`
generators of its blocks are driven here, in the order SimPy would resume them, so
every bandwidth reservation, L2 access and trace span happens in the same order with
the same float clock values: the times are identical to the event path
(tests/perf/test_fast_path.py compares both). What it saves: per block a SimPy
process, its start event, its timeouts and its end event, plus the kernel's AllOf.
"""
from __future__ import annotations

from heapq import heappop, heappush


class InlineClock:
    """A stand-in for the SimPy environment that :func:`run_block` sees on the fast
    path (:func:`run_blocks_inline`): ``now`` is the block's clock (ns) and
    ``timeout(d)`` hands the delay back to the inline scheduler."""

    __slots__ = ("now",)

    def __init__(self, now: float) -> None:
        self.now = now

    @staticmethod
    def timeout(delay: float) -> float:
        return delay


def run_blocks_inline(gens: list, clock: InlineClock, dispatch_ns: float = 0.0) -> float:
    """Run the :func:`run_block` generators ``gens`` (each made with ``env=clock``)
    to completion in SimPy's own order, without SimPy: a heap keyed ``(time,
    priority, sequence)`` exactly as ``simpy.Environment`` keys its queue (the
    processes' start events urgent, at ``clock.now``, in creation order; each yielded
    timeout normal, due at ``now + delay``, numbered in creation order). Exact only
    when nothing else can run meanwhile (the device checks that: its queue is empty,
    no block waits for a core and every block got one at once). Returns the time
    (ns) the last block ended, computed with the same float additions as SimPy.

    ``dispatch_ns`` > 0: the generators were made without their dispatch wait (each
    block's first ``timeout(dispatch_ns)``), which is taken here instead: every block
    would start, yield that one delay and be due at the same float ``now +
    dispatch_ns``, numbered in creation order after all the starts, so each starts
    there directly, in that order, with its sequence number and none of the start
    steps (the same order and clock values, ``len(gens)`` resumes fewer)."""
    now = clock.now
    if dispatch_ns:
        t = now + dispatch_ns
        n = len(gens)
        heap = [(t, 1, n + k, g) for k, g in enumerate(gens)]
        seq = 2 * n
    else:
        heap = [(now, 0, k, g) for k, g in enumerate(gens)]
        seq = len(gens)
    while heap:
        t, _, _, g = heappop(heap)
        clock.now = now = t
        try:
            d = next(g)
        except StopIteration:
            continue
        heappush(heap, (t + d, 1, seq, g))
        seq += 1
    return now


__all__ = ["InlineClock", "run_blocks_inline"]
