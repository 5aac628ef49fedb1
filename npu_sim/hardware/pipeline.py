"""The tile pipeline of one block: the simulator's hot path.

Timing rule for stage ``s`` of tile ``i`` (S stages per tile, queue depth ``bn``):

    start(s, i) = max(end(s-1, i),        # the tile's data came from the previous stage
                      end(s, i-1),        # the pipe is sequential
                      end(s+1, i-bn))     # s < S-1: a free slot in the queue it writes
    end(s, i)   = start(s, i) + duration(s, i)

Each pair of neighbouring stages is linked by its own queue of depth ``bn``, as in
Ascend C (TQue VECIN between CopyIn and Compute, VECOUT between Compute and
CopyOut; A1/B1 in L1 between MTE2 and MTE1, A2/B2 in L0A/L0B between MTE1 and the
Cube): a producer may fill slot ``i`` once the consumer has finished tile ``i-bn``.
With ``bn = 2`` every stage overlaps its neighbours, so a long run of identical
tiles advances at the pace of its slowest stage.

``duration`` comes from :func:`npu_sim.hardware.cost.stage_cost`: the fixed term plus
the throughput term; for stages that touch GM the throughput term is the latest of
the core's engine, the shared HBM server (bytes with no L2 key, and L2 misses) and
the shared L2 server (L2 hits, and a read's share found in the L2 kept across
kernels, ``KernelStats.resident``), which is why the clock must stand at ``start``
before it is computed. So the block process yields one SimPy timeout per GM stage
(to reach its start), and none for on-chip stages, whose times follow from the rule
alone. Spans are recorded with their computed start and duration.

The stages run in order of start: at each step the startable stage whose next tile
starts first (the first in stage order on a tie) takes that step. A step of stage
``s`` can change only its own next start and those of ``s+1`` (waiting for this
tile) and ``s-1`` (waiting for the queue slot it frees), so the loop keeps every
stage's next start and recomputes just those (``SCAN_ALL`` recomputes them all:
the reference the tests compare with).

Each distinct :class:`~npu_sim.program.BlockProgram` is compiled once per device
(:func:`compile_program`): its stage costs depend only on the chip.

(Over 300 lines on purpose: run_block's tile loop is one generator, its state in
locals and its next-start updates inlined, as the hot path wants them (a helper
call per step adds to every step), next to the compiled tables it reads.)
"""
from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..program import GM_PIPES, BlockProgram, KernelSpec, Pipe
from .bandwidth import l2_write_cost_factor
from . import cost as _cost
from .cost import AIV_PIPES, shape_memo as _shape_memo, shape_terms as _shape_terms, stage_id_memo as _stage_id_memo
from .cost import stage_memo as _stage_memo, stage_terms as _stage_terms
from .block_book import book_block
from .single_tile import run_single_tile

if TYPE_CHECKING:  # pragma: no cover
    from ..device import Device
    from .cores import Core

#: False sends one-tile blocks through the general loop too (the tests compare both)
SINGLE_TILE = True
#: True: run_block's general loop computes every stage's start afresh at each step (the
#: reference the tests compare its kept-up-to-date starts with)
SCAN_ALL = False
#: False: run_block's keyed GM ranges go through ``L2Cache.read`` / ``write`` (the reference the
#: tests compare its inlined copies of them with)
INLINE_L2 = True
#: False: run_block calls the inline clock's ``timeout`` for each GM stage's wait (the reference
#: the tests compare yielding the delay itself with)
DIRECT_DELAYS = True
#: False: compile_program computes every stage's entries afresh from the value memo and builds the
#: general loop's table from them (the reference the tests compare its kept per-Stage entries with)
DIRECT_TABLES = True
#: the start of a stage that cannot start yet (later than any time)
_NEVER = float("inf")

_pipe_of = attrgetter("pipe")


class CompiledProgram:
    """A block program's per-stage cost lookups.

    ``groups[s]`` lists, per TileSpec, ``(count, engine_ns, fixed_ns, scalar_ns,
    bus_bytes, keyed, nbytes, gm, write)`` of stage ``s`` (see ``StageCost``).
    For a one-tile program (``one_tile``; ``single`` when it has no keyed range either),
    ``stages`` holds its stages' entries without the count, ``(engine_ns, fixed_ns,
    scalar_ns, bus_bytes, keyed, nbytes, gm, write)`` per stage (hardware/inline.py's
    one-tile loop reads them), else ``()``;
    ``distinct_pipes`` says no pipe occurs twice in ``pipes``.

    ``tiles[s][i]`` is what run_block's general loop needs of stage ``s`` of tile
    ``i`` (its TileSpec's entry, so the loop keeps no group countdown):
    ``(gm, on_chip_ns, fixed_ns, scalar_ns, nbytes, gm_terms)``, where
    ``on_chip_ns`` is ``engine_ns + fixed_ns`` (the duration of a stage that does not
    touch GM) and ``gm_terms`` is ``(engine_ns, bus_bytes, keyed, write, j)`` for a GM
    stage, ``j`` the tile's index within its TileSpec (its L2 keys), else None.
    """

    __slots__ = ("prog", "pipes", "groups", "n", "single", "one_tile", "stages", "distinct_pipes", "_tiles")

    def __init__(self, prog: BlockProgram, pipes, groups, n, tiles=None):
        """``tiles``: the general loop's table if the caller built it (compile_program),
        for a program that is not one-tile; else it is made from ``groups``."""
        self.prog = prog
        self.pipes = pipes
        self.groups = groups
        self.n = n
        #: one tile, L2 keys allowed: the fast path's one-tile loop takes it (hardware/inline.py)
        one = self.one_tile = n == 1 and bool(pipes)
        self.distinct_pipes = len(set(pipes)) == len(pipes)
        if one:
            stages = self.stages = tuple([g[0][1:] for g in groups])
            #: one tile and no keyed GM range: run_block takes hardware/single_tile.py's lean loop
            self.single = not any([st[4] for st in stages])
            # a one-tile program's blocks take the one-tile loops (single_tile.py, inline.py), which
            # read ``stages``: its table is made if the general loop asks for it (a fused MIX block,
            # a kernel on the event path with keyed ranges, SINGLE_TILE off)
            self._tiles = None
        else:
            self.stages = ()
            self.single = False
            self._tiles = (tiles if tiles is not None else
                           [_tile_table(g) for g in groups] if n and pipes else [])

    @property
    def tiles(self) -> list:
        """The general loop's per-tile table (see the class docstring), made at the first
        use for a one-tile program, in phase 1 for the others."""
        t = self._tiles
        if t is None:
            t = self._tiles = [_tile_table(g) for g in self.groups] if self.n and self.pipes else []
        return t


def _tile_table(groups_s: list) -> list:
    """One stage's ``CompiledProgram.tiles`` row from its ``groups`` entries: each
    TileSpec's entry repeated ``count`` times (one per tile index ``j`` of a GM stage
    with L2 keys, whose keys name the tile)."""
    row: list = []
    append = row.append
    for count, eng, fixed, scalar, bus, keyed, nbytes, gm, write in groups_s:
        on_chip_ns = eng + fixed
        if count == 1:   # the usual TileSpec of a block with a program per block: no list to build
            append((True, on_chip_ns, fixed, scalar, nbytes, (eng, bus, keyed, write, 0)) if gm else
                   (False, on_chip_ns, fixed, scalar, nbytes, None))
        elif not gm:
            row += [(False, on_chip_ns, fixed, scalar, nbytes, None)] * count
        elif keyed:
            row += [(True, on_chip_ns, fixed, scalar, nbytes, (eng, bus, keyed, write, j)) for j in range(count)]
        else:
            row += [(True, on_chip_ns, fixed, scalar, nbytes, (eng, bus, keyed, write, 0))] * count
    return row


def _tile_entry(terms: tuple) -> tuple:
    """The ``CompiledProgram.tiles`` entry of a stage's tile ``j = 0`` from its
    :func:`~npu_sim.hardware.cost.stage_terms` (see :func:`_tile_table`)."""
    eng, fixed, scalar, bus, keyed, nbytes, gm, write = terms
    return ((True, eng + fixed, fixed, scalar, nbytes, (eng, bus, keyed, write, 0)) if gm else
            (False, eng + fixed, fixed, scalar, nbytes, None))


def compile_program(chip, prog: BlockProgram, aiv_split: int = 1) -> CompiledProgram:
    """Cost lookups of every stage of ``prog`` on ``chip``. ``aiv_split`` > 1 (a fused
    MIX program) divides the throughput term of VECTOR/MTE3 stages by the AIVs that
    share them. Raises ValueError if a tile group's pipes differ from the first
    group's (BlockProgram's contract)."""
    if not DIRECT_TABLES:
        return _compile_reference(chip, prog, aiv_split)
    tiles = prog.tiles
    pipes = tuple(map(_pipe_of, tiles[0].stages)) if tiles else ()   # BlockProgram.pipes
    S = len(pipes)
    groups: list[list[tuple]] = [[] for _ in range(S)]
    n = 0
    for g in tiles:
        if g.count > 0:
            n += g.count
    # a program of several tiles gets its general-loop table here, row by row from the entries
    # kept per Stage (a one-tile program's is made on demand: CompiledProgram.tiles)
    rows: list[list] | None = [[] for _ in range(S)] if n > 1 and S else None
    memo = _stage_memo(chip, aiv_split)
    smemo = _shape_memo(chip, aiv_split) if _cost.SHAPE_MEMO else None
    idm = _stage_id_memo(chip, aiv_split)   # by identity first: no field hashing for a shared Stage
    first = True
    for g in tiles:
        stages = g.stages
        if first:   # the pipes are the first group's
            first = False
        elif tuple(map(_pipe_of, stages)) != pipes:
            raise ValueError(f"tile groups of one block must share one pipe sequence: {pipes} vs "
                             f"{tuple(map(_pipe_of, stages))}")
        count = g.count
        if count <= 0:
            continue
        for s, st in enumerate(stages):
            hit = idm.get(id(st))
            if hit is None or hit[0] is not st:
                if smemo is not None and st.pipe in GM_PIPES:   # by shape: keys neither hashed nor compared
                    terms = _shape_terms(chip, st, aiv_split, smemo)
                else:
                    terms = _value_terms(chip, st, aiv_split, memo)
                if len(idm) > 65536:
                    idm.clear()
                # (the Stage, its group entry for count 1, its tiles entry for j = 0)
                hit = idm[id(st)] = (st, (1,) + terms, _tile_entry(terms))
            groups[s].append(hit[1] if count == 1 else (count,) + hit[1][1:])
            if rows is not None:
                if count == 1:   # the usual TileSpec: its one entry as kept
                    rows[s].append(hit[2])
                else:
                    rows[s] += _tile_table([groups[s][-1]])
    return CompiledProgram(prog, pipes, groups, n, rows)


def _value_terms(chip, st, aiv_split: int, memo: dict) -> tuple:
    """``_stage_terms(chip, st, aiv_split)`` through the value memo ``memo``
    (``cost.stage_memo``; past 65,536 entries it starts over); a stage with an
    unhashable L2 key is computed each time."""
    try:
        terms = memo.get(st)
    except TypeError:   # an unhashable L2 key: no value memo
        return _stage_terms(chip, st, aiv_split)
    if terms is None:
        if len(memo) > 65536:
            memo.clear()
        terms = memo[st] = _stage_terms(chip, st, aiv_split)
    return terms


def _compile_reference(chip, prog: BlockProgram, aiv_split: int = 1) -> CompiledProgram:
    """:func:`compile_program` as it was before the kept per-Stage entries (``DIRECT_TABLES``
    off): the reference the tests compare it with."""
    pipes = prog.pipes
    S = len(pipes)
    groups: list[list[tuple]] = [[] for _ in range(S)]
    memo = _stage_memo(chip, aiv_split)
    for g in prog.tiles:
        if tuple(map(_pipe_of, g.stages)) != pipes:
            raise ValueError(f"tile groups of one block must share one pipe sequence: {pipes} vs "
                             f"{tuple(map(_pipe_of, g.stages))}")
        if g.count <= 0:
            continue
        count = g.count
        for s, st in enumerate(g.stages):
            terms = _value_terms(chip, st, aiv_split, memo)
            groups[s].append((count,) + terms)
    n = sum(g.count for g in prog.tiles if g.count > 0)
    return CompiledProgram(prog, pipes, groups, n)


class KernelStats:
    """What the blocks of one kernel did, summed: busy ns per pipe (SCALAR = the
    scalar overhead inside stages) and the fixed part of it (per-issue and per-tile
    costs, the rest being throughput time), GM bytes served by HBM and by L2 hits (burst
    rounded; L2 hits include keyed writes absorbed by the write-back L2), dirty bytes
    written back to HBM on eviction (part of the HBM bytes), useful GM bytes moved,
    core ns per core type (block start to end, dispatch excluded) and the number of
    blocks run per core type. Set by the device before the blocks run (hardware/l2.py
    ``GmL2``): ``resident``, the share of read bytes found in the L2 kept across
    kernels, ``resident_keyed`` (the share applies to keyed misses too) and
    ``resident_in`` (those input bytes)."""

    __slots__ = ("busy", "fixed", "hbm_bytes", "l2_hit_bytes", "writeback_bytes", "gm_bytes", "core_ns", "blocks",
                 "resident", "resident_keyed", "resident_in")

    def __init__(self) -> None:
        self.busy: dict[Pipe, float] = {}
        self.fixed: dict[Pipe, float] = {}
        self.hbm_bytes = 0
        self.l2_hit_bytes = 0
        self.writeback_bytes = 0
        self.gm_bytes = 0
        self.core_ns: dict[str, float] = {}
        self.blocks: dict[str, int] = {}
        self.resident = 0.0          # share of read bytes found in the L2 kept across kernels (GmL2)
        self.resident_keyed = False  # the share applies to keyed misses too
        self.resident_in = 0         # input bytes found there


def _start_of(r: int, nxt: list, end: list, n: int, base: float, last: int, bn: int) -> float:
    """The start (ns) of stage ``r``'s next tile ``nxt[r]`` by the timing rule (``end[s][i]``:
    the end of stage ``s`` of tile ``i``, known for ``i < nxt[s]``; ``n`` tiles, ``last``
    the last stage, queue depth ``bn``, the block's start ``base``), or _NEVER while it
    cannot start (its tile or queue slot not yet known, or no tile left)."""
    i = nxt[r]
    if i >= n:
        return _NEVER
    if r:
        if nxt[r - 1] <= i:
            return _NEVER
        t = end[r - 1][i]
    else:
        t = base
    if r < last and i >= bn:
        j = i - bn
        if nxt[r + 1] <= j:
            return _NEVER
        u = end[r + 1][j]
        if u > t:
            t = u
    if i:
        u = end[r][i - 1]
        if u > t:
            t = u
    return t


def run_block(dev: "Device", core: "Core | tuple[Core, ...]", prog: BlockProgram, spec: KernelSpec,
              stats: KernelStats, scope: Any = None, unit: str = "AIV", dispatch_ns: float = 0.0,
              release=None, env=None):
    """SimPy process: wait ``dispatch_ns``, then run ``prog`` on ``core``. Waits on:
    the dispatch timeout, timeouts to each GM stage's start and to the block's end.
    Holds: the core, handed to ``release(core)`` at the end if given (else the caller
    releases it). Adds to ``stats`` (``unit`` names the core type the time counts
    for). ``scope`` makes L2 keys unique to one launch. ``core`` may be a MIX group
    ``(aic, aiv, aiv)`` running a fused program: VECTOR/MTE3 stages are drawn on the
    first AIV and their work is shared by the group's AIVs; the time counts for both
    units. Returns the block's end time (ns). ``env``: the clock it yields timeouts
    to, ``dev.env`` by default (``hardware/inline.py``'s clock on the uncontended fast path)."""
    if env is None:
        env = dev.env
    if dispatch_ns:
        yield env.timeout(dispatch_ns)
    fused = isinstance(core, tuple)
    split = len(core) - 1 if fused else 1
    cp = dev.compiled(prog, split)
    base = env.now
    if cp.single and not fused and SINGLE_TILE:
        return (yield from run_single_tile(dev, core, cp, spec.name, stats, unit, release, env, base))
    n = cp.n
    pipes = cp.pipes
    S = len(pipes)
    if not n or not S:
        if release is not None:
            release(core)
        return base
    tiles = cp.tiles
    hbm = dev.hbm   # their reserve(t, n) inlined below: the same float updates, no call
    hrate = hbm.rate_bytes_per_ns
    l2 = dev.l2
    lrate = l2.rate_bytes_per_ns
    cache = dev.l2_cache
    lines = cache.lines   # L2Cache.read inlined below: a hit moves its range to the end
    move_to_end = lines.move_to_end
    dirty = cache.dirty   # and L2Cache.write / _insert inlined: the same updates in the same order
    l2cap = cache.capacity_bytes
    inline_l2 = INLINE_L2
    # hardware/inline.py's clock: its timeout(d) is d, so the delay is yielded without the call
    timeout = None if getattr(env, "yields_delays", False) and DIRECT_DELAYS else env.timeout
    wfac = 0.0
    res = stats.resident
    res_keyed = stats.resident_keyed
    rec = dev.recorder
    recording = rec.enabled and rec.pipes   # trace level "kernels" keeps no pipe span
    if recording:
        tracks = dev.pipe_tracks(core, pipes)
        items_append = rec.pipe_sink()
    bn = spec.buffer_num if spec.buffer_num > 1 else 1
    zeros = [0.0] * n
    end = [zeros[:] for _ in range(S)]
    nxt = [0] * S
    last = S - 1
    label = spec.name
    block_end = base
    busy_pipe = [0.0] * S
    fixed_pipe = [0.0] * S
    scalar_busy = 0.0
    hbm_total = 0
    l2_total = 0
    wb_total = 0
    gm_total = 0

    # cand[r] = _start_of(r, ...), kept up to date: a step of stage s (tile i) changes only
    # its own next start, its successor's (if that waited for tile i) and its
    # predecessor's (if that waited for the queue slot tile i frees)
    cand = [_NEVER] * S
    cand[0] = base
    scan = SCAN_ALL
    cand_index = cand.index
    for _ in range(n * S):
        # the startable stage with the earliest start, the first in stage order on a tie
        if scan:   # the reference: every stage's start computed afresh
            for r in range(S):
                cand[r] = _start_of(r, nxt, end, n, base, last, bn)
        best_t = min(cand)
        s = cand_index(best_t)
        i = nxt[s]
        gm, dur, fixed, scalar, nbytes, gm_terms = tiles[s][i]
        if gm:
            if best_t > env.now:
                yield best_t - env.now if timeout is None else timeout(best_t - env.now)
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
                        if not inline_l2:
                            if cache.write(ck, b):
                                hit += b
                            else:
                                miss += b
                            continue
                        if ck in lines:
                            cache.used_bytes -= lines.pop(ck)
                            dirty.discard(ck)
                        if b > l2cap:   # larger than the L2: nothing cached, to HBM
                            miss += b
                        else:
                            lines[ck] = b   # L2Cache._insert
                            cache.used_bytes += b
                            if cache.used_bytes > l2cap:
                                cache._evict()
                            dirty.add(ck)
                            hit += b
                    booked = hit * wfac
                else:
                    for key, b in keyed:   # L2Cache.read((scope, key, j), b), inlined
                        ck = (scope, key, j)
                        if not inline_l2:
                            if cache.read(ck, b):
                                hit += b
                            else:
                                miss += b
                        elif ck in lines:
                            move_to_end(ck)
                            cache.hits += 1
                            cache.hit_bytes += b
                            hit += b
                        else:
                            cache.misses += 1
                            cache.miss_bytes += b
                            if b <= l2cap:   # L2Cache._insert
                                lines[ck] = b
                                cache.used_bytes += b
                                if cache.used_bytes > l2cap:
                                    cache._evict()
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
                if hit:   # l2.reserve(best_t, booked)
                    service = booked / lrate
                    f0 = l2.free_at_ns
                    t = l2.free_at_ns = (best_t if best_t > f0 else f0) + service
                    l2.busy_ns += service
                    l2.bytes_moved += booked
                    if t > fin:
                        fin = t
                    l2_total += hit
            if moved:   # l2.reserve(best_t, moved)
                service = moved / lrate
                f0 = l2.free_at_ns
                t = l2.free_at_ns = (best_t if best_t > f0 else f0) + service
                l2.busy_ns += service
                l2.bytes_moved += moved
                if t > fin:
                    fin = t
                l2_total += moved
            if miss:   # hbm.reserve(best_t, miss)
                service = miss / hrate
                f0 = hbm.free_at_ns
                t = hbm.free_at_ns = (best_t if best_t > f0 else f0) + service
                hbm.busy_ns += service
                hbm.bytes_moved += miss
                if t > fin:
                    fin = t
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
        if e > block_end:
            block_end = e
        k = i + 1
        nxt[s] = k
        # cand[s] = _start_of(s, ...), inlined (every step needs it): end[s][k - 1] is e
        if k >= n or (s and nxt[s - 1] <= k):
            t = _NEVER
        else:
            t = end[s - 1][k] if s else base
            if s < last and k >= bn:
                j = k - bn
                if nxt[s + 1] <= j:
                    t = _NEVER
                elif end[s + 1][j] > t:
                    t = end[s + 1][j]
            if e > t:
                t = e
        cand[s] = t
        if s < last and nxt[s + 1] == i:   # _start_of(s + 1, ...), inlined: it waited for this tile
            r = s + 1
            t = e
            if r < last and i >= bn:
                j = i - bn
                if nxt[r + 1] <= j:
                    t = _NEVER
                elif end[r + 1][j] > t:
                    t = end[r + 1][j]
            if i and end[r][i - 1] > t:
                t = end[r][i - 1]
            cand[r] = t
        if s and nxt[s - 1] - bn == i:   # _start_of(s - 1, ...), inlined: it waited for the slot tile i frees
            r = s - 1
            k = i + bn
            if k >= n or (r and nxt[r - 1] <= k):
                t = _NEVER
            else:
                t = end[r - 1][k] if r else base
                if e > t:
                    t = e
                if end[r][k - 1] > t:
                    t = end[r][k - 1]
            cand[r] = t
    if block_end > env.now:
        yield env.timeout(block_end - env.now)
    book_block(stats, pipes, busy_pipe, fixed_pipe, scalar_busy, hbm_total, l2_total, wb_total, gm_total,
               block_end - base, split if fused else 0, unit)
    if release is not None:
        release(core)
    return block_end


__all__ = ["AIV_PIPES", "CompiledProgram", "KernelStats", "compile_program", "run_block", "GM_PIPES"]
