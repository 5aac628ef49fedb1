"""Core scheduling: AIC / AIV / MIX blocks on the separated architecture, and the
coupled architecture (310P) where vector kernels may use AI Cores' vector units.

Expected times are built from the stage formulas (docs/timing.md) on chip fields:
a block of one stage lasts that stage's time; a kernel adds launch + dispatch per wave.
"""
from __future__ import annotations

import math

import pytest

from npu_sim import (BlockProgram, Buffer, CoreType, Device, KernelConfigError, KernelLaunch, KernelSpec, MixBlockProgram,
                     Pipe, Stage, TileSpec)
from npu_sim.chips.presets import ASCEND310P3, TINY


def cube_prog(chip, cycles):
    st = Stage(Pipe.CUBE, macs=cycles * chip.cube_fp16_macs_per_cycle)
    return BlockProgram((TileSpec((st,)),)), cycles * chip.ns_per_cycle + chip.scalar_ns_per_tile


def vec_prog(chip, repeats):
    assert repeats <= chip.vector_max_repeats
    st = Stage(Pipe.VECTOR, vector_bytes=repeats * chip.vector_repeat_bytes)
    t = math.ceil(repeats * chip.vector_repeat_bytes / chip.vector_bytes_per_cycle) * chip.ns_per_cycle
    return BlockProgram((TileSpec((st,)),)), t + chip.vector_issue_ns + chip.scalar_ns_per_tile


def submit(dev, stream, name, kind, blocks, buffers=None):
    dev.submit_kernel(stream, KernelLaunch(KernelSpec(name, kind, tuple(blocks), 2, buffers or {}), None), 0.0)


def records(dev):
    return {r["name"]: r for r in dev.kernel_records}


def cores_used(dev, name):
    return sorted({s.track[1].split()[0] for s in dev.recorder.spans if s.cat == "pipe" and s.name == name})


OVER = TINY.kernel_launch_ns + TINY.block_dispatch_ns


# ---- MIX -----------------------------------------------------------------------------------------
def test_mix_block_runs_aic_and_aiv_programs_at_once():
    """A MIX block takes AIC i with AIV 2i and 2i+1; its programs run concurrently and the
    block lasts the longest of them. block_dim counts groups: tiny has 2."""
    chip = TINY
    aic, a_t = cube_prog(chip, 300)
    aiv, v_t = vec_prog(chip, 200)
    dev = Device(chip)
    submit(dev, dev.create_stream(), "mix", CoreType.MIX, [MixBlockProgram(aic, (aiv, aiv))] * 2)
    dev.run_until(None)
    rec = records(dev)["mix"]
    assert rec["task_type"] == "MIX_AIC" and rec["block_dim"] == 2
    assert rec["dur_ns"] == pytest.approx(OVER + max(a_t, v_t))
    assert cores_used(dev, "mix") == ["AIC0", "AIC1", "AIV0", "AIV1", "AIV2", "AIV3"]
    assert rec["pipe_busy_ns"]["CUBE"] == pytest.approx(2 * a_t)       # 2 AICs
    assert rec["pipe_busy_ns"]["VECTOR"] == pytest.approx(4 * v_t)     # 4 AIVs


def test_mix_more_groups_than_the_chip_run_in_waves():
    chip = TINY
    aic, a_t = cube_prog(chip, 300)
    dev = Device(chip)
    submit(dev, dev.create_stream(), "mix", CoreType.MIX, [MixBlockProgram(aic)] * 3)
    dev.run_until(None)
    assert records(dev)["mix"]["dur_ns"] == pytest.approx(chip.kernel_launch_ns + 2 * (chip.block_dispatch_ns + a_t))


def test_mix_group_waits_for_its_own_aivs():
    """An AIV kernel holding AIV0 (stream 1) leaves only group 1 whole (AIC0 is free but
    its group's AIV0 is not): a 2-block MIX kernel (stream 2) runs both blocks on group
    1, one after the other, long before AIV0 frees."""
    chip = TINY
    long_v, long_t = vec_prog(chip, 250)
    long_v = BlockProgram((TileSpec(long_v.tiles[0].stages, 20),))      # 20 x long_t
    aic, a_t = cube_prog(chip, 100)
    dev = Device(chip)
    submit(dev, dev.create_stream(), "vec", CoreType.AIV, [long_v])
    submit(dev, dev.create_stream(), "mix", CoreType.MIX, [MixBlockProgram(aic)] * 2)
    dev.run_until(None)
    rec = records(dev)
    vec_end = OVER + 20 * long_t
    assert rec["vec"]["dur_ns"] == pytest.approx(vec_end)
    mix_end = rec["mix"]["start_ns"] + rec["mix"]["dur_ns"]
    assert mix_end == pytest.approx(OVER + a_t + chip.block_dispatch_ns + a_t)
    assert mix_end < vec_end
    assert cores_used(dev, "mix") == ["AIC1"]


def test_fused_mix_program_shares_vector_work_over_two_aivs():
    """A fused MIX program (one BlockProgram over AIC and AIV pipes): the VECTOR stage's
    throughput term is split over the group's 2 AIVs; it is drawn on the first AIV."""
    chip = TINY
    reps = 200
    vb = reps * chip.vector_repeat_bytes
    prog = BlockProgram((TileSpec((Stage(Pipe.CUBE, macs=4096 * 10), Stage(Pipe.VECTOR, vector_bytes=vb))),))
    dev = Device(chip)
    submit(dev, dev.create_stream(), "fa", CoreType.MIX, [prog], {})
    dev.run_until(None)
    cube_t = 10 * chip.ns_per_cycle + chip.scalar_ns_per_tile
    vec_t = reps * chip.ns_per_cycle / 2 + chip.vector_issue_ns + chip.scalar_ns_per_tile
    assert records(dev)["fa"]["dur_ns"] == pytest.approx(OVER + cube_t + vec_t)
    tracks = {s.track[1] for s in dev.recorder.spans if s.cat == "pipe"}
    assert tracks == {"AIC0 CUBE", "AIV0 VECTOR"}


def test_mix_buffers_are_aic_plus_ub():
    dev = Device(TINY)
    aic, _ = cube_prog(TINY, 10)
    spec = KernelSpec("m", CoreType.MIX, (MixBlockProgram(aic),), 2, {Buffer.L1: TINY.l1_bytes, Buffer.UB: TINY.ub_bytes})
    dev.check_kernel(KernelLaunch(spec, None))
    spec.buffers[Buffer.UB] = TINY.ub_bytes + 1
    with pytest.raises(KernelConfigError, match="UB"):
        dev.check_kernel(KernelLaunch(spec, None))


@pytest.mark.parametrize("kind, blocks, needle", [
    (CoreType.AIC, "mixblock", "need core_type MIX"),
    (CoreType.MIX, "three_aiv", "has 2 AIVs, got 3"),
])
def test_mix_misuse_is_refused(kind, blocks, needle):
    aic, _ = cube_prog(TINY, 10)
    b = MixBlockProgram(aic, (aic, aic, aic) if blocks == "three_aiv" else ())
    with pytest.raises(KernelConfigError, match=needle):
        Device(TINY).check_kernel(KernelLaunch(KernelSpec("k", kind, (b,)), None))


def test_mix_needs_the_separated_architecture():
    aic, _ = cube_prog(ASCEND310P3, 10)
    with pytest.raises(KernelConfigError, match="separated architecture; ascend310p3 is coupled"):
        Device(ASCEND310P3).check_kernel(KernelLaunch(KernelSpec("k", CoreType.MIX, (MixBlockProgram(aic),)), None))


# ---- separated vs coupled --------------------------------------------------------------------------
def test_separated_cube_and_vector_kernels_do_not_compete():
    """910B-style: AICs and AIVs are distinct cores, so a full-width cube kernel and a
    full-width vector kernel on two streams both run in one wave."""
    chip = TINY
    c, c_t = cube_prog(chip, 500)
    v, v_t = vec_prog(chip, 250)
    dev = Device(chip)
    submit(dev, dev.create_stream(), "cube", CoreType.AIC, [c] * chip.aic_count)
    submit(dev, dev.create_stream(), "vec", CoreType.AIV, [v] * chip.aiv_count)
    dev.run_until(None)
    rec = records(dev)
    assert rec["cube"]["dur_ns"] == pytest.approx(OVER + c_t)
    assert rec["vec"]["dur_ns"] == pytest.approx(OVER + v_t)


def test_coupled_vector_kernel_uses_ai_cores_when_idle():
    """310P: 8 AI Cores + 7 vector cores. A 15-block vector kernel alone runs in one
    wave (vector cores first, then the AI Cores' vector units)."""
    chip = ASCEND310P3
    v, v_t = vec_prog(chip, 250)
    dev = Device(chip)
    submit(dev, dev.create_stream(), "vec", CoreType.AIV, [v] * 15)
    dev.run_until(None)
    over = chip.kernel_launch_ns + chip.block_dispatch_ns
    assert records(dev)["vec"]["dur_ns"] == pytest.approx(over + v_t)
    assert cores_used(dev, "vec") == sorted([f"AIV{i}" for i in range(7)] + [f"AIC{i}" for i in range(8)])
    assert chip.vector_core_count == 15


def test_coupled_cube_and_vector_kernels_compete_for_ai_cores():
    """310P: while a cube kernel holds all 8 AI Cores, a 15-block vector kernel gets only
    the 7 vector cores, so its blocks run in ceil(15 / 7) = 3 waves (all before the cube
    kernel frees the AI Cores) instead of one."""
    chip = ASCEND310P3
    c, c_t = cube_prog(chip, 2000)
    v, v_t = vec_prog(chip, 250)
    dev = Device(chip)
    submit(dev, dev.create_stream(), "cube", CoreType.AIC, [c] * 8)
    submit(dev, dev.create_stream(), "vec", CoreType.AIV, [v] * 15)
    dev.run_until(None)
    rec = records(dev)
    over = chip.kernel_launch_ns + chip.block_dispatch_ns
    assert rec["cube"]["dur_ns"] == pytest.approx(over + c_t)
    three_waves = chip.kernel_launch_ns + 3 * (chip.block_dispatch_ns + v_t)
    assert three_waves < over + c_t      # the premise: the AI Cores never free up in time
    assert rec["vec"]["dur_ns"] == pytest.approx(three_waves)
    assert cores_used(dev, "vec") == [f"AIV{i}" for i in range(7)]


def test_tile_groups_with_different_pipes_are_refused():
    """Every TileSpec of a block must use the same pipe sequence; a mismatch is refused
    at submit time, naming both sequences."""
    prog = BlockProgram((TileSpec((Stage(Pipe.VECTOR, vector_bytes=256),)),
                         TileSpec((Stage(Pipe.MTE2, nbytes=64), Stage(Pipe.VECTOR, vector_bytes=256)))))
    with pytest.raises(KernelConfigError, match="share one pipe sequence"):
        Device(TINY).check_kernel(KernelLaunch(KernelSpec("k", CoreType.AIV, (prog,)), None))
