"""The one-tile block loop (npu_sim/hardware/single_tile.py) gives the general
pipeline loop's results exactly: the same kernel records and trace spans, float for
float, with the fast path on and off, on the tiny-Add chain, two contending streams
and the encoder / decoder workloads, both loops run within one process
(``pipeline.SINGLE_TILE`` switches the lean loop off)."""
from __future__ import annotations

import pytest

from npu_sim.device import FAST_PATH_ENV
from npu_sim.hardware import pipeline
from tests.perf.test_fast_path import _raw, _workload


def _general_then_single(monkeypatch, fn, *a, **k):
    monkeypatch.setattr(pipeline, "SINGLE_TILE", False)
    fn(*a, **k)   # warm-up: phase 1's caches
    ref = fn(*a, **k)
    monkeypatch.setattr(pipeline, "SINGLE_TILE", True)
    return ref, fn(*a, **k)


@pytest.mark.parametrize("fast", ["0", "1"])
@pytest.mark.parametrize("case", ["one_stream", "two_streams"])
def test_single_tile_equals_general_loop_raw(monkeypatch, case, fast):
    monkeypatch.setenv(FAST_PATH_ENV, fast)
    ref, new = _general_then_single(monkeypatch, _raw, case)
    assert ref == new


@pytest.mark.parametrize("kind,sizes", [("encoder", dict(batch=1, seq=128)),
                                        ("decoder", dict(batch=1, cache_len=2048))])
def test_single_tile_equals_general_loop_workloads(monkeypatch, kind, sizes):
    ref, new = _general_then_single(monkeypatch, _workload, kind, **sizes)
    assert ref == new


def test_tiny_add_blocks_take_single_tile_loop():
    """Add 1x768's blocks are one-tile programs (so the lean loop is what runs)."""
    from npu_sim.hardware.pipeline import compile_program
    from npu_sim.chips.presets import get_chip
    from npu_sim.program import BlockProgram, Pipe, Stage, TileSpec
    prog = BlockProgram(tiles=(TileSpec(stages=(Stage(Pipe.MTE2, nbytes=1536), Stage(Pipe.VECTOR, vector_bytes=1536),
                                                Stage(Pipe.MTE3, nbytes=1536)), count=1),))
    assert compile_program(get_chip("ascend910b2"), prog).single
