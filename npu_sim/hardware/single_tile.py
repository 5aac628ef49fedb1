"""The one-tile block: :func:`~npu_sim.hardware.pipeline.run_block`'s lean case.

A block whose program has one tile (``CompiledProgram.single``: one tile and no
keyed GM ranges) runs its stages strictly in order: stage ``s`` starts when stage
``s-1`` ends (the pipeline rule of pipeline.py with ``n = 1``: no earlier tile, no
queue slot to wait for). :func:`run_single_tile` does exactly what the general loop
does for such a block -- the same SimPy timeouts to each GM stage's start and to the
block's end, the same bandwidth reservations (HBM, and the L2 share of reads found
resident across kernels, ``KernelStats.resident``) in the same order, the same float
additions into ``stats`` -- without the per-tile tables the general loop builds
(end times per stage and tile, queue links, group countdowns). Small elementwise
kernels (Add 1x768: two blocks of one tile, issue 17's "tiny kernel") are all such
blocks. tests/perf/test_single_tile.py compares it with the general loop.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .block_book import book_block

if TYPE_CHECKING:  # pragma: no cover
    from ..device import Device
    from .pipeline import CompiledProgram, KernelStats


def run_single_tile(dev: "Device", core: Any, cp: "CompiledProgram", label: str, stats: "KernelStats",
                    unit: str, release, env, base: float):
    """SimPy process body (used by ``run_block`` through ``yield from``) of a one-tile
    block of a plain (not MIX) core, its dispatch wait already done and the clock at
    ``base`` (ns). Waits on: a timeout to each GM stage's start when it lies ahead of
    the clock, and one to the block's end. Adds to ``stats`` as ``run_block`` does
    (``unit`` names the core type), hands ``core`` to ``release`` if given and returns
    the block's end time (ns)."""
    rec = dev.recorder
    recording = rec.enabled and rec.pipes   # trace level "kernels" keeps no pipe span
    pipes = cp.pipes
    if recording:
        tracks = dev.pipe_tracks(core, pipes)
        items_append = rec.pipe_sink()
    res = stats.resident
    t = base
    block_end = base
    scalar_busy = 0.0
    hbm_total = l2_total = gm_total = 0
    busy_pipe = [0.0] * len(pipes)   # per stage, as the general loop sums them (from 0.0)
    fixed_pipe = [0.0] * len(pipes)
    for s, grp in enumerate(cp.groups):
        _, eng, fixed, scalar, bus, _keyed, nbytes, gm, write = grp[0]
        if gm:
            if t > env.now:
                yield env.timeout(t - env.now)
            fin = t + eng
            miss = bus
            if res and not write and bus:   # reads of data an earlier kernel left in L2
                moved = int(bus * res)
                miss -= moved
                if moved:
                    r = dev.l2.reserve(t, moved)
                    if r > fin:
                        fin = r
                    l2_total += moved
            if miss:
                r = dev.hbm.reserve(t, miss)
                if r > fin:
                    fin = r
                hbm_total += miss
            gm_total += nbytes
            dur = fin - t + fixed
        else:
            dur = eng + fixed
        e = t + dur
        if dur > 0:
            scalar_busy += scalar
            if recording:  # TraceRecorder.pipe_span, inlined
                items_append((tracks[s], label, t, dur, 0, nbytes))
            busy_pipe[s] += dur
            fixed_pipe[s] += fixed
        if e > block_end:
            block_end = e
        t = e
    if block_end > env.now:
        yield env.timeout(block_end - env.now)
    book_block(stats, pipes, busy_pipe, fixed_pipe, scalar_busy, hbm_total, l2_total, 0, gm_total,
               block_end - base, 0, unit)
    if release is not None:
        release(core)
    return block_end


__all__ = ["run_single_tile"]
