"""The fast path's general block loop without generators: a kernel's multi-tile blocks.

On the uncontended fast path (hardware/inline.py) a kernel whose blocks are not all
one-tile programs ran each block as a :func:`~npu_sim.hardware.pipeline.run_block`
generator, driven by :func:`~npu_sim.hardware.inline.run_blocks_inline` in the order
SimPy would resume them. :func:`multi_tile_blocks` runs the same steps in the same
order without a generator per block: each block's loop state (the end times per stage
and tile, the next tile and next start of each stage, its sums) lives in per-block
lists, and the blocks take turns as the driver's heap keyed ``(time, priority,
sequence)`` would resume them. A block leaves the heap where its generator would yield
(a GM stage that starts after the clock), and comes back to run that stage, so every
HBM / L2 booking, L2 cache access and trace span happens in the same order with the same
float values. tests/perf/test_sim4_multi_tile.py compares both paths
(``MULTI_TILE_LOOP = False`` is the reference: the generators).

Two steps need no heap, as in inline.py's one-tile loop: the blocks' starts come first,
in block order (every other entry is due no earlier and numbered after them), and a
block's end step only adds its sums into ``stats`` and gives its core back, which no
other step reads, so the ends are collected with their heap keys and done after the
loop, sorted by those keys.

(Over 300 lines on purpose: the tile loop is one function, its steps and the keyed L2
accesses inlined as in run_block, whose order it reproduces step for step.)
"""
from __future__ import annotations

from heapq import heappop, heappush

from ..program import Pipe
from .bandwidth import l2_write_cost_factor
from .block_book import book_block

#: False: the fast path runs a kernel's multi-tile blocks as run_block generators (the
#: reference the tests compare :func:`multi_tile_blocks` with)
MULTI_TILE_LOOP = True
#: the start of a stage that cannot start yet (later than any time)
_NEVER = float("inf")


def multi_tile_blocks(dev, spec, stats, unit: str, dispatch_ns: float, cores, plan, now: float, scope=None) -> float:
    """Run the blocks of ``spec`` (a plain AIC/AIV kernel: ``plan.cps`` holds its
    blocks' compiled programs, ``cores`` the core each block got) on the fast path, as
    :func:`~npu_sim.hardware.inline.run_blocks_inline` runs their
    :func:`~npu_sim.hardware.pipeline.run_block` generators made with ``env`` its
    clock at ``now`` (ns) and no dispatch wait, which is taken here (``dispatch_ns``,
    ns) as the driver takes it. Every block runs run_block's general tile loop (a
    one-tile block gives the lean loop's results that way too: tests/perf/test_single_tile.py).
    ``scope`` makes the L2 keys unique to the launch; ``unit`` names the core type the
    block time counts for. Adds to ``stats`` as run_block does and returns the time
    (ns) of the last step, as the driver does."""
    cps = plan.cps
    nb = len(cps)
    NEVER = _NEVER   # a local: read at every step
    rec = dev.recorder
    recording = rec.enabled and rec.pipes   # trace level "kernels" keeps no pipe span
    items_append = rec.pipe_sink() if recording else None
    label = spec.name
    bn = spec.buffer_num if spec.buffer_num > 1 else 1
    # the HBM and L2 servers' state in locals (nothing else books them while the blocks run),
    # updated as BandwidthServer.reserve updates it and written back after the loop
    hbm, l2 = dev.hbm, dev.l2
    hrate, hfree, hbusy, hmoved = hbm.rate_bytes_per_ns, hbm.free_at_ns, hbm.busy_ns, hbm.bytes_moved
    lrate, lfree, lbusy, lmoved = l2.rate_bytes_per_ns, l2.free_at_ns, l2.busy_ns, l2.bytes_moved
    cache = dev.l2_cache
    lines = cache.lines   # L2Cache.read / write / _insert inlined below, as run_block inlines them
    move_to_end = lines.move_to_end
    dirty = cache.dirty
    l2cap = cache.capacity_bytes
    # and its counters (only _evict, called with them written back, reads them meanwhile)
    c_used, c_hits, c_misses, c_hitb, c_missb = (cache.used_bytes, cache.hits, cache.misses, cache.hit_bytes,
                                                 cache.miss_bytes)
    res = stats.resident
    res_keyed = stats.resident_keyed
    wfac = 0.0
    if dispatch_ns:   # the blocks' start entries: (time, priority, sequence) as the driver queues them
        start = now + dispatch_ns
        prio0, seq0 = 1, nb
    else:
        start = now
        prio0, seq0 = 0, 0
    seq = seq0 + nb
    # (time, sequence, block, then the step it waits for: stage, tile, start, the tile's table entry
    # but its flag and on-chip time, the block's scalar ns so far): every entry queued has the
    # driver's priority 1
    heap: list = []
    done: list = []   # per ended block: (its end step's heap key..., the block)
    # per block: (tiles, n, last, end, nxt, cand, busy_pipe, fixed_pipe, tracks), None for an empty
    # block; its scalar ns so far and its end
    state: list = [None] * nb
    scal = [0.0] * nb
    bend = [start] * nb
    hbm_total = l2_total = wb_total = gm_total = 0
    t = now
    first = 0   # blocks started so far (their start entries come before every other entry)
    while True:
        if first < nb:   # the next block's start step (run_block up to its loop)
            k = first
            first += 1
            t = start
            cp = cps[k]
            n = cp.n
            pipes = cp.pipes
            S = len(pipes)
            if not n or not S:   # run_block gives the core back and returns: no sums
                done.append((t, prio0, seq0 + k, k))
                continue
            tiles = cp.tiles
            zeros = [0.0] * n
            end = [zeros[:] for _ in range(S)]
            nxt = [0] * S + [-1]   # -1: the next tile of no stage (after the last, before the first)
            cand = [NEVER] * S
            cand[0] = start
            last = S - 1
            tracks = dev.pipe_tracks(cores[k], pipes) if recording else None
            busy_pipe = [0.0] * S
            fixed_pipe = [0.0] * S
            state[k] = (tiles, n, last, end, nxt, cand, busy_pipe, fixed_pipe, tracks)
            scalar_busy = 0.0
            resumed = False
            p, q = prio0, seq0 + k
        elif heap:   # a block back at the GM step it waited for (where run_block resumes)
            t, q, k, s, i, best_t, fixed, scalar, nbytes, gm_terms, scalar_busy = heappop(heap)
            p = 1
            tiles, n, last, end, nxt, cand, busy_pipe, fixed_pipe, tracks = state[k]
            gm = resumed = True
        else:
            break
        while True:
            if resumed:   # the step the block waited for, as the heap entry keeps it
                resumed = False
            else:
                # the startable stage with the earliest start, the first in stage order on a tie
                best_t = min(cand)
                if best_t == NEVER:   # every step done
                    break
                s = cand.index(best_t)
                i = nxt[s]
                gm, dur, fixed, scalar, nbytes, gm_terms = tiles[s][i]
                if gm and best_t > t:   # run_block yields a timeout to the stage's start
                    heappush(heap, (t + (best_t - t), seq, k, s, i, best_t, fixed, scalar, nbytes, gm_terms,
                                    scalar_busy))
                    seq += 1
                    break
            if gm:
                eng, bus, keyed, write, j = gm_terms
                fin = best_t + eng
                miss = bus
                moved = 0
                if res and not write and bus:   # reads of data an earlier kernel left in L2
                    moved = int(bus * res)
                    miss -= moved
                if keyed:
                    hit = 0
                    if write:   # write-back: into L2 (at the write rate) unless larger than L2
                        if not wfac:
                            wfac = l2_write_cost_factor(dev.chip)
                        for key, b in keyed:   # L2Cache.write((scope, key, j), b), inlined
                            ck = (scope, key, j)
                            if ck in lines:
                                c_used -= lines.pop(ck)
                                dirty.discard(ck)
                            if b > l2cap:   # larger than the L2: nothing cached, to HBM
                                miss += b
                            else:
                                lines[ck] = b   # L2Cache._insert
                                c_used += b
                                if c_used > l2cap:
                                    cache.used_bytes = c_used
                                    cache._evict()
                                    c_used = cache.used_bytes
                                dirty.add(ck)
                                hit += b
                        booked = hit * wfac
                    else:
                        for key, b in keyed:   # L2Cache.read((scope, key, j), b), inlined
                            ck = (scope, key, j)
                            if ck in lines:
                                move_to_end(ck)
                                c_hits += 1
                                c_hitb += b
                                hit += b
                            else:
                                c_misses += 1
                                c_missb += b
                                if b <= l2cap:   # L2Cache._insert
                                    lines[ck] = b
                                    c_used += b
                                    if c_used > l2cap:
                                        cache.used_bytes = c_used
                                        cache._evict()
                                        c_used = cache.used_bytes
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
                    if hit:   # l2.reserve(best_t, booked), inlined
                        service = booked / lrate
                        r = lfree = (best_t if best_t > lfree else lfree) + service
                        lbusy += service
                        lmoved += booked
                        if r > fin:
                            fin = r
                        l2_total += hit
                if moved:   # l2.reserve(best_t, moved)
                    service = moved / lrate
                    r = lfree = (best_t if best_t > lfree else lfree) + service
                    lbusy += service
                    lmoved += moved
                    if r > fin:
                        fin = r
                    l2_total += moved
                if miss:   # hbm.reserve(best_t, miss)
                    service = miss / hrate
                    r = hfree = (best_t if best_t > hfree else hfree) + service
                    hbusy += service
                    hmoved += miss
                    if r > fin:
                        fin = r
                    hbm_total += miss
                gm_total += nbytes
                dur = fin - best_t + fixed
            e = best_t + dur
            end[s][i] = e
            if dur > 0:
                busy_pipe[s] += dur
                fixed_pipe[s] += fixed
                scalar_busy += scalar
                if recording:  # TraceRecorder.pipe_span, inlined
                    items_append((tracks[s], label, best_t, dur, i, nbytes))
            kk = i + 1
            nxt[s] = kk
            # cand[s]: the stage's next start (run_block's _start_of, inlined): end[s][kk - 1] is e
            if kk >= n or (s and nxt[s - 1] <= kk):
                u = NEVER
            else:
                u = end[s - 1][kk] if s else start
                if s < last and kk >= bn:
                    jj = kk - bn
                    if nxt[s + 1] <= jj:
                        u = NEVER
                    elif end[s + 1][jj] > u:
                        u = end[s + 1][jj]
                if e > u:
                    u = e
            cand[s] = u
            if nxt[s + 1] == i:   # the next stage waited for this tile (never past the last: -1)
                r = s + 1
                u = e
                if r < last and i >= bn:
                    jj = i - bn
                    if nxt[r + 1] <= jj:
                        u = NEVER
                    elif end[r + 1][jj] > u:
                        u = end[r + 1][jj]
                if i and end[r][i - 1] > u:
                    u = end[r][i - 1]
                cand[r] = u
            if nxt[s - 1] - bn == i:   # the previous stage waited for the slot tile i frees (s = 0: -1)
                r = s - 1
                kk = i + bn
                if kk >= n or (r and nxt[r - 1] <= kk):
                    u = NEVER
                else:
                    u = end[r - 1][kk] if r else start
                    if e > u:
                        u = e
                    if end[r][kk - 1] > u:
                        u = end[r][kk - 1]
                cand[r] = u
        if best_t == NEVER:   # the block ends (run_block's timeout to its end, if ahead)
            # run_block's running maximum of its steps' ends, from its start
            block_end = max(map(max, end))
            if start > block_end:
                block_end = start
            bend[k] = block_end
            scal[k] = scalar_busy
            if block_end > t:
                done.append((t + (block_end - t), 1, seq, k))
                seq += 1
            else:
                done.append((t, p, q, k))
    hbm.free_at_ns, hbm.busy_ns, hbm.bytes_moved = hfree, hbusy, hmoved
    l2.free_at_ns, l2.busy_ns, l2.bytes_moved = lfree, lbusy, lmoved
    cache.used_bytes, cache.hits, cache.misses, cache.hit_bytes, cache.miss_bytes = (c_used, c_hits, c_misses, c_hitb,
                                                                                     c_missb)
    # the blocks' ends, in the order the driver would resume them: their sums into stats as
    # run_block books them, their cores back as CoreScheduler.release gives them (nobody waits)
    done.sort()
    if done and done[-1][0] > t:
        t = done[-1][0]
    free_lists = dev.scheduler.free
    if plan.same_pipes and "SCALAR" not in plan.pipes:
        _book_running(stats, unit, done, state, cps, scal, bend, start)
        for _, _, _, k in done:
            c = cores[k]
            c.free = True
            free_lists[c.core_type].append(c)
    else:
        for _, _, _, k in done:
            st = state[k]
            if st is not None:
                book_block(stats, cps[k].pipes, st[6], st[7], scal[k], 0, 0, 0, 0, bend[k] - start, 0, unit)
            c = cores[k]
            c.free = True
            free_lists[c.core_type].append(c)
    stats.hbm_bytes += hbm_total
    stats.l2_hit_bytes += l2_total
    stats.writeback_bytes += wb_total
    stats.gm_bytes += gm_total
    return t


def _book_running(stats, unit: str, done: list, state: list, cps, scal: list, bend: list, start: float) -> None:
    """Add the ended blocks ``done`` (in that order) into ``stats`` as ``book_block`` adds
    them one by one, for blocks that all have the same pipes, none twice and none SCALAR
    (``KernelPlan.same_pipes``): each dict entry's running sum kept in a local, from the
    value the dict held, with the same float additions in the same order, written once at
    the end, new keys in the order book_block would insert them (the pipes in stage
    order, then SCALAR). ``state[k]`` holds block ``k``'s busy and fixed ns per stage (None:
    an empty block, not booked), ``scal[k]`` its scalar ns, ``bend[k]`` its end (ns), the
    blocks started at ``start`` (ns)."""
    busy, fixed_all = stats.busy, stats.fixed
    pipes = None
    acc_busy = acc_fixed = rng = None
    acc_scalar = None   # [busy, fixed] of SCALAR once a block had scalar ns
    core_ns = stats.core_ns
    acc_core = 0.0
    booked = 0
    for _, _, _, k in done:
        st = state[k]
        if st is None:
            continue
        if pipes is None:   # the first block booked: its pipes' keys, as book_block inserts them
            pipes = cps[k].pipes
            acc_busy = [busy.get(p, 0.0) for p in pipes]
            acc_fixed = [fixed_all.get(p, 0.0) for p in pipes]
            rng = range(len(pipes))
            acc_core = core_ns.get(unit, 0.0)
        bp = st[6]
        fp = st[7]
        for j in rng:
            acc_busy[j] += bp[j]
            acc_fixed[j] += fp[j]
        sc = scal[k]
        if sc:
            if acc_scalar is None:
                acc_scalar = [busy.get(Pipe.SCALAR, 0.0), fixed_all.get(Pipe.SCALAR, 0.0)]
            acc_scalar[0] += sc
            acc_scalar[1] += sc
        acc_core += bend[k] - start
        booked += 1
    if not booked:
        return
    for p, b, f in zip(pipes, acc_busy, acc_fixed):
        busy[p] = b
        fixed_all[p] = f
    if acc_scalar is not None:
        busy[Pipe.SCALAR], fixed_all[Pipe.SCALAR] = acc_scalar
    core_ns[unit] = acc_core
    blocks = stats.blocks
    blocks[unit] = blocks.get(unit, 0) + booked


__all__ = ["MULTI_TILE_LOOP", "multi_tile_blocks"]
