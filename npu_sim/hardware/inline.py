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

from .block_book import book_block


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



#: False: every kernel on the fast path runs its blocks' generators (the tests compare both)
ONE_TILE_LOOP = True


def run_kernel_inline(dev, spec, stats, scope, unit: str, dispatch_ns: float) -> float:
    """A kernel's blocks on the fast path (``Device._blocks_inline``): each gets a core
    in block order, then they run as :func:`run_blocks_inline` runs their
    :func:`~npu_sim.hardware.pipeline.run_block` generators. Returns the time (ns)
    the last block ended.

    When every block is a one-tile program (``CompiledProgram.single``, the lean case
    of hardware/single_tile.py), the blocks run in :func:`_one_tile_blocks` instead: the
    same steps in the same order, with no generator per block.
    tests/perf/test_blocks_one_tile.py compares both paths."""
    from .pipeline import SINGLE_TILE, run_block
    sched = dev.scheduler
    kind = spec.core_type
    cores = [sched.acquire(kind) for _ in spec.blocks]
    now = dev.env._now
    if ONE_TILE_LOOP and SINGLE_TILE:
        compiled = dev.compiled
        cps = [compiled(p) for p in spec.blocks]
        if all(cp.single for cp in cps):
            return _one_tile_blocks(dev, spec, stats, unit, dispatch_ns, cores, cps, now)
    clock = InlineClock(now)
    release = sched.release
    gens = [run_block(dev, core, prog, spec, stats, scope, unit, 0.0, release, clock)
            for core, prog in zip(cores, spec.blocks)]
    return run_blocks_inline(gens, clock, dispatch_ns)


def _one_tile_blocks(dev, spec, stats, unit: str, dispatch_ns: float, cores, cps, now: float) -> float:
    """One-tile blocks without generators: each block's stages run strictly in order,
    exactly as hardware/single_tile.py's ``run_single_tile`` runs them (the same float
    operations, the same bookings of the HBM and L2 servers, spans and stats), and the
    blocks interleave as :func:`run_blocks_inline` would resume their generators: a heap
    keyed ``(time, priority, sequence)``, a block leaving the heap where its generator
    would yield (a GM stage that starts after the clock, and its end). Returns the
    time (ns) of the last step, as :func:`run_blocks_inline` does."""
    n = len(cps)
    rec = dev.recorder
    sink = rec.pipe_sink() if rec.enabled and rec.pipes else None
    label = spec.name
    res = stats.resident
    hreserve, lreserve = dev.hbm.reserve, dev.l2.reserve
    release = dev.scheduler.release
    stages = {}
    for cp in cps:
        if id(cp) not in stages:
            stages[id(cp)] = tuple(grp[0][1:] for grp in cp.groups)
    plans = [stages[id(cp)] for cp in cps]
    if dispatch_ns:
        start = now + dispatch_ns
        heap = [(start, 1, n + k, k) for k in range(n)]
        seq = 2 * n
    else:
        start = now
        heap = [(now, 0, k, k) for k in range(n)]
        seq = n
    # per block: next stage, its start, the block's end so far, its sums (as run_single_tile keeps them)
    nxt = [0] * n
    tt = [start] * n
    ends = [start] * n
    sums = [None] * n
    wait = [0] * n   # 1: the block yielded to its stage nxt[k]'s start; 2: to its end
    tracks = [None] * n
    t = now
    while heap:
        t, _, _, k = heappop(heap)
        st = plans[k]
        s = nxt[k]
        w = wait[k]
        if w == 2:
            _book(stats, cps[k].pipes, sums[k], ends[k] - start, unit)
            release(cores[k])
            continue
        if s == 0 and sums[k] is None:
            S = len(st)
            sums[k] = [[0.0] * S, [0.0] * S, 0.0, 0, 0, 0]
            if sink is not None:
                tracks[k] = dev.pipe_tracks(cores[k], cps[k].pipes)
        sm = sums[k]
        busy_pipe, fixed_pipe = sm[0], sm[1]
        ts = tt[k]
        block_end = ends[k]
        S = len(st)
        while s < S:
            eng, fixed, scalar, bus, _keyed, nbytes, gm, write = st[s]
            if gm:
                if w:   # resumed at this stage's start (the clock may differ from ts by rounding)
                    w = 0
                elif ts > t:
                    break
                fin = ts + eng
                miss = bus
                if res and not write and bus:   # reads of data an earlier kernel left in L2
                    moved = int(bus * res)
                    miss -= moved
                    if moved:
                        r = lreserve(ts, moved)
                        if r > fin:
                            fin = r
                        sm[4] += moved
                if miss:
                    r = hreserve(ts, miss)
                    if r > fin:
                        fin = r
                    sm[3] += miss
                sm[5] += nbytes
                dur = fin - ts + fixed
            else:
                dur = eng + fixed
            e = ts + dur
            if dur > 0:
                sm[2] += scalar
                if sink is not None:
                    sink((tracks[k][s], label, ts, dur, 0, nbytes))
                busy_pipe[s] += dur
                fixed_pipe[s] += fixed
            if e > block_end:
                block_end = e
            ts = e
            s += 1
        nxt[k] = s
        tt[k] = ts
        ends[k] = block_end
        if s < S:   # the generator yields a timeout to the GM stage's start
            wait[k] = 1
            heappush(heap, (t + (ts - t), 1, seq, k))
            seq += 1
        elif block_end > t:   # and to the block's end
            wait[k] = 2
            heappush(heap, (t + (block_end - t), 1, seq, k))
            seq += 1
        else:
            _book(stats, cps[k].pipes, sm, block_end - start, unit)
            release(cores[k])
    return t


def _book(stats, pipes, sm, span_ns: float, unit: str) -> None:
    book_block(stats, pipes, sm[0], sm[1], sm[2], sm[3], sm[4], 0, sm[5], span_ns, 0, unit)

__all__ = ["InlineClock", "ONE_TILE_LOOP", "run_blocks_inline", "run_kernel_inline"]
