"""The UB-streaming vector kernel, split as ops-nn splits it: tiling, then program.

* :func:`vector_tiling` (host half, ``tiling.py``): a pure function of the chip and
  the per-unit byte counts. Platform facts first (vector core count, UB bytes), then
  the problem size, then the struct: total units, per-block factor, per-UB factor,
  ``block_dim`` (ops-nn's blockFactor / ubFactor / blockDim order).
* :func:`vector_blocks` / :func:`vector_spec` (kernel half, ``kernel.py``): the tile
  program of every block from that struct: per UB tile, CopyIn on MTE2, Compute on
  VECTOR, CopyOut on MTE3, double-buffered. One-off loads (resident weights, a bias)
  are parameters of the builder (``first_tile_mte2_bytes`` ...), charged on each
  block's first tile.

:func:`vector_kernel` runs both, for ops not yet split.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from npu_sim import ChipConfig
from npu_sim.program import BlockProgram, Buffer, CoreType, KernelSpec, Pipe, Stage, TileSpec

from .status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from .tiling_base import ceil_div, tiling_dict

#: most timed steps one vector block is given before UB tiles are merged into steps
#: (``Stage.tiles``), to keep SimPy events in the thousands for GiB-sized tensors; the
#: timing error of merging is one step's fill, under 1/max_steps of the block [A]
MAX_VECTOR_STEPS_PER_BLOCK = 256

#: smallest input a vector block is given (bytes) [A]: below this, dispatching one more
#: block costs more than the transfer it would take over
MIN_BLOCK_BYTES = 4096


@dataclass(frozen=True)
class VectorTilingData:
    """Tiling struct of a UB-streaming vector kernel (cf. ops-nn AddExampleTilingData).

    total_units: work units (elements, rows, ... as the op defines).
    block_dim: AIV blocks. per_block: units per block (the last block takes the rest).
    ub_factor: units per UB tile. buffer_num: queue depth (2 = double buffering).
    ub_bytes_used: UB one block uses, all queue slots and fixed buffers included (bytes).
    tiles_per_step: UB tiles merged into one timed step on the busiest block (1 = none).
    """

    total_units: int
    block_dim: int
    per_block: int
    ub_factor: int
    buffer_num: int
    ub_bytes_used: int
    tiles_per_step: int = 1


def _step_group(units: int, ub_factor: int, max_steps: int) -> int:
    """UB tiles merged per timed step for a block of ``units`` units."""
    full = units // ub_factor
    return ceil_div(full, max(1, max_steps)) if full > max_steps else 1


def vector_tiling(chip: ChipConfig, name: str, total_units: int, in_bytes_per_unit: float,
                  out_bytes_per_unit: float, *, tmp_bytes_per_unit: float = 0.0, fixed_ub_bytes: int = 0,
                  buffer_num: int = 2, min_units_per_block: int | None = None,
                  max_steps_per_block: int = MAX_VECTOR_STEPS_PER_BLOCK) -> VectorTilingData:
    """Tile ``total_units`` units over the chip's AIVs and UB (no device needed).

    Per unit the kernel copies in ``in_bytes_per_unit`` (MTE2) and out
    ``out_bytes_per_unit`` (MTE3); UB holds ``buffer_num`` slots of in+out tiles plus
    ``tmp_bytes_per_unit`` scratch per unit and ``fixed_ub_bytes`` (bytes). Where units
    are elements under 32 B, the UB factor is rounded down to whole 32 B of input
    (UB blocks are 32 B, Ascend C docs); never up, which could overflow UB.

    Blocks: the per-block factor is ``max(min_units_per_block, ceil(total / cores))``
    (``min_units_per_block`` defaults to MIN_BLOCK_BYTES of traffic) and ``block_dim =
    ceil(total / factor)``, so the longest block never shrinks as the problem grows.
    Raises AclnnError(561002) if one unit does not fit in UB.
    """
    total_units = max(int(total_units), 1)
    slot = buffer_num * (in_bytes_per_unit + out_bytes_per_unit) + tmp_bytes_per_unit
    avail = chip.ub_bytes - fixed_ub_bytes
    ub_factor = int(avail // slot) if slot > 0 else total_units
    if ub_factor < 1:
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                         f"{name}: one unit needs {slot:.0f} B of UB (+{fixed_ub_bytes} B fixed) but "
                         f"{chip.name} has {chip.ub_bytes} B")
    if in_bytes_per_unit and in_bytes_per_unit < 32 and ub_factor > 32:
        step = int(32 // in_bytes_per_unit) or 1
        if ub_factor >= step:
            ub_factor = ub_factor // step * step
    cores = chip.vector_core_count
    if min_units_per_block is None:
        per_unit = max(in_bytes_per_unit + out_bytes_per_unit, 1e-9)
        min_units_per_block = max(1, int(MIN_BLOCK_BYTES // per_unit))
    per_block = max(min_units_per_block, 1, ceil_div(total_units, cores))
    block_dim = ceil_div(total_units, per_block)
    ub_factor = min(ub_factor, per_block)
    ub_used = int(math.ceil(slot * ub_factor)) + fixed_ub_bytes
    return VectorTilingData(total_units, block_dim, per_block, ub_factor, buffer_num, ub_used,
                            _step_group(per_block, ub_factor, max_steps_per_block))


def vector_blocks(td: VectorTilingData, in_bytes_per_unit: float, out_bytes_per_unit: float,
                  vec_bytes_per_unit: float, *, vec_instrs_per_tile: int = 0, first_tile_mte2_bytes: int = 0,
                  first_tile_vector_bytes: int = 0,
                  max_steps_per_block: int = MAX_VECTOR_STEPS_PER_BLOCK) -> tuple[BlockProgram, ...]:
    """The tile program of every block of a vector kernel tiled as ``td``.

    Per UB tile of ``u`` units: MTE2 ``ceil(u * in_bytes_per_unit)`` B, VECTOR
    ``ceil(u * vec_bytes_per_unit)`` operand bytes (``vec_instrs_per_tile`` vector
    instructions, 0 = the least possible), MTE3 ``ceil(u * out_bytes_per_unit)`` B.
    A block with more than ``max_steps_per_block`` full tiles has them merged into
    timed steps of equal tiles (``Stage.tiles``; bytes summed, fixed costs per tile).
    ``first_tile_*``: a one-off load (e.g. weight/bias resident in UB: its MTE2 bytes
    and the VECTOR bytes of its cast) added to the first tile of every block.
    Blocks with the same unit count share one program object.
    """
    def tile(units: int, g: int = 1) -> tuple[Stage, ...]:
        return (Stage(Pipe.MTE2, nbytes=g * int(math.ceil(units * in_bytes_per_unit)), tiles=g),
                Stage(Pipe.VECTOR, vector_bytes=g * int(math.ceil(units * vec_bytes_per_unit)), tiles=g,
                      issues=g * vec_instrs_per_tile),
                Stage(Pipe.MTE3, nbytes=g * int(math.ceil(units * out_bytes_per_unit)), tiles=g))

    def program(units: int) -> BlockProgram:
        full, tail = divmod(units, td.ub_factor)
        g = _step_group(units, td.ub_factor, max_steps_per_block)
        steps, rest = divmod(full, g)
        tiles = [TileSpec(tile(td.ub_factor, g), steps)] if steps else []
        if rest:
            tiles.append(TileSpec(tile(td.ub_factor, rest), 1))
        if tail:
            tiles.append(TileSpec(tile(tail), 1))
        if first_tile_mte2_bytes or first_tile_vector_bytes:
            tiles = _with_first_tile_load(tiles, first_tile_mte2_bytes, first_tile_vector_bytes)
        return BlockProgram(tuple(tiles))

    main = program(td.per_block)
    last_units = td.total_units - td.per_block * (td.block_dim - 1)
    last = main if last_units == td.per_block else program(last_units)
    return (main,) * (td.block_dim - 1) + (last,)


def _with_first_tile_load(tiles: list[TileSpec], mte2_bytes: int, vector_bytes: int) -> list[TileSpec]:
    """``tiles`` with the first tile's MTE2 bytes and VECTOR bytes increased (the
    first tile of a group of ``count`` becomes a group of its own)."""
    first, rest = tiles[0], tiles[1:]
    stages = tuple(Stage(s.pipe, s.nbytes + mte2_bytes, s.macs, s.vector_bytes, s.dtype, s.issues, s.tiles,
                         s.gm_ranges) if s.pipe is Pipe.MTE2 else
                   Stage(s.pipe, s.nbytes, s.macs, s.vector_bytes + vector_bytes, s.dtype, s.issues, s.tiles,
                         s.gm_ranges) if s.pipe is Pipe.VECTOR else s
                   for s in first.stages)
    out = [TileSpec(stages, 1)]
    if first.count > 1:
        out.append(TileSpec(first.stages, first.count - 1))
    return out + list(rest)


def vector_spec(name: str, td: VectorTilingData, in_bytes_per_unit: float, out_bytes_per_unit: float,
                vec_bytes_per_unit: float, *, tiling_key: int = 0, args: dict | None = None,
                vec_instrs_per_tile: int = 0, first_tile_mte2_bytes: int = 0, first_tile_vector_bytes: int = 0,
                max_steps_per_block: int = MAX_VECTOR_STEPS_PER_BLOCK) -> KernelSpec:
    """The AIV :class:`KernelSpec` of a vector kernel tiled as ``td`` (program from
    :func:`vector_blocks`; UB use ``td.ub_bytes_used``; trace args ``args`` plus the
    tiling struct under "tiling")."""
    blocks = vector_blocks(td, in_bytes_per_unit, out_bytes_per_unit, vec_bytes_per_unit,
                           vec_instrs_per_tile=vec_instrs_per_tile, first_tile_mte2_bytes=first_tile_mte2_bytes,
                           first_tile_vector_bytes=first_tile_vector_bytes, max_steps_per_block=max_steps_per_block)
    return KernelSpec(name, CoreType.AIV, blocks, td.buffer_num, {Buffer.UB: td.ub_bytes_used}, tiling_key,
                      dict(args or {}, tiling=tiling_dict(td)))


def vector_kernel(chip: ChipConfig, name: str, total_units: int, in_bytes_per_unit: float,
                  out_bytes_per_unit: float, vec_bytes_per_unit: float, *, tmp_bytes_per_unit: float = 0.0,
                  fixed_ub_bytes: int = 0, buffer_num: int = 2, min_units_per_block: int | None = None,
                  tiling_key: int = 0, args: dict | None = None, vec_instrs_per_tile: int = 0,
                  max_steps_per_block: int = MAX_VECTOR_STEPS_PER_BLOCK) -> tuple[KernelSpec, VectorTilingData]:
    """:func:`vector_tiling` then :func:`vector_spec` in one call: ``(spec, tiling data)``.
    For code that needs both at once (tests, benchmarks); an op's ``tiling.py`` calls
    :func:`vector_tiling` and its ``kernel.py`` :func:`vector_spec`."""
    td = vector_tiling(chip, name, total_units, in_bytes_per_unit, out_bytes_per_unit,
                       tmp_bytes_per_unit=tmp_bytes_per_unit, fixed_ub_bytes=fixed_ub_bytes, buffer_num=buffer_num,
                       min_units_per_block=min_units_per_block, max_steps_per_block=max_steps_per_block)
    spec = vector_spec(name, td, in_bytes_per_unit, out_bytes_per_unit, vec_bytes_per_unit, tiling_key=tiling_key,
                       args=args, vec_instrs_per_tile=vec_instrs_per_tile, max_steps_per_block=max_steps_per_block)
    return spec, td
