"""The uncontended fast path: a kernel's blocks run without SimPy events.

When nothing else on the device can act while a kernel's blocks run (the device
checks: ``Device._uncontended``), the :func:`~npu_sim.hardware.pipeline.run_block`
generators of its blocks are driven here, in the order SimPy would resume them, so
every bandwidth reservation, L2 access and trace span happens in the same order with
the same float clock values: the times are identical to the event path
(tests/perf/test_fast_path.py compares both). What it saves: per block a SimPy
process, its start event, its timeouts and its end event, plus the kernel's AllOf.

(Over 300 lines on purpose: the one-tile loop is one function whose steps are inlined, the
keyed L2 steps with them, as the hot path wants them, next to the generator driver whose
order it reproduces.)
"""
from __future__ import annotations

from heapq import heappop, heappush

from ..program import Pipe
from . import multi_tile as _multi
from . import pipeline as _pipeline
from .bandwidth import l2_write_cost_factor
from .block_book import book_block


class InlineClock:
    """A stand-in for the SimPy environment that :func:`run_block` sees on the fast
    path (:func:`run_blocks_inline`): ``now`` is the block's clock (ns) and
    ``timeout(d)`` hands the delay back to the inline scheduler."""

    __slots__ = ("now",)
    #: ``timeout(d)`` returns ``d``: run_block may yield the delay itself
    yields_delays = True

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
    pop, push, step = heappop, heappush, next
    while heap:
        t, _, _, g = pop(heap)
        clock.now = now = t
        try:
            d = step(g)
        except StopIteration:
            continue
        push(heap, (t + d, 1, seq, g))
        seq += 1
    return now


#: False: every kernel on the fast path runs its blocks' generators (the tests compare both)
ONE_TILE_LOOP = True
#: ``_positive(x)`` is ``0.0 < x`` (a duration that counts), for all(map(...))
_positive = (0.0).__lt__
#: False: one-tile blocks with L2-keyed ranges run their generators (the general loop), the
#: reference the tests compare the one-tile loop's keyed steps with
KEYED_ONE_TILE = True


def run_kernel_inline(dev, spec, stats, scope, unit: str, dispatch_ns: float, plan=None) -> float:
    """A kernel's blocks on the fast path (``Device._run_kernel``): each gets a core (a
    fused MIX kernel's: a group) in block order, then they run as :func:`run_blocks_inline` runs their
    :func:`~npu_sim.hardware.pipeline.run_block` generators. Returns the time (ns)
    the last block ended. ``plan``: the spec's :class:`~npu_sim.hardware.kernel_plan.KernelPlan`
    (``dev.kernel_plan(spec)`` when None).

    When every block is a one-tile program (``KernelPlan.one_tile``, the lean case
    of hardware/single_tile.py), the blocks run in :func:`_one_tile_blocks` instead: the
    same steps in the same order, with no generator per block.
    tests/perf/test_blocks_one_tile.py compares both paths. The other kernels of plain
    AIC/AIV cores run in hardware/multi_tile.py's loop, likewise without generators
    (tests/perf/test_sim4_multi_tile.py); a fused MIX kernel's blocks run their generators."""
    sched = dev.scheduler
    cores = sched.take_free(spec.core_type, len(spec.blocks))
    now = dev.env._now
    if plan is None:
        plan = dev.kernel_plan(spec)
    if ONE_TILE_LOOP and _pipeline.SINGLE_TILE and (plan.single or KEYED_ONE_TILE and plan.one_tile):
        return _one_tile_blocks(dev, spec, stats, unit, dispatch_ns, cores, plan, now, scope)
    if _multi.MULTI_TILE_LOOP and plan.cps is not None and _general_loop_as_is():
        return _multi.multi_tile_blocks(dev, spec, stats, unit, dispatch_ns, cores, plan, now, scope)
    clock = InlineClock(now)
    release = sched.release
    run_block = _pipeline.run_block
    gens = [run_block(dev, core, prog, spec, stats, scope, unit, 0.0, release, clock)
            for core, prog in zip(cores, spec.blocks)]
    return run_blocks_inline(gens, clock, dispatch_ns)


def _general_loop_as_is() -> bool:
    """True when run_block's reference switches (pipeline.py ``SINGLE_TILE``, ``SCAN_ALL``,
    ``INLINE_L2``, ``DIRECT_DELAYS``) are as shipped, so that hardware/multi_tile.py's loop
    does what run_block does; a test that sets one to its reference value compares run_block's
    two ways, the fast path's generators included."""
    p = _pipeline
    return p.SINGLE_TILE and not p.SCAN_ALL and p.INLINE_L2 and p.DIRECT_DELAYS


def _one_tile_blocks(dev, spec, stats, unit: str, dispatch_ns: float, cores, plan, now: float, scope=None) -> float:
    """One-tile blocks without generators: each block's stages run strictly in order,
    exactly as hardware/single_tile.py's ``run_single_tile`` runs them (the same float
    operations, the same bookings of the HBM and L2 servers, spans and stats), and the
    blocks interleave as :func:`run_blocks_inline` would resume their generators: a heap
    keyed ``(time, priority, sequence)``, a block leaving the heap where its generator
    would yield (a GM stage that starts after the clock). ``plan`` is the spec's
    :class:`~npu_sim.hardware.kernel_plan.KernelPlan`. Returns the time (ns) of the last step, as
    :func:`run_blocks_inline` does.

    Two steps need no heap. The blocks' starts come first, in block order (every other
    entry is due no earlier and numbered after them), so they run in a plain loop. A
    block's end step only adds its sums into ``stats`` and gives its core back, which no
    other step reads, so the ends are collected with their heap keys and done after the
    loop, sorted by those keys: the order SimPy would process them in.

    The sums go into ``stats`` as ``book_block`` adds them, block by block in that
    order. When every block's program has the same pipes, none twice
    (``plan.same_pipes``: the usual main and tail programs of an elementwise kernel),
    they are added into local running sums instead (per stage, the scalar ns, the core
    ns: the same float additions in the same order, from the values ``stats`` held)
    written back once at the end, so the dicts get the same values and the same key
    order; the byte counts are integers, summed in any order. A block's core goes back
    to its free list as ``CoreScheduler.release`` puts it there (on the fast path nobody
    waits for a core: ``Device._uncontended``).

    A stage with L2-keyed ranges (``KernelPlan.one_tile`` admits them, ``plan.single`` does
    not) books them as run_block's general loop books tile 0's (``scope``: the launch's
    L2 key scope): the cache's reads or write-back writes, the write-backs they evict
    charged to HBM, the keyed hits on the L2 server, then the resident share, then HBM."""
    plans = plan.stages
    n = len(plans)
    rec = dev.recorder
    sink = rec.pipe_sink() if rec.enabled and rec.pipes else None
    label = spec.name
    res = stats.resident
    # the HBM and L2 servers' state in locals (nothing else books them while the blocks run),
    # updated as BandwidthServer.reserve updates it and written back after the loop
    hbm, l2 = dev.hbm, dev.l2
    hrate, hfree, hbusy, hmoved = hbm.rate_bytes_per_ns, hbm.free_at_ns, hbm.busy_ns, hbm.bytes_moved
    lrate, lfree, lbusy, lmoved = l2.rate_bytes_per_ns, l2.free_at_ns, l2.busy_ns, l2.bytes_moved
    pipes = plan.pipes
    if dispatch_ns:   # the blocks' start entries: (time, priority, sequence) as SimPy would queue them
        start = now + dispatch_ns
        prio0, seq0 = 1, n
    else:
        start = now
        prio0, seq0 = 0, 0
    seq = seq0 + n
    # the entries the starts leave, appended (every one is queued before any is taken), then
    # taken in sorted order: heappop's order while nothing new is queued; a block that yields
    # again meanwhile turns the rest into a heap (a sorted list is one) and the loop pops from it
    heap = []
    pend = []
    pos = -1   # -1: the starts; >= 0: the next entry of pend; -2: the heap
    done = []   # per ended block: (its end step's heap key..., the block)
    # per block: next stage, its start, the block's end so far, its stages' durations
    nxt = [0] * n
    tt = [start] * n
    ends = [start] * n
    durs = [None] * n
    tracks = [None] * n
    hbm_total = l2_total = gm_total = wb_total = 0
    cache = dev.l2_cache
    res_keyed = stats.resident_keyed
    wfac = 0.0
    t = now
    first = 0   # blocks started so far (their start entries come before every other entry)
    while True:
        if first < n:
            k = first
            first += 1
            t = start
            p, q = prio0, seq0 + k
            d = durs[k] = []
            resumed = False
            if sink is not None:
                tracks[k] = dev.pipe_tracks(cores[k], plan.cps[k].pipes)
            s = 0
            ts = start
            block_end = start
        elif pos >= 0 and pos < len(pend):
            t, p, q, k = pend[pos]
            pos += 1
            d = durs[k]
            resumed = True
            s = nxt[k]
            ts = tt[k]
            block_end = ends[k]
        elif pos == -1 and pend:
            pend.sort()
            pos = 0
            continue
        elif heap:
            t, p, q, k = heappop(heap)
            d = durs[k]
            resumed = True   # at stage s's start (the clock may differ from its start by rounding)
            s = nxt[k]
            ts = tt[k]
            block_end = ends[k]
        else:
            break
        st = plans[k]
        S = len(st)
        while s < S:
            eng, fixed, scalar, bus, keyed, nbytes, gm, write = st[s]
            if gm:
                if resumed:
                    resumed = False
                elif ts > t:
                    break
                fin = ts + eng
                miss = bus
                if keyed:   # L2-keyed ranges: run_block's steps for tile 0, in its order
                    moved = 0
                    if res and not write and bus:
                        moved = int(bus * res)
                        miss -= moved
                    hit = 0
                    if write:
                        if not wfac:
                            wfac = l2_write_cost_factor(dev.chip)
                        for key, b in keyed:
                            if cache.write((scope, key, 0), b):
                                hit += b
                            else:
                                miss += b
                        booked = hit * wfac
                    else:
                        for key, b in keyed:
                            if cache.read((scope, key, 0), b):
                                hit += b
                            else:
                                miss += b
                        if res_keyed and miss > bus - moved:
                            m = int((miss - (bus - moved)) * res)
                            miss -= m
                            hit += m
                        booked = hit
                    if cache.pending_writeback:   # dirty ranges this stage evicted go to HBM now
                        wb = cache.take_writeback()
                        miss += wb
                        wb_total += wb
                    if hit:   # BandwidthServer.reserve(ts, booked), inlined
                        service = booked / lrate
                        r = lfree = (ts if ts > lfree else lfree) + service
                        lbusy += service
                        lmoved += booked
                        if r > fin:
                            fin = r
                        l2_total += hit
                    if moved:
                        service = moved / lrate
                        r = lfree = (ts if ts > lfree else lfree) + service
                        lbusy += service
                        lmoved += moved
                        if r > fin:
                            fin = r
                        l2_total += moved
                elif res and not write and bus:   # reads of data an earlier kernel left in L2
                    moved = int(bus * res)
                    miss -= moved
                    if moved:   # BandwidthServer.reserve(ts, moved), inlined
                        service = moved / lrate
                        r = lfree = (ts if ts > lfree else lfree) + service
                        lbusy += service
                        lmoved += moved
                        if r > fin:
                            fin = r
                        l2_total += moved
                if miss:   # BandwidthServer.reserve(ts, miss), inlined
                    service = miss / hrate
                    r = hfree = (ts if ts > hfree else hfree) + service
                    hbusy += service
                    hmoved += miss
                    if r > fin:
                        fin = r
                    hbm_total += miss
                gm_total += nbytes
                dur = fin - ts + fixed
            else:
                dur = eng + fixed
            e = ts + dur
            d.append(dur)
            if sink is not None and dur > 0:
                sink((tracks[k][s], label, ts, dur, 0, nbytes))
            if e > block_end:
                block_end = e
            ts = e
            s += 1
        nxt[k] = s
        ends[k] = block_end
        if s < S:   # the generator yields a timeout to the GM stage's start
            tt[k] = ts
            if pos == -1:
                pend.append((t + (ts - t), 1, seq, k))
            else:
                if pos >= 0:   # the untaken entries, sorted: a heap
                    heap = pend[pos:]
                    pos = -2
                heappush(heap, (t + (ts - t), 1, seq, k))
            seq += 1
        elif block_end > t:   # and to the block's end
            done.append((t + (block_end - t), 1, seq, k))
            seq += 1
        else:   # it ends in this step
            done.append((t, p, q, k))
    hbm.free_at_ns, hbm.busy_ns, hbm.bytes_moved = hfree, hbusy, hmoved
    l2.free_at_ns, l2.busy_ns, l2.bytes_moved = lfree, lbusy, lmoved
    # the blocks' ends, in the order SimPy would process them: their sums into stats as
    # book_block adds them, their cores back
    done.sort()
    if done and done[-1][0] > t:
        t = done[-1][0]
    free_lists = dev.scheduler.free   # as CoreScheduler.release puts them (on the fast path nobody waits)
    if plan.same_pipes:   # the running sums book_block would keep in stats, written once
        busy, fixed_all = stats.busy, stats.fixed
        if busy or fixed_all:
            acc_busy = [busy.get(p, 0.0) for p in pipes]
            acc_fixed = [fixed_all.get(p, 0.0) for p in pipes]
        else:
            acc_busy = [0.0] * len(pipes)
            acc_fixed = acc_busy[:]
        acc_scalar = None   # [busy, fixed] of Pipe.SCALAR once a block had scalar ns
        acc_core = stats.core_ns.get(unit, 0.0)
        prev = None   # the last block's program, its fixed ns per stage and its scalar ns summed
        rng = range(len(pipes))
        for _, _, _, k in done:
            st = plans[k]
            d = durs[k]
            if all(map(_positive, d)):   # every stage counts (the usual block): no test per stage
                if st is not prev:
                    prev = st
                    fx = [c[1] for c in st]
                    sc_all = 0.0
                    for c in st:   # the scalar ns as the loop below adds them, stage by stage
                        sc_all += c[2]
                for j in rng:
                    acc_busy[j] += d[j]
                    acc_fixed[j] += fx[j]
                scalar_busy = sc_all
            else:
                scalar_busy = 0.0
                for j, x in enumerate(d):
                    if x > 0:
                        c = st[j]
                        acc_busy[j] += x
                        acc_fixed[j] += c[1]
                        scalar_busy += c[2]
            if scalar_busy:
                if acc_scalar is None:
                    acc_scalar = [busy.get(Pipe.SCALAR, 0.0), fixed_all.get(Pipe.SCALAR, 0.0)]
                acc_scalar[0] += scalar_busy
                acc_scalar[1] += scalar_busy
            acc_core += ends[k] - start
            c = cores[k]
            c.free = True
            free_lists[c.core_type].append(c)
        if n:
            for p, b, fx in zip(pipes, acc_busy, acc_fixed):
                busy[p] = b
                fixed_all[p] = fx
            if acc_scalar is not None:
                busy[Pipe.SCALAR], fixed_all[Pipe.SCALAR] = acc_scalar
            stats.core_ns[unit] = acc_core
            blocks = stats.blocks
            blocks[unit] = blocks.get(unit, 0) + n
    else:
        cps = plan.cps
        for _, _, _, k in done:
            st = plans[k]
            d = durs[k]
            scalar_busy = 0.0
            for x, c in zip(d, st):
                if x > 0:
                    scalar_busy += c[2]
            book_block(stats, cps[k].pipes, [x if x > 0 else 0.0 for x in d],
                       [c[1] if x > 0 else 0.0 for x, c in zip(d, st)], scalar_busy, 0, 0, 0, 0, ends[k] - start, 0,
                       unit)
            c = cores[k]
            c.free = True
            free_lists[c.core_type].append(c)
    stats.hbm_bytes += hbm_total
    stats.l2_hit_bytes += l2_total
    stats.writeback_bytes += wb_total
    stats.gm_bytes += gm_total
    return t


__all__ = ["InlineClock", "KEYED_ONE_TILE", "ONE_TILE_LOOP", "run_blocks_inline", "run_kernel_inline"]
