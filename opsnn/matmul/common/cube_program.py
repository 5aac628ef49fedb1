"""Cube (L1/L0 GEMM) tile program, kernel half: the :class:`KernelSpec` of a GEMM tiled
as a :class:`~opsnn.matmul.common.cube_tiling.MatmulTilingData`.

The program states bytes and MACs per stage; ``npu_sim`` turns them into time
(``docs/timing.md``). One-off loads (a convolution's bias into the BiasTable) are
parameters of the builder, never a rewrite of a finished program.
"""
from __future__ import annotations

import numpy as np

from npu_sim import ChipConfig
from npu_sim.program import BlockProgram, Buffer, CoreType, CubeDtype, GmRange, KernelSpec, Pipe, Stage, TileSpec

from ...base.tiling_base import align_up, ceil_div, tiling_dict
from .cube_tiling import FRAC, MAX_CUBE_STEPS_PER_BLOCK, MatmulTilingData, cube_tiling, k_fractal


def cube_program(td: MatmulTilingData, name: str, in_itemsize: int, out_itemsize: int, cube_dtype: str, *,
                 a_gm_reuse: float = 1.0, buffer_num: int = 2, tiling_key: int = 0, args: dict | None = None,
                 bias_itemsize: int = 0, epilogue: tuple[str, ...] = (), residual_itemsize: int = 0) -> KernelSpec:
    """The AIC :class:`KernelSpec` ``name`` of a GEMM tiled as ``td`` (``in_itemsize``,
    ``out_itemsize``, ``cube_dtype``, ``a_gm_reuse`` and ``buffer_num`` as given to
    :func:`~opsnn.matmul.common.cube_tiling.cube_tiling`).

    Per K chunk of one output tile: MTE2 loads the A and B chunks GM->L1 (A's GM
    bytes divided by ``a_gm_reuse``), MTE1 moves them L1->L0A/L0B, CUBE does
    base_m*base_n*k_chunk MACs (M, N padded to 16 and K to the cube's K fractal: 32
    for int8, else 16), and on the last K chunk FIXPIPE writes the output tile to GM.
    The A and B chunks carry L2 keys (``("A", b, m_tile, k)``, ``("B", b, n_tile,
    k)``) and row runs for burst rounding, so operand panels re-read by other output
    tiles hit L2 (``docs/timing.md``). ``td.chunks_per_step`` consecutive chunks of
    one output tile are one timed "L1 step" (``Stage.tiles`` = chunks merged, bytes
    and MACs summed); buffers are still sized for one chunk. Output tiles are dealt
    round-robin, so the blocks running at once share A row panels and B column panels.

    ``bias_itemsize``: bytes per bias value in the BiasTable (0 = no bias): a one-off
    load of ``base_n`` values per output tile, added to the MTE2 bytes of the tile's
    last step (the one with the FixPipe write), and the BiasTable (``Buffer.BT``)
    reserved for them. ``args``: trace args; the tiling struct and the FLOPs
    (2 * batch * M * N * K) are added.

    ``residual_itemsize``: bytes per element of a tensor of the output's shape added
    before the activation (0 = none, graph mode's residual FusedConvolution): each
    output tile reads its own mb * nb elements from GM once, as one more GmRange (runs
    of nb elements, no L2 key) on the MTE2 stage of the tile's last step, so the
    existing MTE2 formula times it and double buffering overlaps it with the other
    tiles' work.

    ``epilogue``: activations FixPipe applies as L0C drains to GM (names of
    :data:`EPILOGUES`, npu-sim graph mode), recorded in the trace args as
    ``epilogue``. They ride on the FIXPIPE stage at no extra bytes, so FixPipe's time
    stays the existing stage formula of ``npu_sim/hardware/cost.py`` (bytes /
    ``fixpipe_bytes_per_cycle`` + per-transfer latency). Source: [AC] the Ascend C
    ``Fixpipe`` API documents in-line ("along the path") ReLU and quantization while
    moving L0C to GM/UB (``SetFixPipeConfig`` takes the reluPre/quantPre parameters);
    [A] LeakyReLU and clip ride the same pre-ReLU stage, and none of them costs
    FixPipe throughput.
    """
    frac = FRAC
    k_frac = k_fractal(cube_dtype)
    item = in_itemsize
    batch, m, n, k = td.batch, td.m, td.n, td.k
    base_m, base_n, k_l1 = td.base_m, td.base_n, td.k_l1
    mt, nt, kc, g = td.m_tiles, td.n_tiles, td.k_chunks, td.chunks_per_step
    m_tail = m - (mt - 1) * base_m
    n_tail = n - (nt - 1) * base_n
    k_tail = k - (kc - 1) * k_l1
    steps = ceil_div(kc, g)
    last_chunks = kc - (steps - 1) * g          # chunks in the last step (the tail chunk among them)
    last_k = (last_chunks - 1) * k_l1 + k_tail  # K elements of the last step
    bias_bytes = base_n * bias_itemsize

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

    # the A (B) panel range of an MTE2 step depends only on (b, mi) ((b, ni)) and whether it
    # is the last step (which fixes mb / nb and kb), so each is made once and shared by the
    # steps of every output tile in its row (column) of tiles
    a_ranges: dict[tuple, tuple[int, GmRange]] = {}
    b_ranges: dict[tuple, tuple[int, GmRange]] = {}

    def mte2(b: int, mi: int, ni: int, mb: int, nb: int, kb: int, chunks: int, last: bool) -> Stage:
        tag = "last" if last else "k"
        a = a_ranges.get((b, mi, tag))
        if a is None:
            a_bytes = int(mb * kb * item / a_gm_reuse)
            a = a_ranges[(b, mi, tag)] = (a_bytes, GmRange(a_bytes, min(k_l1, kb) * item, ("A", b, mi, tag)))
        bb = b_ranges.get((b, ni, tag))
        if bb is None:
            b_bytes = kb * nb * item
            bb = b_ranges[(b, ni, tag)] = (b_bytes, GmRange(b_bytes, nb * item, ("B", b, ni, tag)))
        # the bias rides on the last step's MTE2 (its GM ranges stay the operands')
        extra = bias_bytes if last else 0
        res = mb * nb * residual_itemsize if last else 0
        ranges = (a[1], bb[1])
        if res:
            ranges += (GmRange(res, nb * residual_itemsize),)
        return Stage(Pipe.MTE2, nbytes=a[0] + bb[0] + extra + res, tiles=chunks, gm_ranges=ranges)

    def out_tile(t: int) -> tuple[TileSpec, ...]:
        b, r = divmod(t, mt * nt)
        mi, ni = divmod(r, nt)
        mb = m_tail if mi == mt - 1 else base_m
        nb = n_tail if ni == nt - 1 else base_n
        last = TileSpec((mte2(b, mi, ni, mb, nb, last_k, last_chunks, True),)
                        + on_chip(mb, nb, last_k, last_chunks, last_kmacs, True), 1)
        if steps == 1:
            return (last,)
        full = TileSpec((mte2(b, mi, ni, mb, nb, step_k, g, False),)
                        + on_chip(mb, nb, step_k, g, step_kmacs, False), steps - 1)
        return full, last

    step_k, step_kmacs = g * k_l1, g * align_up(k_l1, k_frac)     # a full step: g K chunks
    last_kmacs = (last_chunks - 1) * align_up(k_l1, k_frac) + align_up(k_tail, k_frac)

    bd = td.block_dim
    blocks = []
    if FAST_TILES and td.out_tiles == batch * mt * nt:
        kinds = ([(False, step_k, g, step_kmacs, steps - 1)] if steps > 1 else []) + [(True, last_k, last_chunks,
                                                                                        last_kmacs, 1)]
        rows = _rows_one_step if len(kinds) == 1 else _rows_of_tiles
        flat = rows(batch, mt, nt, [m_tail if mi == mt - 1 else base_m for mi in range(mt)],
                    [n_tail if ni == nt - 1 else base_n for ni in range(nt)], on_chip, kinds,
                    item, k_l1, a_gm_reuse, bias_bytes, residual_itemsize)
        # output tiles dealt round-robin: block blk runs tiles blk, blk + bd, ..., each tile
        # len(kinds) consecutive TileSpecs of ``flat``, so a block's list is strided slices
        if len(kinds) == 1:
            for blk in range(bd):
                blocks.append(BlockProgram(tuple(flat[blk::bd])))
        else:
            for blk in range(bd):
                full, last = flat[2 * blk::2 * bd], flat[2 * blk + 1::2 * bd]
                merged = full + last
                merged[::2], merged[1::2] = full, last
                blocks.append(BlockProgram(tuple(merged)))
    else:   # the reference: one out_tile call per output tile
        per_tile = [out_tile(t) for t in range(td.out_tiles)]
        for blk in range(bd):   # output tiles dealt round-robin: blk, blk + block_dim, ...
            blocks.append(BlockProgram(tuple([ts for group in per_tile[blk::bd] for ts in group])))
    bufs = {Buffer.L1: td.l1_bytes_used, Buffer.L0A: buffer_num * base_m * td.base_k * item,
            Buffer.L0B: buffer_num * td.base_k * base_n * item, Buffer.L0C: td.l0c_bytes_used}
    if bias_bytes:
        bufs[Buffer.BT] = bias_bytes
    extra = {"epilogue": list(epilogue)} if epilogue else {}
    if residual_itemsize:
        extra["residual"] = True
    return KernelSpec(name, CoreType.AIC, tuple(blocks), buffer_num, bufs, tiling_key,
                      dict(args or {}, tiling=tiling_dict(td), flops=2 * batch * m * n * k, **extra))



#: False: :func:`cube_program` builds every output tile through its per-tile closures (the
#: reference path, kept for tests/perf/test_prep_cube_program.py); True: row by row in
#: :func:`_rows_of_tiles`, the same TileSpecs (equal, and sharing the same GmRange / Stage
#: objects between tiles) in the same order
FAST_TILES = True


def _rows_of_tiles(batch: int, mt: int, nt: int, mbs: list, nbs: list, on_chip, kinds: list, item: int,
                   k_l1: int, a_gm_reuse: float, bias_bytes: int, residual_itemsize: int) -> list:
    """The TileSpecs of :func:`cube_program`'s output tiles in tile order ``t = (b * mt + mi)
    * nt + ni``, flat: ``len(kinds)`` consecutive TileSpecs per tile, one per step kind of
    ``kinds`` ((last, K elements, chunks, K MACs per row pair, count) with the full steps
    first, as ``out_tile`` returns them). ``mbs`` / ``nbs``: the rows / columns of each tile
    row / column (bytes: ``item`` per element). The A panel range of (b, mi) and the B panel
    range of (b, ni) are made once per step kind and shared, as ``out_tile``'s ``a_ranges`` /
    ``b_ranges`` share them. Any number of kinds; :func:`cube_program` sends one-kind
    (one-step) tilings to :func:`_rows_one_step` instead."""
    mte2, fp16 = Pipe.MTE2, CubeDtype.FLOAT16
    flat = []
    append = flat.append
    kinds = [(last, kb, chunks, kmacs, count, "last" if last else "k") for last, kb, chunks, kmacs, count in kinds]
    on_chips: dict = {}   # mb -> per step kind, per column: the MTE1, CUBE, FIXPIPE stages
    for b in range(batch):
        cols = [[(kb * nb * item, GmRange(kb * nb * item, nb * item, ("B", b, ni, tag))) for ni, nb in enumerate(nbs)]
                for _, kb, _, _, _, tag in kinds]
        for mi, mb in enumerate(mbs):
            oc = on_chips.get(mb)
            if oc is None:
                oc = on_chips[mb] = [[on_chip(mb, nb, kb, chunks, kmacs, last) for nb in nbs]
                                     for last, kb, chunks, kmacs, _, _ in kinds]
            parts = []
            for (last, kb, chunks, _, count, tag), col, ocs in zip(kinds, cols, oc):
                a_bytes = int(mb * kb * item / a_gm_reuse)
                a = GmRange(a_bytes, min(k_l1, kb) * item, ("A", b, mi, tag))
                parts.append((last, chunks, count, a_bytes + (bias_bytes if last else 0), a, col, ocs))
            for ni, nb in enumerate(nbs):
                for last, chunks, count, a_bytes, a, col, ocs in parts:
                    b_bytes, br = col[ni]
                    res = mb * nb * residual_itemsize if last else 0
                    ranges = (a, br, GmRange(res, nb * residual_itemsize)) if res else (a, br)
                    append(TileSpec((Stage(mte2, a_bytes + b_bytes + res, 0, 0, fp16, 0, chunks, ranges),)
                                    + ocs[ni], count))
    return flat


def _rows_one_step(batch: int, mt: int, nt: int, mbs: list, nbs: list, on_chip, kinds: list, item: int,
                   k_l1: int, a_gm_reuse: float, bias_bytes: int, residual_itemsize: int) -> list:
    """:func:`_rows_of_tiles` for one step per output tile (``kinds`` of one entry, the last
    step; the common case): the same TileSpecs in the same order, sharing the same objects,
    with the per-row work (A's bytes, its run, the bias and residual terms) hoisted out of
    the loops over the tile rows and columns."""
    mte2, fp16 = Pipe.MTE2, CubeDtype.FLOAT16
    (last, kb, chunks, kmacs, _), = kinds
    tag = "last" if last else "k"
    flat = []
    append = flat.append
    run_a = min(k_l1, kb) * item
    extra = bias_bytes if last else 0
    # per tile row: (its A bytes, the MTE2 bytes before B's, the MTE1/CUBE/FIXPIPE stages per column,
    # the residual bytes per output column); tile rows of equal height share them
    rows = []
    by_mb: dict = {}
    for mb in mbs:
        hit = by_mb.get(mb)
        if hit is None:
            a_bytes = int(mb * kb * item / a_gm_reuse)
            hit = by_mb[mb] = (a_bytes, a_bytes + extra, [on_chip(mb, nb, kb, chunks, kmacs, last) for nb in nbs],
                               mb * residual_itemsize if last else 0)
        rows.append(hit)
    col_bytes = [kb * nb * item for nb in nbs]
    for b in range(batch):
        col = [(bb, GmRange(bb, nb * item, ("B", b, ni, tag))) for ni, (nb, bb) in enumerate(zip(nbs, col_bytes))]
        for mi, (a_bytes, a_extra, ocs, res_of) in enumerate(rows):
            a = GmRange(a_bytes, run_a, ("A", b, mi, tag))
            if res_of:
                for (b_bytes, br), nb, oc3 in zip(col, nbs, ocs):
                    res = res_of * nb
                    append(TileSpec((Stage(mte2, a_extra + b_bytes + res, 0, 0, fp16, 0, chunks,
                                           (a, br, GmRange(res, nb * residual_itemsize))),) + oc3, 1))
            else:
                for (b_bytes, br), oc3 in zip(col, ocs):
                    append(TileSpec((Stage(mte2, a_extra + b_bytes, 0, 0, fp16, 0, chunks, (a, br)),) + oc3, 1))
    return flat


#: FixPipe epilogue activations (npu-sim graph mode): name -> f(acc_fp32, alpha, beta);
#: LeakyRelu's slope is ``alpha``, Clip's bounds are ``alpha``, ``beta`` (ReLU6: 0, 6)
EPILOGUES = {
    "none": lambda r, a, b: r,
    "relu": lambda r, a, b: np.maximum(r, np.float32(0)),
    "leaky_relu": lambda r, a, b: np.where(r >= 0, r, r * np.float32(a)),
    "clip": lambda r, a, b: np.minimum(np.maximum(r, np.float32(a)), np.float32(b)),
}


def apply_epilogue(r: np.ndarray, activation: str, alpha: float = 0.0, beta: float = 0.0) -> np.ndarray:
    """FixPipe's epilogue on a float32 accumulator tile ``r`` (numerics of
    :data:`EPILOGUES`); KeyError for an unknown ``activation``."""
    return EPILOGUES[activation](r, alpha, beta)


def cube_kernel(chip: ChipConfig, name: str, batch: int, m: int, n: int, k: int, in_itemsize: int,
                out_itemsize: int, cube_dtype: str, *, a_gm_reuse: float = 1.0, tiling_key: int = 0,
                args: dict | None = None, buffer_num: int = 2,
                max_steps_per_block: int = MAX_CUBE_STEPS_PER_BLOCK) -> tuple[KernelSpec, MatmulTilingData]:
    """:func:`~opsnn.matmul.common.cube_tiling.cube_tiling` then :func:`cube_program` in
    one call: ``(spec, tiling data)``. For code that needs both at once (tests, the
    roofline benchmark); an op's ``tiling.py`` calls the first, its ``kernel.py`` the
    second. Raises AclnnError(561002) if no tile fits the chip's buffers."""
    td = cube_tiling(chip, batch, m, n, k, in_itemsize, out_itemsize, cube_dtype, a_gm_reuse=a_gm_reuse,
                     buffer_num=buffer_num, max_steps_per_block=max_steps_per_block, name=name)
    spec = cube_program(td, name, in_itemsize, out_itemsize, cube_dtype, a_gm_reuse=a_gm_reuse,
                        buffer_num=buffer_num, tiling_key=tiling_key, args=args)
    return spec, td
