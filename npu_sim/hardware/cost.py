"""Stage-time formulas: the one place simulated durations come from.

(Over 300 lines on purpose: the stage costs and the estimates tiling builds from
them, ``estimate_block_ns`` and friends at the end, stay in one module.)

All results are ns; ``cycle = 1e9 / chip.clock_hz``. ``docs/timing.md`` gives the
same formulas with worked examples. Sources: [PC] CANN platform config, [AC] Ascend C
docs, [A] assumption (each preset figure is labelled in ``npu_sim/chips/presets.py``).

Stage duration = throughput term + fixed term. The fixed term is per instruction
(``issues``) and per tile (``tiles``, > 1 only for a coarsened "L1 step"):

==========  ============================================================================  ======
pipe        duration of one stage                                                        source
==========  ============================================================================  ======
MTE2        issues * dma_latency + tiles * scalar                                        A
            + max(bus / mte2_bytes_per_cycle * cycle,          (the core's engine)       A
                  HBM FIFO finish of the missed bytes - start,  (shared, bandwidth.py)   A
                  L2 FIFO finish of the hit bytes - start)      (shared, l2.py)          A
            bus = sum over runs of ceil(run / gm_burst_bytes) * gm_burst_bytes           AC
MTE3        as MTE2 with mte3_bytes_per_cycle; keyed writes go to the write-back L2    A
FIXPIPE     as MTE2 with fixpipe_bytes_per_cycle (L0C -> GM write)                       A
MTE1        nbytes / mte1_bytes_per_cycle * cycle + tiles * scalar                       A
CUBE        ceil(macs / cube_macs_per_cycle(dtype)) * cycle + tiles * scalar             PC, A
            fp16/bf16 16x16x16 = 4096, int8 16x32x16 = 8192 [PC]; fp32 1024 (KEEP_DTYPE)
            and hf32 2048 (cubeMathType 1 ALLOW_FP32_DOWN_PRECISION, 3 USE_HF32) [A];
            cubeMathType 2 USE_FP16 runs at the fp16 rate
VECTOR      ceil(repeats * vector_repeat_bytes / vector_bytes_per_cycle) * cycle         AC, A
            + issues * vector_issue_ns + tiles * scalar
            repeats = tiles * ceil(vector_bytes / tiles / vector_repeat_bytes) (256 B)    AC
            issues >= tiles * ceil(repeats per tile / vector_max_repeats) (255)           AC
==========  ============================================================================  ======

A stage with nothing to do (no bytes, MACs or vector bytes) takes 0 ns.

Rates behind the shared terms (``bandwidth.py``): HBM runs at the sustained rate
``sustained_hbm_bytes_per_ns`` (peak capped by ini ddr_rate x cores x clock, times
``hbm_efficiency``), L2 hits at ``l2_read_bytes_per_ns``; keyed writes go to the
write-back L2 (``l2.py``). The CUBE and VECTOR throughput terms are divided by
``cube_efficiency`` / ``vector_efficiency`` (1.0 in every preset; ``npu-sim
calibrate`` fits them).

Small transfers: the fixed ``dma_latency`` per DMA instruction is what makes them
inefficient. One core alone moving ``n`` bytes per transfer reaches
``n / (n + dma_latency * engine_rate)`` of its engine rate: on 910B2 (230 GB/s per
core, 100 ns) 16 KiB transfers reach 42% and 64 KiB 74% of one core's engine, while
many cores in flight hide it behind the shared HBM (DESIGN.md: peak bandwidth needs
transfers of at least ~16 KB).

Outside the tile pipeline:

==================  ================================================================  ======
kernel launch       kernel_launch_ns from task start to block dispatch                A
block dispatch      block_dispatch_ns before each block starts (in parallel)          A
host link (H2D/D2H) host_link_latency_ns + nbytes / host_link_bandwidth (FIFO shared)  A
device copy (D2D)   dma_latency_ns + 2 * nbytes through HBM (read + write, FIFO)      A
==================  ================================================================  ======
"""
from __future__ import annotations

import math
import heapq
from typing import Any, NamedTuple, Sequence

from ..chips import Architecture, ChipConfig
from .bandwidth import l2_read_bytes_per_ns, l2_write_cost_factor, sustained_hbm_bytes_per_ns
from ..program import GM_PIPES, BlockProgram, CoreType, CubeDtype, KernelSpec, MixBlockProgram, Pipe, Stage

#: pipes of a fused MIX program that run on the group's AIVs (the rest run on its AIC)
AIV_PIPES = frozenset({Pipe.VECTOR, Pipe.MTE3})


def cube_macs_per_cycle(chip: ChipConfig, dtype: CubeDtype | str) -> int:
    """Cube MACs per cycle per AIC for a cube input dtype (see the table above)."""
    return chip.cube_macs_per_cycle(dtype)


def gm_bus_bytes(chip: ChipConfig, nbytes: int, run_bytes: int = 0) -> int:
    """Bytes a GM transfer occupies on the bus: ``nbytes`` cut into contiguous runs of
    ``run_bytes`` (0 = one run), each rounded up to ``chip.gm_burst_bytes``."""
    if nbytes <= 0:
        return 0
    burst = chip.gm_burst_bytes
    if run_bytes <= 0 or run_bytes >= nbytes:
        return -(-nbytes // burst) * burst
    full, tail = divmod(nbytes, run_bytes)
    bus = full * (-(-run_bytes // burst) * burst)
    if tail:
        bus += -(-tail // burst) * burst
    return bus


def vector_repeats(chip: ChipConfig, stage: Stage) -> int:
    """Vector repeats of a VECTOR stage: each tile's bytes in whole 256 B repeats."""
    if stage.vector_bytes <= 0:
        return 0
    tiles = max(1, stage.tiles)
    return tiles * -(-stage.vector_bytes // (tiles * chip.vector_repeat_bytes))


def stage_issues(chip: ChipConfig, stage: Stage) -> int:
    """Instructions a stage issues: ``stage.issues`` if given, else the least possible
    (one DMA per GM range per tile; one vector instruction per 255 repeats per tile)."""
    if stage.issues:
        return stage.issues
    tiles = max(1, stage.tiles)
    if _pipe(stage) is Pipe.VECTOR:
        per_tile = -(-vector_repeats(chip, stage) // tiles)
        return tiles * max(1, -(-per_tile // chip.vector_max_repeats))
    if stage.pipe in GM_PIPES:
        return tiles * max(1, len(stage.gm_ranges))
    return tiles


class StageCost(NamedTuple):
    """A stage's time terms, computed once per stage (see the module table).

    engine_ns: throughput term on the core's own engine, ns. fixed_ns: per-issue and
    per-tile costs, ns (scalar_ns of them is the Scalar unit's share). bus_bytes:
    burst-rounded GM bytes with no L2 key (always HBM). keyed: ((key, bus bytes), ...)
    for GM ranges with an L2 key. nbytes: useful bytes (as the tiling states them).
    gm: the stage touches GM.
    """

    engine_ns: float
    fixed_ns: float
    scalar_ns: float
    bus_bytes: int
    keyed: tuple[tuple[Any, int], ...]
    nbytes: int
    gm: bool


def _pipe(stage: Stage):
    """``stage.pipe`` as a :class:`Pipe` member for the set tests (``in GM_PIPES``,
    ``AIV_PIPES``, ``_WRITE_PIPES``) done by identity instead: a valid pipe name given
    as a plain str becomes its member, as a set lookup finds the str; anything else
    stays."""
    p = stage.pipe
    if type(p) is not Pipe:
        try:
            p = Pipe(p)
        except ValueError:
            pass
    return p


#: the pipes as module globals: ``Pipe.X`` is an Enum class attribute lookup, several times
#: slower than a global's, and stage_cost runs once per distinct stage in phase 1
_MTE2, _MTE3, _FIXPIPE, _CUBE, _VECTOR, _MTE1 = Pipe.MTE2, Pipe.MTE3, Pipe.FIXPIPE, Pipe.CUBE, Pipe.VECTOR, Pipe.MTE1


_make_cost = StageCost._make


def stage_cost(chip: ChipConfig, stage: Stage) -> StageCost:
    """The time terms of ``stage`` on ``chip`` (no contention; see the module table)."""
    return _make_cost(_cost_terms(chip, stage))


def _cost_terms(chip: ChipConfig, stage: Stage) -> tuple:
    """:func:`stage_cost`'s fields as a plain tuple (no NamedTuple built: phase 1's
    :func:`stage_terms` reads them by position)."""
    p = _pipe(stage)
    cyc = chip.ns_per_cycle
    tiles = stage.tiles if stage.tiles > 1 else 1   # max(1, stage.tiles)
    scalar = tiles * chip.scalar_ns_per_tile
    if p is _MTE2 or p is _MTE3 or p is _FIXPIPE:   # in GM_PIPES
        if stage.nbytes <= 0:
            return (0.0, 0.0, 0.0, 0, (), 0, True)
        covered = 0
        bus = 0
        keyed_bus = 0
        keyed = []
        burst = chip.gm_burst_bytes
        for r in stage.gm_ranges:
            nb, run = r.nbytes, r.run_bytes   # b = gm_bus_bytes(chip, nb, run), inlined
            if nb <= 0:
                b = 0
            elif run <= 0 or run >= nb:
                b = -(-nb // burst) * burst
            else:
                full, tail = divmod(nb, run)
                b = full * (-(-run // burst) * burst)
                if tail:
                    b += -(-tail // burst) * burst
            covered += nb
            if r.key is None or b <= 0:
                bus += b
            else:
                keyed.append((r.key, b))
                keyed_bus += b
        if stage.nbytes > covered:   # gm_bus_bytes of the rest, one run
            bus += -(-(stage.nbytes - covered) // burst) * burst
        total = bus + keyed_bus
        rate = (chip.mte2_bytes_per_cycle if p is _MTE2 else
                chip.mte3_bytes_per_cycle if p is _MTE3 else chip.fixpipe_bytes_per_cycle)
        issues = stage.issues or tiles * max(1, len(stage.gm_ranges))   # stage_issues of a GM stage
        fixed = issues * chip.dma_latency_ns + scalar
        return (total / rate * cyc, fixed, scalar, bus, tuple(keyed), stage.nbytes, True)
    if p is _CUBE:   # p: the Pipe member, so a pipe named by a plain str costs as its member does
        if stage.macs <= 0:
            return (0.0, 0.0, 0.0, 0, (), 0, False)
        return (math.ceil(stage.macs / cube_macs_per_cycle(chip, stage.dtype)) * cyc / chip.cube_efficiency,
                scalar, scalar, 0, (), 0, False)
    if p is _VECTOR:
        reps = vector_repeats(chip, stage)
        if reps <= 0:
            return (0.0, 0.0, 0.0, 0, (), 0, False)
        eng = math.ceil(reps * chip.vector_repeat_bytes / chip.vector_bytes_per_cycle) * cyc / chip.vector_efficiency
        per_tile = -(-reps // tiles)   # stage_issues of a VECTOR stage, its repeats counted once
        issues = stage.issues or tiles * max(1, -(-per_tile // chip.vector_max_repeats))
        return (eng, issues * chip.vector_issue_ns + scalar, scalar, 0, (), 0, False)
    if p is _MTE1:
        if stage.nbytes <= 0:
            return (0.0, 0.0, 0.0, 0, (), 0, False)
        return (stage.nbytes / chip.mte1_bytes_per_cycle * cyc, scalar, scalar, 0, (), stage.nbytes, False)
    # SCALAR as a stage of its own: its per-tile overhead only
    return (0.0, scalar, scalar, 0, (), 0, False)


#: pipes whose GM stage writes (the L2 write-back path)
_WRITE_PIPES = frozenset({_MTE3, _FIXPIPE})


def stage_terms(chip: ChipConfig, st: Stage, aiv_split: int) -> tuple:
    """One stage's entry of pipeline.py's ``CompiledProgram.groups`` without its tile count:
    ``(engine_ns, fixed_ns, scalar_ns, bus_bytes, keyed, nbytes, gm, write)``, the engine
    term of a VECTOR/MTE3 stage divided by ``aiv_split`` (a fused MIX program's AIVs)."""
    eng, fixed, scalar, bus, keyed, nbytes, gm = _cost_terms(chip, st)   # stage_cost's fields
    p = _pipe(st)
    if aiv_split > 1 and (p is _VECTOR or p is _MTE3):
        eng = eng / aiv_split
    return (eng, fixed, scalar, bus, keyed, nbytes, gm and nbytes > 0,
            p is _MTE3 or p is _FIXPIPE)   # in AIV_PIPES, in _WRITE_PIPES


def _chip_memo(table: dict, chip: ChipConfig, aiv_split: int) -> dict:
    """The memo dict kept in ``table`` for ``(chip, aiv_split)``: chips are frozen and kept
    by identity (an entry whose chip is another object at a reused id is replaced); past
    64 entries the table starts over."""
    key = (id(chip), aiv_split)
    hit = table.get(key)
    if hit is None or hit[0] is not chip:
        if len(table) > 64:
            table.clear()
        hit = table[key] = (chip, {})
    return hit[1]


#: per (chip object, aiv_split): Stage value -> its terms. stage_cost is a pure function of the
#: chip and the stage's fields, and tilings build many equal stages (one per block, per layer)
_MEMOS: dict[tuple[int, int], tuple[Any, dict]] = {}


def stage_memo(chip: ChipConfig, aiv_split: int) -> dict:
    """The memo of :func:`stage_terms` for ``chip`` (a frozen ChipConfig, kept by identity)."""
    return _chip_memo(_MEMOS, chip, aiv_split)


#: per (chip object, aiv_split): id(Stage) -> (the Stage, its terms), looked up before
#: :data:`_MEMOS`: tilings share one Stage object among many blocks, and an int hashes in a
#: fraction of the time a frozen Stage's fields do (the Stage is kept, so its id stays its own)
_ID_MEMOS: dict[tuple[int, int], tuple[Any, dict]] = {}


def stage_id_memo(chip: ChipConfig, aiv_split: int) -> dict:
    """The identity memo of :func:`stage_terms` for ``chip``: ``id(stage) -> (stage, terms)``
    (an entry is valid only while its first item *is* the stage looked up)."""
    return _chip_memo(_ID_MEMOS, chip, aiv_split)


#: True: compile_program looks a GM stage's terms up by its shape (:func:`shape_terms`);
#: False: by the Stage's value (:func:`stage_memo`), the reference the tests compare it with
SHAPE_MEMO = True

#: per (chip object, aiv_split): a GM stage's shape -> (its terms with no keys, its keyed slots)
#: (see :func:`shape_terms`)
_SHAPE_MEMOS: dict[tuple[int, int], tuple[Any, dict]] = {}


def shape_memo(chip: ChipConfig, aiv_split: int) -> dict:
    """The memo of :func:`shape_terms` for ``chip`` (a frozen ChipConfig, kept by identity)."""
    return _chip_memo(_SHAPE_MEMOS, chip, aiv_split)


def shape_terms(chip: ChipConfig, st: Stage, aiv_split: int, memo: dict) -> tuple:
    """:func:`stage_terms` of a GM stage (MTE2, MTE3, FIXPIPE), looked up in ``memo``
    (:func:`shape_memo`) by the stage's shape: its pipe, ``nbytes``, ``issues``, ``tiles``
    and, per GM range, ``nbytes``, ``run_bytes`` and whether it has an L2 key. A GM
    stage's terms depend on nothing else but the keys themselves, which only fill the
    ``keyed`` pairs; tilings give each block its own keys (("A", block, k, ...)), so
    thousands of distinct Stage values share a few hundred shapes. The keys are neither
    hashed nor compared (an unhashable key is fine). An entry keeps the terms with
    ``keyed = ()`` and, for each keyed pair, its range's index and bus bytes."""
    rs = st.gm_ranges
    if len(rs) == 2:   # the usual cube MTE2 stage (A and B): the key in one tuple
        a, b = rs
        shape = (st.pipe, st.nbytes, st.issues, st.tiles, a.nbytes, a.run_bytes, a.key is None,
                 b.nbytes, b.run_bytes, b.key is None)
    else:
        shape = (st.pipe, st.nbytes, st.issues, st.tiles)
        for r in rs:
            shape += (r.nbytes, r.run_bytes, r.key is None)
    hit = memo.get(shape)
    if hit is None:
        terms = stage_terms(chip, st, aiv_split)
        keyed = terms[4]
        slots: tuple = ()
        if keyed:   # the ranges _cost_terms made a pair of: a key and bus bytes > 0, in order
            idx = [i for i, r in enumerate(rs) if r.key is not None and gm_bus_bytes(chip, r.nbytes, r.run_bytes) > 0]
            if len(idx) != len(keyed):   # pragma: no cover (the same rule as _cost_terms')
                return terms
            slots = tuple(zip(idx, [b for _, b in keyed]))
        if len(memo) > 65536:
            memo.clear()
        hit = memo[shape] = (terms[:4] + ((),) + terms[5:], slots)
        return terms
    base, slots = hit
    if not slots:
        return base
    eng, fixed, scalar, bus, _, nbytes, gm, write = base
    if len(slots) == 2:
        (i, b), (j, c) = slots
        keyed = ((rs[i].key, b), (rs[j].key, c))
    else:
        keyed = tuple([(rs[i].key, b) for i, b in slots])
    return (eng, fixed, scalar, bus, keyed, nbytes, gm, write)


def engine_ns(chip: ChipConfig, stage: Stage) -> float:
    """The stage's throughput term on its own engine (ns), without contention and
    without the fixed per-issue / per-tile costs."""
    return stage_cost(chip, stage).engine_ns


def stage_ns(chip: ChipConfig, stage: Stage) -> float:
    """The stage's duration alone on an idle chip (ns): fixed costs plus the slowest
    of the engine, HBM (all GM bytes missing L2) at its full bandwidth."""
    c = stage_cost(chip, stage)
    if not c.gm:
        return c.engine_ns + c.fixed_ns
    bus = c.bus_bytes + sum(b for _, b in c.keyed)
    return max(c.engine_ns, bus / sustained_hbm_bytes_per_ns(chip)) + c.fixed_ns


def kernel_overhead_ns(chip: ChipConfig) -> float:
    """Fixed time of a kernel before its blocks compute: launch + one block dispatch (ns)."""
    return chip.kernel_launch_ns + chip.block_dispatch_ns


def memcpy_ns(chip: ChipConfig, nbytes: int, kind: str) -> float:
    """Duration of a copy alone on an idle chip (ns). ``kind``: "H2D", "D2H", "D2D"."""
    if kind in ("H2D", "D2H"):
        return chip.host_link_latency_ns + nbytes / chip.host_link_bandwidth_bytes_per_ns
    if kind == "D2D":
        return chip.dma_latency_ns + 2 * nbytes / sustained_hbm_bytes_per_ns(chip)
    raise ValueError(f"memcpy kind must be H2D, D2H or D2D, not {kind!r}")


def memset_ns(chip: ChipConfig, nbytes: int) -> float:
    """Duration of an aclrtMemset(Async) of ``nbytes`` alone on an idle chip (ns):
    ``dma_latency_ns + nbytes / sustained HBM bandwidth``. Assumption [A]: the fill is
    a DMA task writing each byte once and reading none (a D2D copy moves ``2 * nbytes``),
    with a copy's fixed latency; no public figure for memset throughput on 910B was
    found. ``Device._run_memcpy`` charges the same bytes on the shared HBM server."""
    return chip.dma_latency_ns + nbytes / sustained_hbm_bytes_per_ns(chip)


# ---- estimates from the same costs (no SimPy) ------------------------------------------------
def idle_stage_ns(chip: ChipConfig, stage: Stage, aiv_split: int = 1) -> float:
    """:func:`stage_ns`, with the throughput term of a VECTOR/MTE3 stage divided by
    ``aiv_split`` (the AIVs that share a fused MIX program's vector work)."""
    c = stage_cost(chip, stage)
    eng = c.engine_ns / aiv_split if aiv_split > 1 and stage.pipe in AIV_PIPES else c.engine_ns
    if c.gm and c.nbytes > 0:
        bus = c.bus_bytes + sum(b for _, b in c.keyed)
        return max(eng, bus / sustained_hbm_bytes_per_ns(chip)) + c.fixed_ns
    return eng + c.fixed_ns


def _pipeline_ns(groups: Sequence[tuple[int, Sequence[float]]], buffer_num: int) -> float:
    """End of the last stage of the last tile (ns from the block's start) under the rule
    of ``pipeline.py``, for tile groups ``(count, stage durations)``. Exact: a run of
    identical tiles is walked tile by tile until every stage's last ``bn + 1`` ends
    are one period ``P`` apart (``max(durations)`` once ``bn >= 2``); from there each
    tile ends ``P`` later (the rule is max-plus linear and time-invariant), so the
    rest of the run is one shift."""
    bn = max(1, buffer_num)
    S = len(groups[0][1]) if groups else 0
    if not S:
        return 0.0
    hist: list[list[float]] = [[] for _ in range(S)]   # last bn + 1 ends of each stage
    for count, d in groups:
        i = 0
        while i < count:
            t_prev = 0.0
            for s in range(S):
                h = hist[s]
                t = t_prev
                if h and h[-1] > t:
                    t = h[-1]
                if s + 1 < S and len(hist[s + 1]) >= bn and hist[s + 1][-bn] > t:
                    t = hist[s + 1][-bn]
                t_prev = t + d[s]
                h.append(t_prev)
                if len(h) > bn + 1:
                    del h[0]
            i += 1
            left = count - i
            period = hist[-1][-1] - hist[-1][-2] if len(hist[-1]) > 1 else -1.0
            if left and all(len(h) == bn + 1 and all(abs(h[j + 1] - h[j] - period) <= 1e-9 * (1.0 + abs(h[j + 1]))
                                                      for j in range(bn)) for h in hist):
                shift = left * period
                for h in hist:
                    h[:] = [x + shift for x in h]
                i = count
    return hist[-1][-1] if hist[-1] else 0.0


class _BlockEstimate(NamedTuple):
    ns: float        #: block start to its last stage's end
    hbm_bytes: int   #: bus bytes served by HBM (no key, first reads of a key)
    l2_bytes: int    #: bus bytes of keyed reads whose key was seen before (L2 hits)


def _block_estimate(chip: ChipConfig, program: BlockProgram, buffer_num: int, aiv_split: int,
                    seen: set, cache: dict) -> _BlockEstimate:
    """:func:`estimate_block_ns` of a plain program, with its HBM and L2 bytes;
    ``seen`` holds the ``(key, j)`` already in L2 and gains this block's; ``cache``
    keeps stage terms by stage identity (tilings share stage objects)."""
    hbm_bw, l2_bw = sustained_hbm_bytes_per_ns(chip), l2_read_bytes_per_ns(chip)
    wfac = l2_write_cost_factor(chip)
    runs: list[tuple[int, list[float]]] = []
    hbm = l2 = 0
    for g in program.tiles:
        if g.count <= 0:
            continue
        terms = []
        for st in g.stages:
            t = cache.get((id(st), aiv_split))
            if t is None or t[0] is not st:
                c = stage_cost(chip, st)
                eng = c.engine_ns / aiv_split if aiv_split > 1 and st.pipe in AIV_PIPES else c.engine_ns
                gm = c.gm and c.nbytes > 0
                t = cache[(id(st), aiv_split)] = (st, (eng, c.fixed_ns, c.bus_bytes, c.keyed if gm else (), gm,
                                          st.pipe is not Pipe.MTE2))
            terms.append(t[1])
        if not any(t[3] for t in terms):   # no L2 keys: every tile of the group costs the same
            d = [max(e, bus / hbm_bw) + f if gm else e + f for e, f, bus, _, gm, _ in terms]
            runs.append((g.count, d))
            hbm += g.count * sum(t[2] for t in terms if t[4])
            continue
        for j in range(g.count):
            d = []
            for eng, fixed, bus, keyed, gm, write in terms:
                if not gm:
                    d.append(eng + fixed)
                    continue
                miss, hit, booked = bus, 0, 0.0
                for key, b in keyed:
                    if write:   # write-back L2: absorbed at the write rate (hardware/l2.py)
                        hit += b
                        booked += b * wfac
                        seen.add((key, j))
                    elif (key, j) not in seen:
                        miss += b
                        seen.add((key, j))
                    else:
                        hit += b
                        booked += b
                hbm += miss
                l2 += hit
                d.append(max(eng, miss / hbm_bw, booked / l2_bw) + fixed)
            if runs and runs[-1][1] == d:
                runs[-1] = (runs[-1][0] + 1, d)
            else:
                runs.append((1, d))
    return _BlockEstimate(_pipeline_ns(runs, buffer_num), hbm, l2)


def estimate_block_ns(chip: ChipConfig, program: BlockProgram | MixBlockProgram, buffer_num: int = 2,
                      aiv_split: int = 1) -> float:
    """Duration (ns) of one block program alone on an idle chip, from block start to
    its last stage's end (dispatch and launch excluded; see :func:`estimate_kernel_ns`).

    Each stage lasts what it would on an idle chip: the fixed term plus the slowest
    of its engine, the HBM at full bandwidth for its missed bytes (no L2 key,
    first reads of a key) and the L2 at full bandwidth for its hits (reads of a
    ``(key, j)`` the block read or wrote before, and keyed writes, which the
    write-back L2 absorbs at its write rate), all burst rounded; write-backs of
    evicted dirty ranges are not estimated; a fused MIX
    program (``aiv_split=2``) halves the VECTOR/MTE3 throughput terms. The stages
    follow the pipeline rule of ``npu_sim/hardware/pipeline.py``, queues of depth
    ``bn = buffer_num``::

        start(s, i) = max(end(s-1, i), end(s, i-1), end(s+1, i-bn));  end = start + d(s, i)

    which for ``n`` identical tiles and ``bn >= 2`` is ``sum(d) + (n - 1) * max(d)``
    (:func:`estimate_tiles_ns`). A :class:`MixBlockProgram` takes the longest of its
    AIC and AIV programs.

    Versus the simulator running the block alone: equal (to float rounding) when none
    of the block's GM transfers queues at the HBM or L2 behind another of its own
    (e.g. whenever the HBM outruns the core's copy engines, as on the 910B presets);
    else the simulator is slower, never faster (every simulated duration is at least
    its idle one, and the rule is monotone). ``tests/npu_sim/test_estimate.py``.
    """
    if isinstance(program, MixBlockProgram):
        return max(_block_estimate(chip, p, buffer_num, 1, set(), {}).ns for p in (program.aic,) + program.aiv)
    return _block_estimate(chip, program, buffer_num, aiv_split, set(), {}).ns


def estimate_tiles_ns(chip: ChipConfig, stages: Sequence[Stage], count: int = 1, buffer_num: int = 2) -> float:
    """:func:`estimate_block_ns` of ``count`` identical tiles of ``stages``, without
    building a program: ``sum(d) + (count - 1) * max(d)`` for ``buffer_num >= 2``
    (``d`` = :func:`idle_stage_ns` of each stage), the pipeline rule otherwise."""
    if count <= 0 or not stages:
        return 0.0
    d = [idle_stage_ns(chip, st) for st in stages]
    if buffer_num >= 2:
        return sum(d) + (count - 1) * max(d)
    return _pipeline_ns([(count, d)], buffer_num)


def _block_slots(chip: ChipConfig, core_type: CoreType) -> int:
    """Blocks of ``core_type`` an idle chip runs at once (``CoreScheduler.capacity``)."""
    if core_type is CoreType.AIC:
        return chip.aic_count
    if core_type is CoreType.AIV:
        return chip.vector_core_count
    return 0 if chip.architecture is Architecture.COUPLED else min(chip.aic_count, chip.aiv_count // 2)


def estimate_kernel_ns(chip: ChipConfig, spec: KernelSpec) -> float:
    """Duration (ns) of a kernel alone on an idle chip, as its stream task would last:
    ``kernel_launch_ns`` + the latest of

    * the blocks dealt in order to the first free core (``block_dispatch_ns`` each,
      then its :func:`estimate_block_ns`, where a key an earlier block read counts
      as an L2 hit);
    * ``block_dispatch_ns`` + the HBM time of all the blocks' missed bytes;
    * ``block_dispatch_ns`` + the L2 time of all their hits.

    An estimate for ranking tilings, not a bound: it ignores L2 capacity (evictions
    turn hits into misses) and how the blocks' transfers queue at the shared HBM
    (measured error: ``tests/npu_sim/test_estimate.py``).
    Raises ValueError if the chip has no cores of the spec's core type.
    """
    slots = _block_slots(chip, spec.core_type)
    if slots <= 0:
        raise ValueError(f"{chip.name} has no cores for a {spec.core_type.value} kernel")
    split = 2 if spec.core_type is CoreType.MIX else 1
    dispatch = chip.block_dispatch_ns
    seen: set = set()
    cache: dict = {}
    unkeyed: dict[int, _BlockEstimate] = {}   # programs without L2 keys cost the same in every block
    free = [0.0] * min(slots, max(1, spec.block_dim))
    end = 0.0
    hbm = l2 = 0
    for prog in spec.blocks:
        est = unkeyed.get(id(prog))
        if est is None:
            progs = (prog.aic,) + prog.aiv if isinstance(prog, MixBlockProgram) else (prog,)
            n_seen = len(seen)
            k = 1 if isinstance(prog, MixBlockProgram) else split
            parts = [_block_estimate(chip, p, spec.buffer_num, k, seen, cache) for p in progs]
            est = _BlockEstimate(max(p.ns for p in parts), sum(p.hbm_bytes for p in parts),
                                 sum(p.l2_bytes for p in parts))
            if len(seen) == n_seen and not est.l2_bytes:
                unkeyed[id(prog)] = est
        hbm += est.hbm_bytes
        l2 += est.l2_bytes
        t = heapq.heappop(free) + dispatch + est.ns
        end = max(end, t)
        heapq.heappush(free, t)
    floor = dispatch + max(hbm / sustained_hbm_bytes_per_ns(chip), l2 / l2_read_bytes_per_ns(chip))
    return chip.kernel_launch_ns + max(end, floor)
