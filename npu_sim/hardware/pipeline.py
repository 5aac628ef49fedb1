"""The tile pipeline of one block: the simulator's hot path.

Timing rule for stage ``s`` of tile ``i`` (S stages per tile, queue depth ``bn``):

    start(s, i) = max(end(s-1, i),        # the tile's data came from the previous stage
                      end(s, i-1),        # the pipe is sequential
                      end(S-1, i-bn))     # s == 0 only: a free queue slot (double buffering)
    end(s, i)   = start(s, i) + duration(s, i)

``duration`` is :func:`npu_sim.hardware.cost.engine_ns` plus the scalar overhead; for
stages that touch GM it also waits for its turn on the shared HBM server, which is
why the clock must stand at ``start`` before it is computed. So the block process
yields one SimPy timeout per GM stage (to reach its start), and none for on-chip
stages, whose times follow from the rule alone. Spans are recorded with their
computed start and duration.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..program import GM_PIPES, BlockProgram, KernelSpec
from .cost import engine_ns

if TYPE_CHECKING:  # pragma: no cover
    from ..device import Device
    from .cores import Core


def run_block(dev: "Device", core: "Core", prog: BlockProgram, spec: KernelSpec, busy: dict):
    """SimPy process: run ``prog`` on ``core``. Waits on: timeouts to each GM stage's
    start and to the block's end. Holds: the core (released by the caller).
    Adds each pipe's busy ns to ``busy``. Returns the block's end time (ns)."""
    env = dev.env
    chip = dev.chip
    hbm = dev.hbm
    rec = dev.recorder
    scalar = chip.scalar_ns_per_tile
    lat = chip.dma_latency_ns
    pipes = prog.pipes
    S = len(pipes)
    bn = max(1, spec.buffer_num)
    tracks = [(dev.track_pid, f"{core.name} {p.value}") for p in pipes]
    gm = [p in GM_PIPES for p in pipes]
    # flatten tile groups into per-stage duration lookups: (count, engine_ns, nbytes)
    groups = [[(g.count, engine_ns(chip, g.stages[s]), g.stages[s].nbytes) for g in prog.tiles]
              for s in range(S)]
    n = prog.tile_count
    end = [[0.0] * n for _ in range(S)]
    nxt = [0] * S
    gidx = [0] * S
    gleft = [groups[s][0][0] if groups[s] else 0 for s in range(S)]
    base = env.now
    label = spec.name
    block_end = base
    busy_pipe = [0.0] * S
    remaining = n * S
    while remaining:
        # pick the startable stage with the earliest start
        best_s = -1
        best_t = 0.0
        for s in range(S):
            i = nxt[s]
            if i >= n:
                continue
            if s > 0 and nxt[s - 1] <= i:
                continue
            t = end[s - 1][i] if s > 0 else base
            if i > 0 and end[s][i - 1] > t:
                t = end[s][i - 1]
            if s == 0 and i >= bn:
                if nxt[S - 1] <= i - bn:
                    continue
                if end[S - 1][i - bn] > t:
                    t = end[S - 1][i - bn]
            if best_s < 0 or t < best_t:
                best_s, best_t = s, t
        s = best_s
        i = nxt[s]
        cnt, eng, nbytes = groups[s][gidx[s]]
        if gm[s] and nbytes:
            if best_t > env.now:
                yield env.timeout(best_t - env.now)
            hbm_end = hbm.reserve(best_t, nbytes)
            fin = best_t + eng if best_t + eng > hbm_end else hbm_end
            dur = fin - best_t + lat + scalar
        elif eng:
            dur = eng + scalar
        else:
            dur = 0.0  # an empty stage (e.g. FixPipe on a K-chunk that writes nothing)
        e = best_t + dur
        end[s][i] = e
        busy_pipe[s] += dur
        if rec.enabled and dur > 0:
            rec.span(tracks[s], label, best_t, dur, "pipe", {"tile": i, "bytes": nbytes} if nbytes else {"tile": i})
        if e > block_end:
            block_end = e
        nxt[s] = i + 1
        gleft[s] -= 1
        if gleft[s] == 0 and gidx[s] + 1 < len(groups[s]):
            gidx[s] += 1
            gleft[s] = groups[s][gidx[s]][0]
        remaining -= 1
    if block_end > env.now:
        yield env.timeout(block_end - env.now)
    for s in range(S):
        busy[pipes[s]] = busy.get(pipes[s], 0.0) + busy_pipe[s]
    return block_end
