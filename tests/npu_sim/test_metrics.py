"""Per-kernel pipe ratios, achieved rates and bound classification (npu_sim/metrics.py).

Expected ratios are computed by hand from the stage formulas (docs/timing.md) of a
hand-built tile program, never read back from the simulator.
"""
from __future__ import annotations

import math

import pytest

from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips.presets import TINY
from npu_sim.metrics import LATENCY_BOUND_BELOW, RATIO_NAMES, classify, pipe_ratios

FAST = TINY.model_copy(update={"hbm_bandwidth_bytes_per_ns": 1e6})   # HBM never the limit


def run(chip, kind, blocks, flops=0):
    dev = Device(chip)
    spec = KernelSpec("k", kind, tuple(blocks), 2, {}, 0, {"flops": flops} if flops else {})
    dev.submit_kernel(dev.create_stream(), KernelLaunch(spec, None), 0.0)
    dev.run_until(None)
    return dev, dev.kernel_records[0]


def test_ratios_of_a_vector_tile_program():
    """n tiles MTE2 -> VECTOR -> MTE3 with VECTOR the slowest stage: the block lasts
    d0 + n*d1 + d2, so vec_ratio = n*d1 / that, mte2_ratio = n*d0 / that, and
    scalar_ratio = 3n scalar overheads / that (SCALAR sits on both core types)."""
    c = FAST
    cyc = c.ns_per_cycle
    n, in_b, reps, out_b = 6, 2048, 200, 1024
    d0 = c.dma_latency_ns + in_b / c.mte2_bytes_per_cycle * cyc + c.scalar_ns_per_tile
    d1 = reps * c.vector_repeat_bytes / c.vector_bytes_per_cycle * cyc + c.vector_issue_ns + c.scalar_ns_per_tile
    d2 = c.dma_latency_ns + out_b / c.mte3_bytes_per_cycle * cyc + c.scalar_ns_per_tile
    assert d1 > d0 and d1 > d2
    tile = (Stage(Pipe.MTE2, nbytes=in_b), Stage(Pipe.VECTOR, vector_bytes=reps * 256), Stage(Pipe.MTE3, nbytes=out_b))
    _, rec = run(c, CoreType.AIV, [BlockProgram((TileSpec(tile, n),))] * 2)
    block = d0 + n * d1 + d2
    r = rec["pipe_ratio"]
    assert set(r) == set(RATIO_NAMES.values())
    assert r["vec_ratio"] == pytest.approx(n * d1 / block)
    assert r["mte2_ratio"] == pytest.approx(n * d0 / block)
    assert r["mte3_ratio"] == pytest.approx(n * d2 / block)
    assert r["scalar_ratio"] == pytest.approx(3 * n * c.scalar_ns_per_tile / block)
    assert r["mac_ratio"] == r["mte1_ratio"] == r["fixpipe_ratio"] == 0.0
    assert rec["core_ns"] == {"AIV": pytest.approx(2 * block)}
    # compute_util: the vector throughput time over duration x the 2 cores used
    vec_tp = n * (d1 - c.vector_issue_ns - c.scalar_ns_per_tile)
    assert rec["compute_util"] == pytest.approx(2 * vec_tp / (rec["dur_ns"] * 2))


def test_cube_kernel_flops_and_compute_bound():
    """A long CUBE-only program on both AICs: compute-bound by CUBE, and flop_per_s is
    flops / duration."""
    c = TINY
    macs = 4096 * 100_000
    st = Stage(Pipe.CUBE, macs=macs)
    _, rec = run(c, CoreType.AIC, [BlockProgram((TileSpec((st,)),))] * 2, flops=2 * 2 * macs)
    assert rec["bound"] == "compute" and rec["bound_by"] == "CUBE"
    assert rec["flop_per_s"] == pytest.approx(4 * macs / rec["dur_ns"] * 1e9)
    cube_ns = 100_000 * c.ns_per_cycle
    assert rec["compute_util"] == pytest.approx(cube_ns / rec["dur_ns"])
    assert rec["pipe_ratio"]["mac_ratio"] == pytest.approx(1.0)


def test_streaming_kernel_is_memory_bound_by_hbm():
    """Many large transfers on all 4 AIVs of tiny (50 GB/s HBM, 128 GB/s per MTE2):
    HBM carries nearly all the time, so memory_util ~ 1 and bound_by is HBM."""
    st = (Stage(Pipe.MTE2, nbytes=16384), Stage(Pipe.VECTOR, vector_bytes=16384), Stage(Pipe.MTE3, nbytes=16384))
    _, rec = run(TINY, CoreType.AIV, [BlockProgram((TileSpec(st, 40),))] * 4)
    assert rec["bound"] == "memory" and rec["bound_by"] in ("HBM", "MTE2", "MTE3")
    moved = 4 * 40 * 2 * 16384
    assert rec["memory_util"] == pytest.approx(min(1.0, moved / (rec["dur_ns"] * TINY.hbm_bandwidth_bytes_per_ns)),
                                               rel=0.02)
    assert rec["gm_bytes_per_s"] == pytest.approx(moved / rec["dur_ns"] * 1e9)


def test_tiny_kernel_is_latency_bound():
    """One 256 B vector tile: the 3 us launch dominates."""
    _, rec = run(TINY, CoreType.AIV, [BlockProgram((TileSpec((Stage(Pipe.VECTOR, vector_bytes=256),)),))])
    assert rec["bound"] == "latency" and rec["bound_by"] == "overhead"
    assert max(rec["compute_util"], rec["memory_util"]) < LATENCY_BOUND_BELOW


@pytest.mark.parametrize("cu, mu, expected", [(0.49, 0.2, "latency"), (0.5, 0.2, "compute"), (0.6, 0.7, "memory"),
                                               (0.7, 0.7, "compute"), (0.0, 0.0, "latency")])
def test_classify(cu, mu, expected):
    assert classify(cu, mu) == expected


def test_pipe_ratios_denominators():
    """AIC pipes over AIC time, AIV pipes over AIV time, MTE2/SCALAR over both."""
    r = pipe_ratios({"CUBE": 50.0, "VECTOR": 30.0, "MTE2": 60.0, "SCALAR": 12.0}, {"AIC": 100.0, "AIV": 200.0})
    assert r["mac_ratio"] == pytest.approx(0.5) and r["vec_ratio"] == pytest.approx(0.15)
    assert r["mte2_ratio"] == pytest.approx(0.2) and r["scalar_ratio"] == pytest.approx(0.04)
    assert pipe_ratios({}, {})["mac_ratio"] == 0.0


def test_trace_tools_read_the_same_ratio_names_and_units():
    """traces.kernels keeps its own copy of the names kernel args use (traces imports
    no npu_sim): they must agree, and give the same ratios."""
    from traces.kernels import PIPE_UNITS as T_UNITS, RATIO_NAMES as T_NAMES, ratios
    from npu_sim.metrics import PIPE_UNITS
    assert T_NAMES == RATIO_NAMES and T_UNITS == PIPE_UNITS
    busy, core = {"CUBE": 50.0, "VECTOR": 30.0, "MTE2": 60.0, "SCALAR": 12.0, "MTE3": 500.0}, {"AIC": 100.0, "AIV": 200.0}
    assert ratios(busy, core) == pipe_ratios(busy, core)


def test_records_go_into_trace_args():
    dev, rec = run(TINY, CoreType.AIV, [BlockProgram((TileSpec((Stage(Pipe.VECTOR, vector_bytes=256),)),))])
    (task,) = [s for s in dev.recorder.spans if s.cat == "task"]
    for key in ("pipe_ratio", "bound", "bound_by", "compute_util", "memory_util", "flop_per_s", "gm_bytes_per_s",
                "hbm_bytes", "l2_hit_bytes", "core_ns"):
        assert task.args[key] == rec[key]
    assert math.isfinite(task.args["compute_util"])
