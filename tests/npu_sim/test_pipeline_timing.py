"""Tile-pipeline timing against values computed by hand from the documented formulas.

The expected times below come from the formula table in ``npu_sim/hardware/cost.py``
and the start/end rule in ``npu_sim/hardware/pipeline.py``, evaluated on the chip's
fields, never from the simulator's own output:

    VECTOR  ceil(repeats * 256 / vector_bytes_per_cycle) * cycle + instructions * vector_issue + scalar
            repeats = ceil(vector_bytes / 256), instructions = ceil(repeats / 255)
    MTE2/3  dma_latency + max(nbytes / bytes_per_cycle * cycle, HBM finish - start) + scalar
    start(s, i) = max(end(s-1, i), end(s, i-1), end(s+1, i-bn) for s < S-1)

A kernel adds ``kernel_launch_ns`` once and ``block_dispatch_ns`` per block (chip
field descriptions).
"""
from __future__ import annotations

import math

import pytest

from npu_sim import (BlockProgram, Buffer, CoreType, Device, KernelConfigError, KernelLaunch, KernelSpec, Pipe, Stage,
                     TileSpec)
from npu_sim.chips.presets import TINY


# ---- the documented formulas, on chip fields -----------------------------------------------
def vector_ns(chip, vector_bytes):
    repeats = math.ceil(vector_bytes / chip.vector_repeat_bytes)
    instructions = math.ceil(repeats / chip.vector_max_repeats)
    return (math.ceil(repeats * chip.vector_repeat_bytes / chip.vector_bytes_per_cycle) * (1e9 / chip.clock_hz)
            + instructions * chip.vector_issue_ns + chip.scalar_ns_per_tile)


def gm_ns(chip, nbytes, bytes_per_cycle, hbm_wait_ns=0.0):
    """A GM stage starting with the HBM server ``hbm_wait_ns`` away from free."""
    engine = nbytes / bytes_per_cycle * (1e9 / chip.clock_hz)
    hbm_finish = hbm_wait_ns + nbytes / chip.hbm_bandwidth_bytes_per_ns
    return chip.dma_latency_ns + max(engine, hbm_finish) + chip.scalar_ns_per_tile


# ---- helpers -----------------------------------------------------------------------------
def run(chip, blocks, *, buffer_num=2, core_type=CoreType.AIV, buffers=None):
    """Run one kernel alone on a fresh device; returns (device, kernel record)."""
    dev = Device(chip)
    stream = dev.create_stream()
    spec = KernelSpec("k", core_type, tuple(blocks), buffer_num, buffers or {})
    dev.submit_kernel(stream, KernelLaunch(spec, None), 0.0)
    dev.run_until(None)
    (rec,) = dev.kernel_records
    return dev, rec


def pipe_spans(dev, core=None):
    return [s for s in dev.recorder.spans if s.cat == "pipe" and (core is None or s.track[1].startswith(core + " "))]


def block_span_ns(dev, core=None):
    spans = pipe_spans(dev, core)
    return max(s.start_ns + s.dur_ns for s in spans) - min(s.start_ns for s in spans)


def vec_tile(vector_bytes):
    return (Stage(Pipe.VECTOR, vector_bytes=vector_bytes),)


def streaming_tile(in_bytes, vector_bytes, out_bytes):
    return (Stage(Pipe.MTE2, nbytes=in_bytes), Stage(Pipe.VECTOR, vector_bytes=vector_bytes),
            Stage(Pipe.MTE3, nbytes=out_bytes))


FAST_HBM = TINY.model_copy(update={"hbm_bandwidth_bytes_per_ns": 10_000.0})


# ---- single stage ----------------------------------------------------------------------------
@pytest.mark.parametrize("stage, expected", [
    (Stage(Pipe.VECTOR, vector_bytes=1000), lambda c: vector_ns(c, 1000)),            # 4 repeats (ceil)
    (Stage(Pipe.VECTOR, vector_bytes=256 * 300), lambda c: vector_ns(c, 256 * 300)),
    (Stage(Pipe.MTE2, nbytes=4096), lambda c: gm_ns(c, 4096, c.mte2_bytes_per_cycle)),  # HBM-bound on tiny
    (Stage(Pipe.MTE3, nbytes=4096), lambda c: gm_ns(c, 4096, c.mte3_bytes_per_cycle)),
])
@pytest.mark.parametrize("chip", [TINY, FAST_HBM], ids=["tiny", "fast-hbm"])
def test_single_stage_tile(chip, stage, expected):
    """One tile on one pipe lasts its formula time; the kernel adds launch + one dispatch."""
    dev, rec = run(chip, [BlockProgram((TileSpec((stage,)),))])
    (span,) = pipe_spans(dev)
    assert span.dur_ns == pytest.approx(expected(chip))
    assert span.track[1].endswith(stage.pipe.value)
    assert rec["dur_ns"] == pytest.approx(chip.kernel_launch_ns + chip.block_dispatch_ns + expected(chip))


def test_gm_stage_engine_vs_hbm_bound():
    """The GM term is the slower of the engine and the HBM: 4 KiB at 128 B/cycle is 32 ns
    on the engine, 81.92 ns at tiny's 50 GB/s HBM, 0.41 ns at 10 TB/s."""
    assert gm_ns(TINY, 4096, 128) == pytest.approx(100 + 81.92 + 20)
    assert gm_ns(FAST_HBM, 4096, 128) == pytest.approx(100 + 32 + 20)
    for chip in (TINY, FAST_HBM):
        dev, _ = run(chip, [BlockProgram((TileSpec((Stage(Pipe.MTE2, nbytes=4096),)),))])
        assert pipe_spans(dev)[0].dur_ns == pytest.approx(gm_ns(chip, 4096, 128))


# ---- three-stage pipeline ----------------------------------------------------------------------
N_TILES = 8
IN_B, VEC_B, OUT_B = 2048, 256 * 1000, 2048


def _stage_times(chip):
    d0 = gm_ns(chip, IN_B, chip.mte2_bytes_per_cycle)
    d1 = vector_ns(chip, VEC_B)
    d2 = gm_ns(chip, OUT_B, chip.mte3_bytes_per_cycle)
    return d0, d1, d2


def test_double_buffered_pipeline_compute_dominates():
    """MTE2 -> VECTOR -> MTE3 with queue depth 2 and VECTOR >= MTE2 + MTE3: the vector
    unit never stalls, so the block takes fill + n * compute + drain = d0 + n*d1 + d2."""
    d0, d1, d2 = _stage_times(TINY)
    assert d1 > d0 + d2                       # the premise: compute dominates
    dev, rec = run(TINY, [BlockProgram((TileSpec(streaming_tile(IN_B, VEC_B, OUT_B), N_TILES),))], buffer_num=2)
    expected = d0 + N_TILES * d1 + d2
    assert block_span_ns(dev) == pytest.approx(expected)
    assert rec["dur_ns"] == pytest.approx(TINY.kernel_launch_ns + TINY.block_dispatch_ns + expected)
    # the vector spans are back to back
    vec = sorted((s for s in pipe_spans(dev) if s.track[1].endswith("VECTOR")), key=lambda s: s.start_ns)
    assert len(vec) == N_TILES
    for a, b in zip(vec, vec[1:]):
        assert b.start_ns == pytest.approx(a.start_ns + a.dur_ns)
    assert rec["pipe_busy_ns"]["VECTOR"] == pytest.approx(N_TILES * d1)


def test_single_buffer_serialises_every_tile():
    """buffer_num=1 (one VECIN and one VECOUT slot): tile i+1's copy-in waits for tile i's
    compute, and its compute for tile i's copy-out. With d0 == d2 each tile after the
    first adds d0 + d1, so the block takes n * (d0 + d1) + d2, slower than the
    double-buffered d0 + n*d1 + d2."""
    chip = FAST_HBM  # copy-in of tile i+1 now overlaps copy-out of tile i: keep HBM out of it
    d0, d1, d2 = _stage_times(chip)
    assert d0 == pytest.approx(d2)
    prog = BlockProgram((TileSpec(streaming_tile(IN_B, VEC_B, OUT_B), N_TILES),))
    dev1, rec1 = run(chip, [prog], buffer_num=1)
    dev2, rec2 = run(chip, [prog], buffer_num=2)
    assert block_span_ns(dev1) == pytest.approx(N_TILES * (d0 + d1) + d2)
    assert block_span_ns(dev2) == pytest.approx(d0 + N_TILES * d1 + d2)
    assert rec2["dur_ns"] < rec1["dur_ns"]
    saved = rec1["dur_ns"] - rec2["dur_ns"]
    assert saved == pytest.approx((N_TILES - 1) * d0)


def test_balanced_stages_double_buffering_gains():
    """With three equal stage times d (fast-HBM chip): depth 1 lets a stage start only
    after its consumer finished the previous tile, so tiles come every 2d and the block
    takes 2*n*d + d; depth 2 overlaps all three stages: n*d + 2d."""
    chip = FAST_HBM
    nbytes = 4096
    d = gm_ns(chip, nbytes, chip.mte2_bytes_per_cycle)
    # a vector stage of d too: one instruction (< 255 repeats), whole cycles of 256 B
    vbytes = int((d - chip.scalar_ns_per_tile - chip.vector_issue_ns) * chip.vector_bytes_per_cycle)
    assert vector_ns(chip, vbytes) == pytest.approx(d)
    prog = BlockProgram((TileSpec(streaming_tile(nbytes, vbytes, nbytes), N_TILES),))
    dev1, _ = run(chip, [prog], buffer_num=1)
    dev2, _ = run(chip, [prog], buffer_num=2)
    assert block_span_ns(dev1) == pytest.approx(2 * N_TILES * d + d)
    assert block_span_ns(dev2) == pytest.approx(N_TILES * d + 2 * d)
    assert block_span_ns(dev2) < 0.6 * block_span_ns(dev1)


def test_four_stage_queue_per_stage_pair():
    """MTE2 -> MTE1 -> CUBE -> FIXPIPE (a cube tile): each stage waits only for a slot in
    the queue it writes, so with bn=2 the slowest stage (CUBE) runs back to back even
    though MTE2 + MTE1 together exceed it."""
    chip = FAST_HBM
    cyc = chip.ns_per_cycle
    mte2_b, mte1_b, macs = 8192, 65536, 4096 * 300
    d0 = gm_ns(chip, mte2_b, chip.mte2_bytes_per_cycle)
    d1 = mte1_b / chip.mte1_bytes_per_cycle * cyc + chip.scalar_ns_per_tile
    d2 = math.ceil(macs / chip.cube_fp16_macs_per_cycle) * cyc + chip.scalar_ns_per_tile
    assert d0 < d2 and d1 < d2 < d0 + d1        # the premise
    tile = (Stage(Pipe.MTE2, nbytes=mte2_b), Stage(Pipe.MTE1, nbytes=mte1_b), Stage(Pipe.CUBE, macs=macs),
            Stage(Pipe.FIXPIPE))
    dev, _ = run(chip, [BlockProgram((TileSpec(tile, N_TILES),))], core_type=CoreType.AIC)
    assert block_span_ns(dev) == pytest.approx(d0 + d1 + N_TILES * d2)


# ---- HBM sharing -------------------------------------------------------------------------------
def test_two_blocks_share_hbm_bandwidth():
    """With HBM the bottleneck (10 GB/s against 1 KiB/cycle MTE2), two AIV blocks streaming
    at once each get about half of it, and together keep it busy; one block alone gets
    nearly all of it."""
    chip = TINY.model_copy(update={"hbm_bandwidth_bytes_per_ns": 10.0, "mte2_bytes_per_cycle": 1024})
    n, nbytes = 16, 16384
    prog = BlockProgram((TileSpec((Stage(Pipe.MTE2, nbytes=nbytes),), n),))
    service = nbytes / chip.hbm_bandwidth_bytes_per_ns                  # 1638.4 ns per tile at full rate
    assert nbytes / chip.mte2_bytes_per_cycle * chip.ns_per_cycle < service / 50  # the engine is no limit

    one, _ = run(chip, [prog])
    t1 = block_span_ns(one, "AIV0")
    assert t1 == pytest.approx(n * gm_ns(chip, nbytes, chip.mte2_bytes_per_cycle))
    bw1 = n * nbytes / t1
    assert bw1 == pytest.approx(chip.hbm_bandwidth_bytes_per_ns, rel=0.10)

    two, _ = run(chip, [prog, prog])
    for core in ("AIV0", "AIV1"):
        t = block_span_ns(two, core)
        assert n * nbytes / t == pytest.approx(chip.hbm_bandwidth_bytes_per_ns / 2, rel=0.10)
        assert t == pytest.approx(2 * t1, rel=0.15)
    assert two.hbm.busy_ns == pytest.approx(2 * n * service)
    assert two.hbm.bytes_moved == 2 * n * nbytes
    # both blocks ran concurrently: the pair took about as long as one of them
    assert block_span_ns(two) == pytest.approx(block_span_ns(two, "AIV1"), rel=0.02)


# ---- capacity checks ---------------------------------------------------------------------------
def test_kernel_over_ub_is_refused_naming_the_buffer():
    """A vector kernel asking for more UB than the chip has raises KernelConfigError
    naming UB and both byte counts, before anything is enqueued."""
    dev = Device(TINY)
    stream = dev.create_stream()
    spec = KernelSpec("BigAdd", CoreType.AIV, (BlockProgram((TileSpec(vec_tile(256)),)),), 2,
                      {Buffer.UB: TINY.ub_bytes + 32})
    with pytest.raises(KernelConfigError) as exc:
        dev.submit_kernel(stream, KernelLaunch(spec, None), 0.0)
    msg = str(exc.value)
    assert "UB" in msg and "BigAdd" in msg and str(TINY.ub_bytes + 32) in msg and str(TINY.ub_bytes) in msg
    assert stream.task_count == 0 and stream.last is None
    # exactly the capacity is fine
    spec.buffers[Buffer.UB] = TINY.ub_bytes
    dev.check_kernel(KernelLaunch(spec, None))


@pytest.mark.parametrize("core_type, buffers, needle", [
    (CoreType.AIC, {Buffer.L0A: TINY.l0a_bytes + 1}, "L0A"),
    (CoreType.AIC, {Buffer.L0C: TINY.l0c_bytes * 2}, "L0C"),
    (CoreType.AIV, {Buffer.L1: 32}, "no L1"),        # AIV owns only UB
    (CoreType.AIC, {Buffer.UB: 32}, "no UB"),
])
def test_other_buffer_violations(core_type, buffers, needle):
    """Over-capacity cube buffers, or a buffer the core type does not own, are refused by name."""
    dev = Device(TINY)
    spec = KernelSpec("K", core_type, (BlockProgram((TileSpec(vec_tile(256)),)),), 2, buffers)
    with pytest.raises(KernelConfigError, match=needle):
        dev.check_kernel(KernelLaunch(spec, None))


def test_zero_blocks_refused():
    """A kernel with no blocks cannot run."""
    with pytest.raises(KernelConfigError, match="block_dim"):
        Device(TINY).check_kernel(KernelLaunch(KernelSpec("K", CoreType.AIV, ()), None))


# ---- block scheduling ----------------------------------------------------------------------------
def test_more_blocks_than_cores_run_in_waves():
    """block_dim beyond the core count queues blocks for free cores: on tiny's 4 AIV,
    8 equal blocks take launch + 2 * (dispatch + block) and 5 blocks take the same."""
    chip = TINY
    b = vector_ns(chip, 256 * 5000)
    prog = BlockProgram((TileSpec(vec_tile(256 * 5000)),))
    cores = chip.vector_core_count
    times = {}
    for nblocks in (1, cores, cores + 1, 2 * cores):
        _, rec = run(chip, [prog] * nblocks)
        times[nblocks] = rec["dur_ns"]
    one_wave = chip.kernel_launch_ns + chip.block_dispatch_ns + b
    two_waves = chip.kernel_launch_ns + 2 * (chip.block_dispatch_ns + b)
    assert times[1] == pytest.approx(one_wave)
    assert times[cores] == pytest.approx(one_wave)
    assert times[cores + 1] == pytest.approx(two_waves)
    assert times[2 * cores] == pytest.approx(two_waves)
    # the block part roughly doubles
    assert (times[2 * cores] - chip.kernel_launch_ns) / (times[cores] - chip.kernel_launch_ns) == pytest.approx(2.0)


def test_cube_kernel_uses_aic_count():
    """Cube blocks occupy AICs: tiny's 2 AIC make 4 cube blocks run in two waves."""
    chip = TINY
    st = Stage(Pipe.CUBE, macs=4096 * 1000, dtype="float16")
    b = math.ceil(4096 * 1000 / chip.cube_fp16_macs_per_cycle) * chip.ns_per_cycle + chip.scalar_ns_per_tile
    prog = BlockProgram((TileSpec((st,)),))
    _, r2 = run(chip, [prog] * chip.aic_count, core_type=CoreType.AIC)
    _, r4 = run(chip, [prog] * (2 * chip.aic_count), core_type=CoreType.AIC)
    assert r2["dur_ns"] == pytest.approx(chip.kernel_launch_ns + chip.block_dispatch_ns + b)
    assert r4["dur_ns"] == pytest.approx(chip.kernel_launch_ns + 2 * (chip.block_dispatch_ns + b))
