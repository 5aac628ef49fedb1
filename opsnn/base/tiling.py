"""Shared tiling recipes: the vector (UB-streaming) and cube (L1/L0 GEMM) kernels.

Both follow ops-nn's order: platform facts from the chip (core count, buffer
sizes), then the problem size, then the tiling struct (total, per-block factor,
per-tile factor), ``block_dim`` and the tiling key, and they emit a
:class:`~npu_sim.program.KernelSpec` whose tile program states bytes, MACs and
vector bytes per stage; ``npu_sim`` turns those into time.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from npu_sim import ChipConfig
from npu_sim.program import BlockProgram, Buffer, CoreType, KernelSpec, Pipe, Stage, TileSpec

from .status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def align_up(a: int, b: int) -> int:
    return ceil_div(a, b) * b


# ---------------------------------------------------------------------------- vector
@dataclass(frozen=True)
class VectorTilingData:
    """Tiling struct of a UB-streaming vector kernel (cf. AddExampleTilingData).

    total_units: work units (elements, rows, ... as the op defines).
    block_dim: AIV blocks. per_block: units per block (the last block takes the rest).
    ub_factor: units per UB tile. buffer_num: queue depth (2 = double buffering).
    """

    total_units: int
    block_dim: int
    per_block: int
    ub_factor: int
    buffer_num: int
    ub_bytes_used: int


#: smallest input a vector block is given (bytes) [A]: below this, dispatching one more
#: block costs more than the transfer it would take over
MIN_BLOCK_BYTES = 4096


def vector_kernel(chip: ChipConfig, name: str, total_units: int, in_bytes_per_unit: float,
                  out_bytes_per_unit: float, vec_bytes_per_unit: float, *, tmp_bytes_per_unit: float = 0.0,
                  fixed_ub_bytes: int = 0, buffer_num: int = 2, min_units_per_block: int | None = None,
                  tiling_key: int = 0, args: dict | None = None) -> tuple[KernelSpec, VectorTilingData]:
    """Tile ``total_units`` units over AIVs and UB.

    Per unit the kernel copies in ``in_bytes_per_unit`` (MTE2), streams
    ``vec_bytes_per_unit`` operand bytes through the Vector unit, and copies out
    ``out_bytes_per_unit`` (MTE3). UB holds ``buffer_num`` slots of in+out tiles plus
    ``tmp_bytes_per_unit`` scratch per unit and ``fixed_ub_bytes`` (e.g. broadcast
    parameters). Raises AclnnError(561002) if one unit does not fit in UB.
    """
    total_units = max(int(total_units), 1)
    slot = buffer_num * (in_bytes_per_unit + out_bytes_per_unit) + tmp_bytes_per_unit
    avail = chip.ub_bytes - fixed_ub_bytes
    ub_factor = int(avail // slot) if slot > 0 else total_units
    if ub_factor < 1:
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                         f"{name}: one unit needs {slot:.0f} B of UB (+{fixed_ub_bytes} B fixed) but "
                         f"{chip.name} has {chip.ub_bytes} B")
    # keep tiles a multiple of 32 B of input where units are elements
    if in_bytes_per_unit and in_bytes_per_unit < 32 and ub_factor > 32:
        step = int(32 // in_bytes_per_unit) or 1
        ub_factor = max(step, ub_factor // step * step)
    cores = chip.vector_core_count
    if min_units_per_block is None:
        per_unit = max(in_bytes_per_unit + out_bytes_per_unit, 1e-9)
        min_units_per_block = max(1, int(MIN_BLOCK_BYTES // per_unit))
    block_dim = max(1, min(cores, ceil_div(total_units, max(min_units_per_block, 1))))
    per_block = ceil_div(total_units, block_dim)
    block_dim = ceil_div(total_units, per_block)
    ub_factor = min(ub_factor, per_block)

    def tile(units: int) -> tuple[Stage, ...]:
        return (Stage(Pipe.MTE2, nbytes=int(math.ceil(units * in_bytes_per_unit))),
                Stage(Pipe.VECTOR, vector_bytes=int(math.ceil(units * vec_bytes_per_unit))),
                Stage(Pipe.MTE3, nbytes=int(math.ceil(units * out_bytes_per_unit))))

    def program(units: int) -> BlockProgram:
        full, tail = divmod(units, ub_factor)
        tiles = [TileSpec(tile(ub_factor), full)] if full else []
        if tail:
            tiles.append(TileSpec(tile(tail), 1))
        return BlockProgram(tuple(tiles))

    main = program(per_block)
    last_units = total_units - per_block * (block_dim - 1)
    blocks = (main,) * (block_dim - 1) + ((main if last_units == per_block else program(last_units)),)
    ub_used = int(math.ceil(slot * ub_factor)) + fixed_ub_bytes
    td = VectorTilingData(total_units, block_dim, per_block, ub_factor, buffer_num, ub_used)
    spec = KernelSpec(name, CoreType.AIV, blocks, buffer_num, {Buffer.UB: ub_used}, tiling_key,
                      dict(args or {}, tiling=asdict(td)))
    return spec, td


# ---------------------------------------------------------------------------- cube
@dataclass(frozen=True)
class MatmulTilingData:
    """Tiling struct of a cube GEMM (cf. TCubeTiling): C[b, M, N] = A[b, M, K] @ B[b, K, N].

    base_m/base_n/base_k: one L0 tile (L0A holds base_m x base_k, L0B base_k x base_n,
    L0C base_m x base_n in fp32). k_l1: K elements per L1 load. block_dim: AICs;
    out_tiles: batch * ceil(M/base_m) * ceil(N/base_n), dealt to blocks in order.
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


def cube_kernel(chip: ChipConfig, name: str, batch: int, m: int, n: int, k: int, in_itemsize: int,
                out_itemsize: int, cube_dtype: str, *, a_gm_reuse: float = 1.0, tiling_key: int = 0,
                args: dict | None = None, buffer_num: int = 2) -> tuple[KernelSpec, MatmulTilingData]:
    """Tile a (batched) GEMM over AICs, L1 and L0A/L0B/L0C.

    Per tile (one output tile x one K chunk): MTE2 loads the A and B chunks GM->L1
    (A's GM bytes divided by ``a_gm_reuse``: a convolution's Load3D re-reads one
    feature map for many im2col rows), MTE1 moves them L1->L0A/L0B, CUBE does
    base_m*base_n*k_chunk MACs (dims padded to 16, the cube's fractal), and on the
    last K chunk FIXPIPE writes the output tile to GM. Raises AclnnError(561002)
    if no tile fits the chip's buffers.
    """
    frac = 16
    m_al, n_al, k_al = align_up(max(m, 1), frac), align_up(max(n, 1), frac), align_up(max(k, 1), frac)
    base_m, base_n = min(128, m_al), min(128, n_al)
    acc = 4  # L0C accumulates in fp32
    while base_m * base_n * acc * buffer_num > chip.l0c_bytes:
        if base_n >= base_m and base_n > frac:
            base_n = align_up(base_n // 2, frac)
        elif base_m > frac:
            base_m = align_up(base_m // 2, frac)
        else:
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"{name}: L0C of {chip.l0c_bytes} B is too small")
    base_k = min(k_al, chip.l0a_bytes // (buffer_num * base_m * in_itemsize),
                 chip.l0b_bytes // (buffer_num * base_n * in_itemsize))
    base_k = base_k // frac * frac
    if base_k < frac:
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"{name}: L0A/L0B too small for a {base_m}x{frac} tile")
    k_l1 = chip.l1_bytes // (buffer_num * (base_m + base_n) * in_itemsize)
    k_l1 = min(k_al, k_l1 // base_k * base_k)
    if k_l1 < base_k:
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"{name}: L1 of {chip.l1_bytes} B too small")
    mt, nt, kc = ceil_div(m_al, base_m), ceil_div(n_al, base_n), ceil_div(k_al, k_l1)
    out_tiles = batch * mt * nt
    block_dim = min(chip.aic_count, out_tiles)
    m_tail = m - (mt - 1) * base_m
    n_tail = n - (nt - 1) * base_n
    k_tail = k - (kc - 1) * k_l1

    def stages(mb: int, nb: int, kb: int, last: bool) -> tuple[Stage, ...]:
        a_bytes = mb * kb * in_itemsize
        b_bytes = kb * nb * in_itemsize
        macs = align_up(mb, frac) * align_up(nb, frac) * align_up(kb, frac)
        return (Stage(Pipe.MTE2, nbytes=int(a_bytes / a_gm_reuse) + b_bytes),
                Stage(Pipe.MTE1, nbytes=a_bytes + b_bytes),
                Stage(Pipe.CUBE, macs=macs, dtype=cube_dtype),
                Stage(Pipe.FIXPIPE, nbytes=mb * nb * out_itemsize if last else 0))

    cache: dict[tuple[int, int], tuple[TileSpec, ...]] = {}

    def out_tile(mb: int, nb: int) -> tuple[TileSpec, ...]:
        key = (mb, nb)
        if key not in cache:
            ts = []
            if kc > 1:
                ts.append(TileSpec(stages(mb, nb, k_l1, False), kc - 1))
            ts.append(TileSpec(stages(mb, nb, k_tail, True), 1))
            cache[key] = tuple(ts)
        return cache[key]

    per_block, extra = divmod(out_tiles, block_dim)
    blocks = []
    idx = 0
    prog_cache: dict[tuple, BlockProgram] = {}
    for b in range(block_dim):
        cnt = per_block + (1 if b < extra else 0)
        kinds = []
        for t in range(idx, idx + cnt):
            r = t % (mt * nt)
            mi, ni = divmod(r, nt)
            kinds.append((m_tail if mi == mt - 1 else base_m, n_tail if ni == nt - 1 else base_n))
        idx += cnt
        key = tuple(kinds)
        if key not in prog_cache:
            tiles: list[TileSpec] = []
            for kd in kinds:
                tiles.extend(out_tile(*kd))
            prog_cache[key] = BlockProgram(tuple(tiles))
        blocks.append(prog_cache[key])
    l1_used = buffer_num * (base_m + base_n) * k_l1 * in_itemsize
    l0c_used = buffer_num * base_m * base_n * acc
    td = MatmulTilingData(batch, m, n, k, base_m, base_n, base_k, k_l1, block_dim, out_tiles, l1_used, l0c_used)
    bufs = {Buffer.L1: l1_used, Buffer.L0A: buffer_num * base_m * base_k * in_itemsize,
            Buffer.L0B: buffer_num * base_k * base_n * in_itemsize, Buffer.L0C: l0c_used}
    spec = KernelSpec(name, CoreType.AIC, tuple(blocks), buffer_num, bufs, tiling_key,
                      dict(args or {}, tiling=asdict(td), flops=2 * batch * m * n * k))
    return spec, td
