"""Shared tiling recipes (compatibility module).

The vector (UB-streaming) recipe lives in :mod:`opsnn.base.vector_tiling` (tiling and
tile program split), the tiling result type and strategy registry in
:mod:`opsnn.base.tiling_base`; both are re-exported here. The cube (L1/L0 GEMM)
recipe below follows ops-nn's order: platform facts from the chip (core count, buffer
sizes), then the problem size, then the tiling struct (total, per-block factor,
per-tile factor), ``block_dim`` and the tiling key, and it emits a
:class:`~npu_sim.program.KernelSpec` whose tile program states bytes and MACs per
stage; ``npu_sim`` turns those into time.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from npu_sim import ChipConfig
from npu_sim.program import BlockProgram, Buffer, CoreType, GmRange, KernelSpec, Pipe, Stage, TileSpec

from .status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from .tiling_base import align_up, ceil_div
from .vector_tiling import (MAX_VECTOR_STEPS_PER_BLOCK, MIN_BLOCK_BYTES, VectorTilingData,  # noqa: F401
                            vector_blocks, vector_kernel, vector_spec, vector_tiling)


# ---------------------------------------------------------------------------- cube
@dataclass(frozen=True)
class MatmulTilingData:
    """Tiling struct of a cube GEMM (cf. TCubeTiling): C[b, M, N] = A[b, M, K] @ B[b, K, N].

    base_m/base_n/base_k: one L0 tile (L0A holds base_m x base_k, L0B base_k x base_n,
    L0C base_m x base_n in fp32, ``l0c_buffers`` of them). k_l1: K elements per L1
    load (one "K chunk"). block_dim: AICs; out_tiles: batch * ceil(M/base_m) *
    ceil(N/base_n), dealt to blocks round-robin (tile t on block t % block_dim).
    k_chunks: K chunks per output tile; chunks_per_step: K chunks merged into one
    timed "L1 step" (1 = none; see :func:`cube_kernel`).
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


#: most timed steps one cube block is given before K chunks are merged into "L1
#: steps" (keeps SimPy events in the thousands for 8192^3 matmuls; the timing error of
#: merging is one step's fill, under 1/max_steps of the block) [A]
MAX_CUBE_STEPS_PER_BLOCK = 256


def _cube_candidates(chip: ChipConfig, m_al: int, n_al: int, k_al: int, item: int, k_frac: int,
                     buffer_num: int):
    """(base_m, base_n, base_k, k_l1, l0c_buffers) that fit the chip's L0A/L0B/L0C/L1.

    Edges start from {256, 128, 64, 32, 16} and are then balanced: ``ceil(dim /
    edge)`` tiles of equal aligned size (so M = 129 gives 2 tiles of 80, not 128 + 1),
    and K is split into equal chunks no longer than L1 allows.
    """
    frac = 16
    seen = set()
    for bm0 in (256, 128, 64, 32, 16):
        bm = align_up(ceil_div(m_al, ceil_div(m_al, bm0)), frac)
        for bn0 in (256, 128, 64, 32, 16):
            bn = align_up(ceil_div(n_al, ceil_div(n_al, bn0)), frac)
            if (bm, bn) in seen:
                continue
            seen.add((bm, bn))
            acc = bm * bn * 4  # L0C accumulates in fp32
            l0c_buf = buffer_num if acc * buffer_num <= chip.l0c_bytes else 1
            if acc * l0c_buf > chip.l0c_bytes:
                continue
            base_k = min(k_al, chip.l0a_bytes // (buffer_num * bm * item),
                         chip.l0b_bytes // (buffer_num * bn * item)) // k_frac * k_frac
            if base_k < k_frac:
                continue
            k_max = chip.l1_bytes // (buffer_num * (bm + bn) * item) // base_k * base_k
            if k_max < base_k:
                continue
            kc_min = ceil_div(k_al, k_max)
            # more, shorter K chunks than L1 forces let the copies overlap the Cube
            for kc in sorted({kc_min, kc_min + 1, kc_min + 2, 2 * kc_min, 4 * kc_min}):
                k_l1 = align_up(ceil_div(k_al, kc), k_frac)  # equal K chunks
                if kc > kc_min and (k_l1 < k_frac or ceil_div(k_al, k_l1) != kc):
                    continue
                yield bm, bn, base_k, k_l1, l0c_buf


def cube_kernel(chip: ChipConfig, name: str, batch: int, m: int, n: int, k: int, in_itemsize: int,
                out_itemsize: int, cube_dtype: str, *, a_gm_reuse: float = 1.0, tiling_key: int = 0,
                args: dict | None = None, buffer_num: int = 2,
                max_steps_per_block: int = MAX_CUBE_STEPS_PER_BLOCK) -> tuple[KernelSpec, MatmulTilingData]:
    """Tile a (batched) GEMM over AICs, L1 and L0A/L0B/L0C.

    Base tile: among the (base_m, base_n) in {16..256} (balanced to equal tiles) that
    fit L0A/L0B/L0C (L0C double-buffered when it fits, else single) and L1, the one
    and K split (the fewest equal chunks L1 allows, or a few more so copies overlap
    the Cube) with the least estimated time, from the documented stage formulas: one
    block is a pipeline of ``ceil(out_tiles / aic_count) * k_chunks`` steps (the
    first passes MTE2, MTE1 and Cube, each later one adds the slowest of them) plus
    the last FixPipe write; or the L2 time of all the traffic, or the HBM time of
    the operands (all the traffic if they do not fit in half the L2), if longer.
    Among those within 3% of the fastest, the one on the most cores, then with the
    fewest K chunks in all, then the larger tile.

    Per K chunk of one output tile: MTE2 loads the A and B chunks GM->L1 (A's GM
    bytes divided by ``a_gm_reuse``: a convolution's Load3D re-reads one feature map
    for many im2col rows), MTE1 moves them L1->L0A/L0B, CUBE does
    base_m*base_n*k_chunk MACs (M, N padded to 16 and K to the cube's K fractal: 32
    for int8, else 16), and on the last K chunk FIXPIPE writes the output tile to GM.
    The A and B chunks carry L2 keys (``("A", b, m_tile, k)``, ``("B", b, n_tile,
    k)``) and row runs for burst rounding, so operand panels re-read by other output
    tiles hit L2 (``docs/timing.md``). When a block would get more than
    ``max_steps_per_block`` K chunks, consecutive chunks of one output tile are merged
    into one timed "L1 step" (``Stage.tiles`` = chunks merged, bytes and MACs summed);
    buffers are still sized for one chunk. Output tiles are dealt round-robin, so the
    blocks running at once share A row panels and B column panels.

    Raises AclnnError(561002) if no tile fits the chip's buffers.
    """
    frac = 16
    k_frac = 32 if cube_dtype == "int8" else frac
    item = in_itemsize
    m_al, n_al, k_al = align_up(max(m, 1), frac), align_up(max(n, 1), frac), align_up(max(k, 1), k_frac)
    rate = chip.cube_macs_per_cycle(cube_dtype)
    cores = chip.aic_count
    cands = []
    cyc = chip.ns_per_cycle
    lat, scalar = chip.dma_latency_ns, chip.scalar_ns_per_tile
    unique = (m * k / a_gm_reuse + k * n) * item * batch
    for bm, bn, bk, kl1, l0c_buf in _cube_candidates(chip, m_al, n_al, k_al, item, k_frac, buffer_num):
        tiles = batch * ceil_div(m_al, bm) * ceil_div(n_al, bn)
        rounds = ceil_div(tiles, cores)
        kc = ceil_div(k_al, kl1)
        ab = (bm * kl1 / a_gm_reuse + kl1 * bn) * item           # one K chunk's GM bytes
        t_mte2 = 2 * lat + ab / chip.mte2_bytes_per_cycle * cyc + scalar
        t_mte1 = (bm + bn) * kl1 * item / chip.mte1_bytes_per_cycle * cyc + scalar
        t_cube = bm * bn * kl1 / rate * cyc + scalar
        t_fix = lat + bm * bn * out_itemsize / chip.fixpipe_bytes_per_cycle * cyc + scalar
        # one block as a pipeline of rounds * kc steps: the first step passes every
        # stage, each later one adds the slowest stage; then the last FixPipe write
        steps = rounds * kc
        core = t_mte2 + t_mte1 + t_cube + (steps - 1) * max(t_mte2, t_mte1, t_cube) + t_fix
        traffic = tiles * kc * ab
        # re-reads come from L2 when the operands fit in it, else from HBM
        hbm = unique if unique <= chip.l2_bytes // 2 else traffic
        est = max(core, traffic / chip.l2_bandwidth_bytes_per_ns, hbm / chip.hbm_bandwidth_bytes_per_ns)
        cands.append((est, (rounds, -min(tiles, cores), tiles * kc, -bm * bn), (bm, bn, bk, kl1, l0c_buf)))
    best = None
    if cands:
        # the fastest estimate; within 3% of it, the fewest waves of tiles over the cores
        # (a partial second wave idles most cores), then the most cores (latency hides
        # behind other cores' transfers), then the fewest K chunks (fewer, larger transfers)
        fastest = min(c[0] for c in cands)
        best = min((c for c in cands if c[0] <= fastest * 1.03), key=lambda c: c[1])
    if best is None:
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                         f"{name}: no cube tile fits {chip.name}'s buffers (L0A {chip.l0a_bytes} B, L0B "
                         f"{chip.l0b_bytes} B, L0C {chip.l0c_bytes} B, L1 {chip.l1_bytes} B) at {item} B per element")
    base_m, base_n, base_k, k_l1, l0c_buf = best[2]
    mt, nt, kc = ceil_div(m_al, base_m), ceil_div(n_al, base_n), ceil_div(k_al, k_l1)
    out_tiles = batch * mt * nt
    block_dim = min(cores, out_tiles)
    m_tail = m - (mt - 1) * base_m
    n_tail = n - (nt - 1) * base_n
    k_tail = k - (kc - 1) * k_l1
    per_block = ceil_div(out_tiles, block_dim)
    g = 1
    if per_block * kc > max_steps_per_block:
        g = min(kc, ceil_div(per_block * kc, max(1, max_steps_per_block)))
    steps = ceil_div(kc, g)
    last_chunks = kc - (steps - 1) * g          # chunks in the last step (the tail chunk among them)
    last_k = (last_chunks - 1) * k_l1 + k_tail  # K elements of the last step

    shared: dict[tuple, Stage] = {}

    def on_chip(mb: int, nb: int, kb: int, chunks: int, kmacs: int, last: bool) -> tuple[Stage, Stage, Stage]:
        key = (mb, nb, kb, chunks, last)
        if key not in shared:
            ab = (mb * kb + kb * nb) * item
            macs = align_up(mb, frac) * align_up(nb, frac) * kmacs
            fix = mb * nb * out_itemsize if last else 0
            shared[key] = (Stage(Pipe.MTE1, nbytes=ab, tiles=chunks),
                           Stage(Pipe.CUBE, macs=macs, dtype=cube_dtype, tiles=chunks),
                           Stage(Pipe.FIXPIPE, nbytes=fix, tiles=1,
                                 gm_ranges=(GmRange(fix, nb * out_itemsize),) if fix else ()))
        return shared[key]

    def mte2(b: int, mi: int, ni: int, mb: int, nb: int, kb: int, chunks: int, last: bool) -> Stage:
        a_bytes = int(mb * kb * item / a_gm_reuse)
        b_bytes = kb * nb * item
        tag = "last" if last else "k"
        return Stage(Pipe.MTE2, nbytes=a_bytes + b_bytes, tiles=chunks,
                     gm_ranges=(GmRange(a_bytes, min(k_l1, kb) * item, ("A", b, mi, tag)),
                                GmRange(b_bytes, nb * item, ("B", b, ni, tag))))

    def out_tile(t: int) -> tuple[TileSpec, ...]:
        b, r = divmod(t, mt * nt)
        mi, ni = divmod(r, nt)
        mb = m_tail if mi == mt - 1 else base_m
        nb = n_tail if ni == nt - 1 else base_n
        ts = []
        if steps > 1:
            kb = g * k_l1
            kmacs = g * align_up(k_l1, k_frac)
            ts.append(TileSpec((mte2(b, mi, ni, mb, nb, kb, g, False),) + on_chip(mb, nb, kb, g, kmacs, False),
                               steps - 1))
        kmacs = (last_chunks - 1) * align_up(k_l1, k_frac) + align_up(k_tail, k_frac)
        ts.append(TileSpec((mte2(b, mi, ni, mb, nb, last_k, last_chunks, True),)
                           + on_chip(mb, nb, last_k, last_chunks, kmacs, True), 1))
        return tuple(ts)

    blocks = []
    for blk in range(block_dim):
        tiles: list[TileSpec] = []
        for t in range(blk, out_tiles, block_dim):
            tiles.extend(out_tile(t))
        blocks.append(BlockProgram(tuple(tiles)))
    l1_used = buffer_num * (base_m + base_n) * k_l1 * item
    l0c_used = l0c_buf * base_m * base_n * 4
    td = MatmulTilingData(batch, m, n, k, base_m, base_n, base_k, k_l1, block_dim, out_tiles, l1_used, l0c_used,
                          kc, g, l0c_buf)
    bufs = {Buffer.L1: l1_used, Buffer.L0A: buffer_num * base_m * base_k * item,
            Buffer.L0B: buffer_num * base_k * base_n * item, Buffer.L0C: l0c_used}
    spec = KernelSpec(name, CoreType.AIC, tuple(blocks), buffer_num, bufs, tiling_key,
                      dict(args or {}, tiling=asdict(td), flops=2 * batch * m * n * k))
    return spec, td
