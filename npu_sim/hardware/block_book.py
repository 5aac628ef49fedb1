"""Adding one block's sums into its kernel's :class:`~npu_sim.hardware.pipeline.KernelStats`.

Shared by the general tile loop (pipeline.py ``run_block``) and the one-tile loop
(single_tile.py), so both book a block the same way, with the same float additions
in the same order (the kernel records and metrics are built from these sums).
"""
from __future__ import annotations

from ..program import Pipe
from .cost import AIV_PIPES


def book_block(stats, pipes, busy_pipe, fixed_pipe, scalar_busy: float, hbm_total: int, l2_total: int,
               wb_total: int, gm_total: int, span_ns: float, split: int, unit: str) -> None:
    """Add a finished block to ``stats``: per stage ``s`` of ``pipes`` its busy ns
    ``busy_pipe[s]`` and fixed ns ``fixed_pipe[s]`` (a stage counts twice, ``split``
    times, on a fused MIX group's VECTOR/MTE3: both AIVs were busy), the scalar ns
    (to ``Pipe.SCALAR``), the GM bytes served by HBM, by L2 hits, written back and
    moved (bytes), and the block's core time ``span_ns`` (start to end, ns) and block
    count for ``unit`` ("AIC"/"AIV"; a MIX group, ``split`` > 0, counts for AIC once
    and AIV ``split`` times)."""
    busy = stats.busy
    fixed_all = stats.fixed
    if not split:   # a plain core: the general case's additions with k = 1 (1 * x is x, bit for bit)
        get_b, get_f = busy.get, fixed_all.get
        for p, b, fx in zip(pipes, busy_pipe, fixed_pipe):
            busy[p] = get_b(p, 0.0) + b
            fixed_all[p] = get_f(p, 0.0) + fx
        if scalar_busy:
            sc = Pipe.SCALAR
            busy[sc] = get_b(sc, 0.0) + scalar_busy
            fixed_all[sc] = get_f(sc, 0.0) + scalar_busy
        stats.hbm_bytes += hbm_total
        stats.l2_hit_bytes += l2_total
        stats.writeback_bytes += wb_total
        stats.gm_bytes += gm_total
        core_ns = stats.core_ns
        core_ns[unit] = core_ns.get(unit, 0.0) + span_ns
        blocks = stats.blocks
        blocks[unit] = blocks.get(unit, 0) + 1
        return
    for s, p in enumerate(pipes):
        k = split if split and p in AIV_PIPES else 1
        busy[p] = busy.get(p, 0.0) + k * busy_pipe[s]
        fixed_all[p] = fixed_all.get(p, 0.0) + k * fixed_pipe[s]
    if scalar_busy:
        busy[Pipe.SCALAR] = busy.get(Pipe.SCALAR, 0.0) + scalar_busy
        fixed_all[Pipe.SCALAR] = fixed_all.get(Pipe.SCALAR, 0.0) + scalar_busy
    stats.hbm_bytes += hbm_total
    stats.l2_hit_bytes += l2_total
    stats.writeback_bytes += wb_total
    stats.gm_bytes += gm_total
    core_ns = stats.core_ns
    blocks = stats.blocks
    for u, k in ((("AIC", 1), ("AIV", split)) if split else ((unit, 1),)):
        core_ns[u] = core_ns.get(u, 0.0) + k * span_ns
        blocks[u] = blocks.get(u, 0) + k


__all__ = ["book_block"]
