"""Stage-time formulas: the one place simulated durations come from.

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
MTE3        as MTE2 with mte3_bytes_per_cycle; writes go to HBM                          A
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
from typing import Any, NamedTuple

from ..chips import ChipConfig
from ..program import GM_PIPES, CubeDtype, Pipe, Stage


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
    if stage.pipe is Pipe.VECTOR:
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


def stage_cost(chip: ChipConfig, stage: Stage) -> StageCost:
    """The time terms of ``stage`` on ``chip`` (no contention; see the module table)."""
    p = stage.pipe
    cyc = chip.ns_per_cycle
    tiles = max(1, stage.tiles)
    scalar = tiles * chip.scalar_ns_per_tile
    if p in GM_PIPES:
        if stage.nbytes <= 0:
            return StageCost(0.0, 0.0, 0.0, 0, (), 0, True)
        covered = 0
        bus = 0
        keyed = []
        for r in stage.gm_ranges:
            b = gm_bus_bytes(chip, r.nbytes, r.run_bytes)
            covered += r.nbytes
            if r.key is None or b <= 0:
                bus += b
            else:
                keyed.append((r.key, b))
        if stage.nbytes > covered:
            bus += gm_bus_bytes(chip, stage.nbytes - covered)
        total = bus + sum(b for _, b in keyed)
        rate = {Pipe.MTE2: chip.mte2_bytes_per_cycle, Pipe.MTE3: chip.mte3_bytes_per_cycle,
                Pipe.FIXPIPE: chip.fixpipe_bytes_per_cycle}[p]
        fixed = stage_issues(chip, stage) * chip.dma_latency_ns + scalar
        return StageCost(total / rate * cyc, fixed, scalar, bus, tuple(keyed), stage.nbytes, True)
    if p is Pipe.CUBE:
        if stage.macs <= 0:
            return StageCost(0.0, 0.0, 0.0, 0, (), 0, False)
        return StageCost(math.ceil(stage.macs / cube_macs_per_cycle(chip, stage.dtype)) * cyc, scalar, scalar,
                         0, (), 0, False)
    if p is Pipe.VECTOR:
        reps = vector_repeats(chip, stage)
        if reps <= 0:
            return StageCost(0.0, 0.0, 0.0, 0, (), 0, False)
        eng = math.ceil(reps * chip.vector_repeat_bytes / chip.vector_bytes_per_cycle) * cyc
        return StageCost(eng, stage_issues(chip, stage) * chip.vector_issue_ns + scalar, scalar, 0, (), 0, False)
    if p is Pipe.MTE1:
        if stage.nbytes <= 0:
            return StageCost(0.0, 0.0, 0.0, 0, (), 0, False)
        return StageCost(stage.nbytes / chip.mte1_bytes_per_cycle * cyc, scalar, scalar, 0, (), stage.nbytes, False)
    # SCALAR as a stage of its own: its per-tile overhead only
    return StageCost(0.0, scalar, scalar, 0, (), 0, False)


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
    return max(c.engine_ns, bus / chip.hbm_bandwidth_bytes_per_ns) + c.fixed_ns


def kernel_overhead_ns(chip: ChipConfig) -> float:
    """Fixed time of a kernel before its blocks compute: launch + one block dispatch (ns)."""
    return chip.kernel_launch_ns + chip.block_dispatch_ns


def memcpy_ns(chip: ChipConfig, nbytes: int, kind: str) -> float:
    """Duration of a copy alone on an idle chip (ns). ``kind``: "H2D", "D2H", "D2D"."""
    if kind in ("H2D", "D2H"):
        return chip.host_link_latency_ns + nbytes / chip.host_link_bandwidth_bytes_per_ns
    if kind == "D2D":
        return chip.dma_latency_ns + 2 * nbytes / chip.hbm_bandwidth_bytes_per_ns
    raise ValueError(f"memcpy kind must be H2D, D2H or D2D, not {kind!r}")
