"""Cube (L1/L0 GEMM) tiling, host half: a pure function of (chip, problem, dtypes).

:func:`cube_tiling` follows ops-nn's order: platform facts from the chip (AIC count,
L1/L0A/L0B/L0C sizes, the cube rate of the compute dtype), then the problem size
(batch, M, N, K), then the tiling struct (:class:`MatmulTilingData`: base tile, K chunk,
output tiles, ``block_dim``). No device, no runtime, no aclTensor. The kernel half,
:func:`~opsnn.matmul.common.cube_program.cube_program`, turns the struct into the tile
program. Matmul, BatchMatMul, Addmm and Convolution (an implicit GEMM) use both.

(Over 300 lines on purpose: the candidate search, its step-cost memo and the lower bounds
that prune it stay in one module, so each bound's argument sits next to the estimate it
bounds.)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from npu_sim import ChipConfig
from npu_sim.hardware.bandwidth import l2_read_bytes_per_ns, sustained_hbm_bytes_per_ns
from npu_sim.hardware.cost import estimate_tiles_ns, idle_stage_ns, stage_cost
from npu_sim.program import GmRange, Pipe, Stage

from ...base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ...base.tiling_base import align_up, ceil_div

#: the cube's M/N fractal edge (elements) and K fractal for 16-bit/fp32 inputs
#: (Ascend C docs: a 16 x 16 fractal; int8 uses K = 32)
FRAC = 16


@dataclass(frozen=True)
class MatmulTilingData:
    """Tiling struct of a cube GEMM (cf. TCubeTiling): C[b, M, N] = A[b, M, K] @ B[b, K, N].

    base_m/base_n/base_k: one L0 tile (L0A holds base_m x base_k, L0B base_k x base_n,
    L0C base_m x base_n in fp32, ``l0c_buffers`` of them). k_l1: K elements per L1
    load (one "K chunk"). block_dim: AICs; out_tiles: batch * ceil(M/base_m) *
    ceil(N/base_n), dealt to blocks round-robin (tile t on block t % block_dim).
    l1_bytes_used / l0c_bytes_used: bytes one AIC uses. k_chunks: K chunks per output
    tile; chunks_per_step: K chunks merged into one timed "L1 step" (1 = none; see
    :func:`cube_tiling`).
    """

    batch: int
    m: int
    n: int
    k: int
    base_m: int
    base_n: int
    base_k: int
    k_l1: int
    block_dim: int
    out_tiles: int
    l1_bytes_used: int
    l0c_bytes_used: int
    k_chunks: int = 1
    chunks_per_step: int = 1
    l0c_buffers: int = 2

    @property
    def m_tiles(self) -> int:
        """Output tiles along M: ceil(M aligned to 16 / base_m)."""
        return ceil_div(align_up(max(self.m, 1), FRAC), self.base_m)

    @property
    def n_tiles(self) -> int:
        """Output tiles along N: ceil(N aligned to 16 / base_n)."""
        return ceil_div(align_up(max(self.n, 1), FRAC), self.base_n)


def k_fractal(cube_dtype: str) -> int:
    """The cube's K fractal (elements) for ``cube_dtype``: 32 for int8, else 16."""
    return 32 if cube_dtype == "int8" else FRAC


#: most timed steps one cube block is given before K chunks are merged into "L1
#: steps" (keeps SimPy events in the thousands for 8192^3 matmuls; the timing error of
#: merging is one step's fill, under 1/max_steps of the block) [A]
MAX_CUBE_STEPS_PER_BLOCK = 256


def _mte2_stage(bm: int, bn: int, kl1: int, item: int, a_gm_reuse: float) -> Stage:
    """The MTE2 stage of :func:`_step_stages`."""
    a_bytes = int(bm * kl1 * item / a_gm_reuse)
    b_bytes = kl1 * bn * item
    return Stage(Pipe.MTE2, nbytes=a_bytes + b_bytes, gm_ranges=(GmRange(a_bytes, kl1 * item),
                                                                  GmRange(b_bytes, bn * item)))


def _mte1_stage(bm: int, bn: int, kl1: int, item: int) -> Stage:
    """The MTE1 stage of :func:`_step_stages`."""
    return Stage(Pipe.MTE1, nbytes=(bm * kl1 + kl1 * bn) * item)


def _fixpipe_stage(bm: int, bn: int, out_itemsize: int) -> Stage:
    """The FIXPIPE stage of :func:`_step_stages` (the output tile's write)."""
    fix = bm * bn * out_itemsize
    return Stage(Pipe.FIXPIPE, nbytes=fix, gm_ranges=(GmRange(fix, bn * out_itemsize),))


def _step_stages(bm: int, bn: int, kl1: int, item: int, out_itemsize: int, a_gm_reuse: float, cube_dtype: str,
                 k_frac: int) -> tuple[Stage, Stage, Stage, Stage]:
    """The MTE2, MTE1, CUBE and FIXPIPE stages of one full K chunk of a ``bm`` x ``bn``
    output tile, as :func:`~opsnn.matmul.common.cube_program.cube_program` emits them
    (A's GM bytes divided by ``a_gm_reuse``, row runs for burst rounding; no L2 keys:
    the L2 is the separate traffic term of :func:`cube_tiling`)."""
    return (_mte2_stage(bm, bn, kl1, item, a_gm_reuse), _mte1_stage(bm, bn, kl1, item),
            Stage(Pipe.CUBE, macs=bm * bn * align_up(kl1, k_frac), dtype=cube_dtype),
            _fixpipe_stage(bm, bn, out_itemsize))


#: memo of :func:`_step_ns`, one dict per chip: the same step sizes give the same floats
#: (pure functions of a frozen ChipConfig and the sizes). The key leaves out what the
#: stage costs do not depend on (batch, M, N, K, the step count, the queue depth), so the
#: convolutions and matmuls of one model share their entries (light ResNet-50: 1834
#: block estimates, far fewer distinct steps); emptied past _MEMO_MAX entries
_MEMO: dict = {}
_MEMO_MAX = 1 << 16


def _step_ns(memo: dict, steps: dict, key: tuple, chip: ChipConfig, bm: int, bn: int, kl1: int, item: int,
             out_itemsize: int, a_gm_reuse: float, cube_ns: float) -> tuple:
    """``(sum(d), max(d), FixPipe ns)`` of one step of :func:`_step_stages`, stored in
    ``steps`` (the dict of ``memo``, the chip's dict of :data:`_MEMO`, for these itemsizes,
    ``a_gm_reuse``, cube dtype and K fractal) under ``key`` = (bm, bn, kl1), which the
    caller looked up first: ``d`` = the idle ns (``npu_sim.hardware.cost.idle_stage_ns``)
    of its MTE2, MTE1 and CUBE stages (``cube_ns``, from :func:`_cube_ns`), and the FixPipe
    ns of the last write. The MTE1 and FIXPIPE ns are memoised on their own too (many
    steps share them): a miss builds and costs the MTE2 stage, the others only when new."""
    fkey = ("fixpipe", bm, bn, out_itemsize)
    fix_ns = memo.get(fkey)
    if fix_ns is None:
        fix_ns = memo[fkey] = idle_stage_ns(chip, _fixpipe_stage(bm, bn, out_itemsize))
    mkey = ("mte1", bm, bn, kl1, item)
    mte1_ns = memo.get(mkey)
    if mte1_ns is None:
        mte1_ns = memo[mkey] = idle_stage_ns(chip, _mte1_stage(bm, bn, kl1, item))
    d = [idle_stage_ns(chip, _mte2_stage(bm, bn, kl1, item, a_gm_reuse)), mte1_ns, cube_ns]
    hit = steps[key] = (sum(d), max(d), fix_ns)
    return hit


def _cube_ns(memo: dict, chip: ChipConfig, macs: int, cube_dtype: str) -> float:
    """``idle_stage_ns`` of the CUBE stage of ``macs`` MACs in ``cube_dtype`` (the stage
    :func:`_step_stages` builds), memoised in ``memo``.

    Why it bounds a candidate from below (queue depth >= 2): its block estimate is
    ``sum(d) + (steps - 1) * max(d) + fix`` with ``d`` holding this value and two other
    non-negative ones, so ``sum(d) >= cube`` and ``max(d) >= cube``; rounded float
    addition and multiplication are monotone, so the estimate is at least
    ``cube + (steps - 1) * cube`` computed in floats, exactly."""
    key = ("cube", macs, cube_dtype)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = idle_stage_ns(chip, Stage(Pipe.CUBE, macs=macs, dtype=cube_dtype))
    return hit


def _chip_memo(chip: ChipConfig) -> dict:
    """The chip's dict in :data:`_MEMO` (created on first use; all emptied past _MEMO_MAX)."""
    memo = _MEMO.get(chip)
    if memo is None or len(memo) >= _MEMO_MAX:
        if sum(len(v) for v in _MEMO.values()) >= _MEMO_MAX:
            _MEMO.clear()
        memo = _MEMO[chip] = {}
    return memo


#: True: pass 1 of :func:`cube_tiling` bounds each candidate (queue depth >= 2) by a floor of
#: every term of its block estimate (:func:`_stage_floors`): MTE2 at its useful bytes, MTE1 and
#: the FixPipe write, with the Cube term, so pass 2 costs the steps of only the few candidates
#: near the fastest (light DenseNet-121: 11 step-cost misses per call before, see the commit);
#: False: the Cube term alone (the previous bound, kept for
#: tests/opsnn/matmul/test_cube_tiling_stage_bound.py). Either way the same tiling is chosen: a
#: bound only skips candidates that can neither be the fastest nor be within 3% of it
STAGE_BOUND = True


def _stage_floors(memo: dict, chip: ChipConfig, item: int) -> tuple[float, float]:
    """``(MTE2 fixed ns, MTE1 fixed ns)`` of one step's stages as :func:`_step_stages` builds
    them (one tile; MTE2 with its two GM ranges): the ``fixed_ns`` that
    ``npu_sim.hardware.cost.stage_cost`` gives, which depends on the stage's pipe, tiles and
    ranges, not on its sizes (the cost module's table: issues * dma_latency + tiles *
    scalar), so a 16 x 16 x 16 step stands for every step; memoised in ``memo``."""
    key = ("fixed", item)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = (stage_cost(chip, _mte2_stage(FRAC, FRAC, FRAC, item, 1.0)).fixed_ns,
                           stage_cost(chip, _mte1_stage(FRAC, FRAC, FRAC, item)).fixed_ns)
    return hit


def _k_splits(k_al: int, k_frac: int, kc_min: int) -> list[tuple[int, int]]:
    """The K splits :func:`cube_tiling` tries when L1 allows at most ``kc_min`` equal chunks
    of the ``k_fractal``-aligned K ``k_al``: ``(K chunks, chunk length in elements)`` for
    kc in sorted({kc_min, kc_min + 1, kc_min + 2, 2 * kc_min, 4 * kc_min}) (more, shorter
    chunks than L1 forces let the copies overlap the Cube), each chunk aligned up to the K
    fractal; a longer kc is kept only if that length splits K into exactly kc chunks.
    ``ceil_div(a, b)`` is written out as ``-(-a // b)``."""
    out = []
    for kc in ((1, 2, 3, 4) if kc_min == 1 else (2, 3, 4, 8) if kc_min == 2 else
               (kc_min, kc_min + 1, kc_min + 2, 2 * kc_min, 4 * kc_min)):
        kl1 = (-(-k_al // kc) + k_frac - 1) // k_frac * k_frac   # align_up(ceil_div(k_al, kc), k_frac)
        kc = -(-k_al // kl1) if kc == kc_min else kc
        if kc > kc_min and (kl1 < k_frac or -(-k_al // kl1) != kc):
            continue
        out.append((kc, kl1))
    return out


def cube_tiling(chip: ChipConfig, batch: int, m: int, n: int, k: int, in_itemsize: int, out_itemsize: int,
                cube_dtype: str, *, a_gm_reuse: float = 1.0, buffer_num: int = 2,
                max_steps_per_block: int = MAX_CUBE_STEPS_PER_BLOCK, name: str = "cube") -> MatmulTilingData:
    """Tile a (batched) GEMM of ``batch`` x [m, k] @ [k, n] over AICs, L1 and L0A/L0B/L0C.

    ``in_itemsize`` / ``out_itemsize``: bytes per element of A, B / C. ``cube_dtype``:
    the cube-rate dtype name (``ChipConfig.cube_macs_per_cycle``; "hf32" for HF32).
    ``a_gm_reuse``: A's GM bytes are divided by it (a convolution's Load3D re-reads one
    feature map for many im2col rows). ``buffer_num``: L1/L0A/L0B queue depth.

    Base tile: among the (base_m, base_n) in {16..256} (balanced to equal tiles) that
    fit L0A/L0B/L0C (L0C double-buffered when it fits, else single) and L1, the one
    and K split (the fewest equal chunks L1 allows, or a few more so copies overlap
    the Cube) with the least estimated time, from the simulator's own stage costs
    (``npu_sim.hardware.cost``; no second copy of the formulas): one block is a
    pipeline of ``ceil(out_tiles / aic_count) * k_chunks`` steps of the stages
    :func:`_step_stages` builds (``estimate_tiles_ns``: the first passes MTE2, MTE1 and
    Cube, each later one adds the slowest of them) plus the last FixPipe write
    (``idle_stage_ns``); or the L2 time of all the traffic, or the HBM time of
    the operands (all the traffic if they do not fit in half the L2), if longer.
    Among those within 3% of the fastest, the fewest waves of tiles over the cores,
    then the one on the most cores, then with the fewest K chunks in all, then the
    larger tile. ``block_dim = min(aic_count, out_tiles)``. When a block would get
    more than ``max_steps_per_block`` K chunks, ``chunks_per_step`` consecutive chunks
    of one output tile are merged into one timed "L1 step".

    Raises AclnnError(561002) if no tile fits the chip's buffers (the message starts
    with ``name``).
    """
    frac = FRAC
    k_frac = k_fractal(cube_dtype)
    item = in_itemsize
    m_al, n_al, k_al = align_up(max(m, 1), frac), align_up(max(n, 1), frac), align_up(max(k, 1), k_frac)
    cores = chip.aic_count
    # the rates the simulator's shared L2 and HBM servers run at (npu_sim.hardware.bandwidth)
    l2_bw, hbm_bw = l2_read_bytes_per_ns(chip), sustained_hbm_bytes_per_ns(chip)
    unique = (m * k / a_gm_reuse + k * n) * item * batch
    memo = _chip_memo(chip)
    # pass 1, cheap: a lower bound of every candidate's estimate (its block estimate on
    # stage floors, STAGE_BOUND, else its Cube stages alone; and the exact L2 and HBM
    # terms); pass 2 estimates them in rising order of the bound and stops once a bound
    # exceeds 1.03 x the best estimate so far: such a candidate can neither be the fastest
    # nor be within 3% of it (see _cube_ns)
    pending = []
    unique_in_l2 = unique <= chip.l2_bytes // 2
    unique_hbm = unique / hbm_bw
    two_deep = buffer_num >= 2
    cube_memo = memo.get(("cube_of", cube_dtype))
    if cube_memo is None:
        cube_memo = memo[("cube_of", cube_dtype)] = {}
    # the candidates (bm, bn, bk, kl1, l0c_buf) that fit L0A/L0B/L0C/L1, numbered ``idx`` in
    # enumeration order and bounded as they are made. Edges {256, 128, 64, 32, 16} balanced:
    # ceil(dim / edge) equal aligned tiles (M = 129: 2 tiles of 80, not 128 + 1); K split into
    # equal chunks no longer than L1 allows; ceil_div(a, b) written out as -(-a // b)
    l0a, l0b, l0c, l1 = chip.l0a_bytes, chip.l0b_bytes, chip.l0c_bytes, chip.l1_bytes
    # the stage floors of pass 1 (STAGE_BOUND). Why each is at most the stage's idle ns
    # (npu_sim.hardware.cost): MTE2 costs max(bus / rate * cycle, bus / hbm_bw) + its fixed
    # ns, with ``bus`` the burst-rounded bytes (never fewer than the useful ``step_bytes``);
    # MTE1 nbytes / rate * cycle + its fixed ns. The floors do the same float operations in
    # the same order on ``step_bytes`` and the MTE1 bytes, all monotone, so they never exceed
    # the stage costs, nor the sum and max taken of them below the block estimate
    mte2_rate, mte1_rate, cyc = chip.mte2_bytes_per_cycle, chip.mte1_bytes_per_cycle, chip.ns_per_cycle
    mte2_fixed, mte1_fixed = _stage_floors(memo, chip, item)
    stage_bound = STAGE_BOUND and two_deep
    idx = 0
    seen = set()
    k_splits: dict = {}   # kc_min -> its (kc, kl1): many (bm, bn) share one kc_min
    bns = [align_up(ceil_div(n_al, ceil_div(n_al, bn0)), frac) for bn0 in (256, 128, 64, 32, 16)]
    for bm0 in (256, 128, 64, 32, 16):
        bm = align_up(ceil_div(m_al, ceil_div(m_al, bm0)), frac)
        bm_tiles = batch * -(-m_al // bm)
        for bn in bns:
            if (bm, bn) in seen:
                continue
            seen.add((bm, bn))
            acc = bm * bn * 4  # L0C accumulates in fp32
            l0c_buf = buffer_num if acc * buffer_num <= l0c else 1
            if acc * l0c_buf > l0c:
                continue
            bk = min(k_al, l0a // (buffer_num * bm * item), l0b // (buffer_num * bn * item)) // k_frac * k_frac
            if bk < k_frac:
                continue
            k_max = l1 // (buffer_num * (bm + bn) * item) // bk * bk
            if k_max < bk:
                continue
            kc_min = -(-k_al // k_max)
            tiles = bm_tiles * -(-n_al // bn)
            waves = -(-tiles // cores)
            a_row, b_row, bm_bn = bm * item, bn * item, bm * bn
            if stage_bound:
                fkey = ("fixpipe", bm, bn, out_itemsize)   # the last write, as _step_ns memoises it
                fix_d = memo.get(fkey)
                if fix_d is None:
                    fix_d = memo[fkey] = idle_stage_ns(chip, _fixpipe_stage(bm, bn, out_itemsize))
                ab_row = (bm + bn) * item   # MTE1 bytes per K element
            splits = k_splits.get(kc_min)
            if splits is None:
                splits = k_splits[kc_min] = _k_splits(k_al, k_frac, kc_min)
            for kc, kl1 in splits:
                steps = waves * kc
                # the MTE2 bytes of one step, as _step_stages states them
                step_bytes = int(a_row * kl1 / a_gm_reuse) + kl1 * b_row
                traffic = tiles * kc * step_bytes
                # re-reads come from L2 when the operands fit in it, else from HBM
                bus = traffic / l2_bw   # (max() written out below: the same floats)
                hbm = unique_hbm if unique_in_l2 else traffic / hbm_bw
                if hbm > bus:
                    bus = hbm
                cube_d = cube_memo.get(bm_bn * kl1)   # the CUBE stage's MACs: kl1 is K-fractal aligned
                if cube_d is None:
                    cube_d = cube_memo[bm_bn * kl1] = _cube_ns(memo, chip, bm_bn * kl1, cube_dtype)
                if stage_bound:
                    # the block estimate of pass 2, sum(d) + (steps - 1) * max(d) + fix, on floors
                    m2 = step_bytes / mte2_rate * cyc
                    at_hbm = step_bytes / hbm_bw
                    if at_hbm > m2:
                        m2 = at_hbm
                    m2 += mte2_fixed
                    m1 = ab_row * kl1 / mte1_rate * cyc + mte1_fixed
                    d_max = m2 if m2 > m1 else m1
                    if cube_d > d_max:
                        d_max = cube_d
                    lb = m2 + m1 + cube_d + (steps - 1) * d_max + fix_d
                else:
                    lb = cube_d + (steps - 1) * cube_d if two_deep else bus
                if bus > lb:
                    lb = bus
                # (lb, idx) is unique, so the plain tuple order is the order of (bound, enumeration)
                pending.append((lb, idx, bus, steps, tiles, kc, bm, bn, bk, kl1, l0c_buf, cube_d))
                idx += 1
    pending.sort()
    cands = []
    best_est = math.inf
    skey = ("steps", item, out_itemsize, a_gm_reuse, cube_dtype, k_frac)   # its step costs, by (bm, bn, kl1)
    step_memo = memo.get(skey)
    if step_memo is None or len(step_memo) >= _MEMO_MAX:
        step_memo = memo[skey] = {}
    for c in pending:
        lb, idx, bus, steps, tiles, kc, bm, bn, bk, kl1, l0c_buf, cube_d = c
        if lb > best_est * 1.03:
            break
        hit = step_memo.get((bm, bn, kl1))
        if hit is None:
            hit = _step_ns(memo, step_memo, (bm, bn, kl1), chip, bm, bn, kl1, item, out_itemsize, a_gm_reuse, cube_d)
        d_sum, d_max, fix_ns = hit
        # estimate_tiles_ns of `steps` identical steps, then the last FixPipe write: for a
        # queue depth >= 2 that is sum(d) + (steps - 1) * max(d), the same float operations
        if two_deep:
            core = d_sum + (steps - 1) * d_max + fix_ns
        else:
            stages = _step_stages(bm, bn, kl1, item, out_itemsize, a_gm_reuse, cube_dtype, k_frac)[:3]
            core = estimate_tiles_ns(chip, stages, steps, buffer_num) + fix_ns
        est = max(core, bus)
        if est < best_est:
            best_est = est
        cands.append((est, c))
    best = None
    if cands:
        # the fastest estimate (best_est); within 3% of it, the fewest waves of tiles over the
        # cores (a partial second wave idles most cores), then the most cores (latency hides
        # behind other cores' transfers), then the fewest K chunks (fewer, larger transfers),
        # then the larger tile; equal ranks go to the candidate enumerated first (idx)
        cut = best_est * 1.03
        rank = min((-(-c[4] // cores), -min(c[4], cores), c[4] * c[5], -c[6] * c[7], c[1])
                   for est, c in cands if est <= cut)
        best = next(c for est, c in cands if c[1] == rank[4])[6:11]
    if best is None:
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                         f"{name}: no cube tile fits {chip.name}'s buffers (L0A {chip.l0a_bytes} B, L0B "
                         f"{chip.l0b_bytes} B, L0C {chip.l0c_bytes} B, L1 {chip.l1_bytes} B) at {item} B per element")
    base_m, base_n, base_k, k_l1, l0c_buf = best
    mt, nt, kc = ceil_div(m_al, base_m), ceil_div(n_al, base_n), ceil_div(k_al, k_l1)
    out_tiles = batch * mt * nt
    block_dim = min(cores, out_tiles)
    per_block = ceil_div(out_tiles, block_dim)
    g = 1
    if per_block * kc > max_steps_per_block:
        g = min(kc, ceil_div(per_block * kc, max(1, max_steps_per_block)))
    l1_used = buffer_num * (base_m + base_n) * k_l1 * item
    l0c_used = l0c_buf * base_m * base_n * 4
    return MatmulTilingData(batch, m, n, k, base_m, base_n, base_k, k_l1, block_dim, out_tiles, l1_used, l0c_used,
                            kc, g, l0c_buf)
