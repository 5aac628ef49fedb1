"""The stage formulas of npu_sim/hardware/cost.py, checked against hand-computed values.

Every expected value is computed here from the chip's fields and the documented
formula (docs/timing.md), not read back from the simulator.
"""
from __future__ import annotations

import math

import pytest

from npu_sim import Pipe, Stage
from npu_sim.chips.presets import ASCEND910B2, ASCEND310P3, TINY
from npu_sim.hardware.cost import (gm_bus_bytes, kernel_overhead_ns, memcpy_ns, stage_cost, stage_issues, stage_ns,
                                   vector_repeats)
from npu_sim.program import GmRange

C = ASCEND910B2
CYC = 1e9 / C.clock_hz


# ---- cube -----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype, per_cycle", [
    ("float16", 16 * 16 * 16), ("bfloat16", 16 * 16 * 16), ("int8", 16 * 32 * 16),
    ("float32", 1024), ("hf32", 2048)])
def test_cube_rate_per_dtype(dtype, per_cycle):
    """CUBE: ceil(macs / rate(dtype)) cycles + one tile's scalar overhead."""
    macs = 128 * 256 * 320
    st = Stage(Pipe.CUBE, macs=macs, dtype=dtype)
    assert stage_ns(C, st) == pytest.approx(math.ceil(macs / per_cycle) * CYC + C.scalar_ns_per_tile)
    assert C.peak_flops(dtype) == pytest.approx(2 * per_cycle * C.aic_count * C.clock_hz)


def test_peak_fp16_is_the_documented_figure():
    """24 AIC x 4096 MAC x 2 FLOP x 1.8 GHz = 353.9 TFLOP/s (DESIGN.md section 4)."""
    assert C.peak_flops("float16") == pytest.approx(24 * 4096 * 2 * 1.8e9)


def test_hf32_defaults_to_half_fp16_when_unset():
    chip = TINY.model_copy(update={"cube_hf32_macs_per_cycle": 0})
    assert chip.cube_macs_per_cycle("hf32") == chip.cube_fp16_macs_per_cycle // 2


# ---- vector ---------------------------------------------------------------------------------
@pytest.mark.parametrize("vector_bytes, repeats, instructions", [
    (1, 1, 1), (256, 1, 1), (257, 2, 1), (255 * 256, 255, 1), (255 * 256 + 1, 256, 2),
    (256 * 1000, 1000, 4)])
def test_vector_repeats_and_instructions(vector_bytes, repeats, instructions):
    """256 B per repeat, at most 255 repeats per instruction, each instruction pays
    vector_issue_ns."""
    st = Stage(Pipe.VECTOR, vector_bytes=vector_bytes)
    assert vector_repeats(C, st) == repeats
    assert stage_issues(C, st) == instructions
    expected = (math.ceil(repeats * 256 / C.vector_bytes_per_cycle) * CYC + instructions * C.vector_issue_ns
                + C.scalar_ns_per_tile)
    assert stage_ns(C, st) == pytest.approx(expected)


def test_vector_explicit_issue_count():
    """A tile of 3 passes states issues=3: three instruction overheads, not one."""
    one = stage_ns(C, Stage(Pipe.VECTOR, vector_bytes=3 * 4096))
    three = stage_ns(C, Stage(Pipe.VECTOR, vector_bytes=3 * 4096, issues=3))
    assert three - one == pytest.approx(2 * C.vector_issue_ns)


def test_coarsened_vector_stage_equals_its_tiles():
    """tiles=4 of 1000 B each: 4 x ceil(1000/256) repeats and 4 instructions, 4 scalar overheads."""
    fine = stage_ns(C, Stage(Pipe.VECTOR, vector_bytes=1000))
    coarse = stage_ns(C, Stage(Pipe.VECTOR, vector_bytes=4000, tiles=4))
    assert coarse == pytest.approx(4 * fine)


# ---- GM transfers ---------------------------------------------------------------------------
@pytest.mark.parametrize("nbytes, run, expected", [
    (32, 0, 32), (33, 0, 64), (1, 0, 32), (640, 640, 640),
    (20 * 80, 80, 20 * 96),          # 20 rows of 80 B: each row rounds up to 96 B
    (3 * 80 + 16, 80, 3 * 96 + 32),  # a short last run rounds up on its own
    (0, 0, 0)])
def test_burst_rounding(nbytes, run, expected):
    assert gm_bus_bytes(C, nbytes, run) == expected


def test_gm_stage_uses_bus_bytes_and_one_latency_per_range():
    """MTE2 with two operand ranges (A rows 80 B, B rows 64 B): two DMA latencies, and the
    engine and HBM see burst-rounded bytes."""
    a, b = GmRange(16 * 80, 80), GmRange(16 * 64, 64)
    st = Stage(Pipe.MTE2, nbytes=a.nbytes + b.nbytes, gm_ranges=(a, b))
    bus = 16 * 96 + 16 * 64
    c = stage_cost(C, st)
    assert c.bus_bytes == bus and c.nbytes == a.nbytes + b.nbytes
    assert c.fixed_ns == pytest.approx(2 * C.dma_latency_ns + C.scalar_ns_per_tile)
    engine = bus / C.mte2_bytes_per_cycle * CYC
    assert stage_ns(C, st) == pytest.approx(max(engine, bus / C.hbm_bandwidth_bytes_per_ns) + c.fixed_ns)


def test_small_transfer_penalty():
    """One core streaming n-byte transfers back to back reaches n / (n + latency x rate)
    of its engine: the fixed DMA latency is the small-transfer penalty."""
    rate = C.mte2_bytes_per_cycle * C.clock_hz / 1e9    # bytes/ns of one MTE2 engine
    chip = C.model_copy(update={"scalar_ns_per_tile": 0.0, "hbm_bandwidth_bytes_per_ns": 1e6})
    for n, eff in ((16 * 1024, 0.416), (64 * 1024, 0.74), (1024 * 1024, 0.978)):
        t = stage_ns(chip, Stage(Pipe.MTE2, nbytes=n))
        assert n / t / rate == pytest.approx(n / (n + C.dma_latency_ns * rate))
        assert n / t / rate == pytest.approx(eff, abs=0.005)


def test_empty_stage_takes_no_time():
    for p in (Pipe.MTE2, Pipe.MTE3, Pipe.FIXPIPE, Pipe.MTE1, Pipe.CUBE, Pipe.VECTOR):
        assert stage_ns(C, Stage(p)) == 0.0


def test_mte1_and_fixpipe_rates():
    assert stage_ns(C, Stage(Pipe.MTE1, nbytes=4096)) == pytest.approx(
        4096 / C.mte1_bytes_per_cycle * CYC + C.scalar_ns_per_tile)
    fix = stage_cost(C, Stage(Pipe.FIXPIPE, nbytes=4096))
    assert fix.engine_ns == pytest.approx(4096 / C.fixpipe_bytes_per_cycle * CYC)


# ---- outside the pipeline -------------------------------------------------------------------
def test_copies_and_launch():
    assert memcpy_ns(C, 1 << 20, "H2D") == pytest.approx(C.host_link_latency_ns + (1 << 20) / 25.0)
    # D2D runs at the sustained HBM rate: the peak capped by ddr_rate x AI Cores x clock
    sustained = min(C.hbm_bandwidth_bytes_per_ns, C.ddr_bytes_per_cycle * C.aic_count * C.clock_hz / 1e9)
    assert memcpy_ns(C, 1 << 20, "D2D") == pytest.approx(C.dma_latency_ns + 2 * (1 << 20) / sustained)
    assert kernel_overhead_ns(C) == C.kernel_launch_ns + C.block_dispatch_ns
    with pytest.raises(ValueError, match="H2D, D2H or D2D"):
        memcpy_ns(C, 1, "H2H")


def test_presets_name_every_new_figure():
    """The new chip fields are set explicitly in every preset."""
    for chip in (C, ASCEND310P3, TINY):
        assert chip.vector_repeat_bytes == 256 and chip.vector_max_repeats == 255
        assert chip.gm_burst_bytes == 32 and chip.cube_hf32_macs_per_cycle == 2048


@pytest.mark.parametrize("pipe", list(Pipe))
def test_a_pipe_named_by_its_string_costs_as_its_member(pipe):
    """``Stage("CUBE", ...)`` and ``Stage(Pipe.CUBE, ...)`` are equal (a str enum), so
    they must cost the same: the CUBE/VECTOR/MTE1 costs were once told apart by
    identity, which costed a plain-str pipe as SCALAR (and a memo keyed by the equal
    stages returned whichever came first). Expected: the member's own formula."""
    kw = dict(macs=64 * 64 * 64, vector_bytes=8192, nbytes=8192, tiles=2)
    by_member, by_name = Stage(pipe, **kw), Stage(pipe.value, **kw)
    assert by_member == by_name
    assert stage_cost(C, by_name) == stage_cost(C, by_member)
    assert stage_issues(C, by_name) == stage_issues(C, by_member)
    if pipe is Pipe.CUBE:   # ceil(macs / 4096 fp16 MACs per cycle) cycles, as test_cube_rate_per_dtype
        assert stage_cost(C, by_name).engine_ns == pytest.approx(math.ceil(kw["macs"] / 4096) * CYC / C.cube_efficiency)
