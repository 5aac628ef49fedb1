"""Stage-time formulas: the one place simulated durations come from.

All results are ns. ``chip`` is a :class:`~npu_sim.chips.ChipConfig`; ``cycle`` is
``1e9 / chip.clock_hz``.

==========  ================================================================  =========
pipe        duration of one stage                                             source
==========  ================================================================  =========
CUBE        ceil(macs / macs_per_cycle(dtype)) * cycle                         PC, A(fp32)
VECTOR      ceil(vector_bytes / vector_bytes_per_cycle) * cycle                AC (256 B repeat)
MTE1        nbytes / mte1_bytes_per_cycle * cycle                              A
MTE2        dma_latency + max(nbytes / (mte2_bytes_per_cycle/cycle),           A
            HBM FIFO finish - now)   (see bandwidth.py)
MTE3        as MTE2 with mte3_bytes_per_cycle (the write shares HBM)           A
FIXPIPE     as MTE2 with fixpipe_bytes_per_cycle                               A
all         + scalar_ns_per_tile (Scalar issue overhead per stage)            A
==========  ================================================================  =========

Host link copies: host_link_latency + nbytes / host_link_bandwidth (FIFO shared).
Device-to-device copies: dma_latency + 2 * nbytes through HBM (read + write).
Sources: PC platform config, AC Ascend C docs, A assumption (see chips/presets.py).
"""
from __future__ import annotations

import math

from ..chips import ChipConfig
from ..program import Pipe, Stage


def cube_macs_per_cycle(chip: ChipConfig, dtype: str) -> int:
    """Cube MACs per cycle for an input dtype (fp16/bf16: 16x16x16; int8: 16x32x16)."""
    if dtype in ("float16", "bfloat16"):
        return chip.cube_fp16_macs_per_cycle
    if dtype == "int8":
        return chip.cube_int8_macs_per_cycle
    return chip.cube_fp32_macs_per_cycle


def engine_ns(chip: ChipConfig, stage: Stage) -> float:
    """The stage's duration on its own engine, ignoring shared-bandwidth contention
    and without the scalar overhead (ns)."""
    cyc = chip.ns_per_cycle
    p = stage.pipe
    if p is Pipe.CUBE:
        return math.ceil(stage.macs / cube_macs_per_cycle(chip, stage.dtype)) * cyc
    if p is Pipe.VECTOR:
        return math.ceil(stage.vector_bytes / chip.vector_bytes_per_cycle) * cyc
    if p is Pipe.MTE2:
        return stage.nbytes / chip.mte2_bytes_per_cycle * cyc
    if p is Pipe.MTE1:
        return stage.nbytes / chip.mte1_bytes_per_cycle * cyc
    if p is Pipe.MTE3:
        return stage.nbytes / chip.mte3_bytes_per_cycle * cyc
    if p is Pipe.FIXPIPE:
        return stage.nbytes / chip.fixpipe_bytes_per_cycle * cyc
    return 0.0
