"""Timing-only inputs hold metadata only (issue 17): ``npu-sim run --timing-only`` feeds
each input it draws as a placeholder of its shape and dtype (:mod:`frontend.meta_const`),
the runner uploads it from a zero mapping that holds no memory, the simulated ns are the
full run's, and only the HBM check limits an input's size (not the host's memory)."""
from __future__ import annotations

import tracemalloc

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from acl_runtime import acl
from frontend import profiling
from frontend.cli import main
from frontend.cli import run_inputs
from frontend.cli.common import CliError
from frontend.meta_const import MetaConstantError, is_placeholder, placeholder
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner
from npu_sim import get_chip
from opsnn.base.cache import clear_executor_cache

ROWS = 4096   # a [4096, 4096] float32 input: 64 MiB


def _model(tmp_path, rows: int = ROWS):
    """x [rows, 4096] float32 @ w [4096, 8] (a small real weight) -> Relu."""
    w = numpy_helper.from_array(np.random.default_rng(0).standard_normal((4096, 8)).astype(np.float32), "w")
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [rows, 4096])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"]), helper.make_node("Relu", ["h"], ["y"])]
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y], [w]), opset_imports=[helper.make_opsetid("", 13)])
    p = tmp_path / "m.onnx"
    onnx.save(m, p)
    return p


def _simulate(graph, feeds, timing_only: bool, mode: str = "graph") -> float:
    clear_executor_cache()
    if profiling.acl_initialized():
        acl.finalize()
    assert acl.init(chip="ascend910b2", timing_only=timing_only) == 0 and acl.rt.set_device(0) == 0
    try:
        runner = ModelRunner(graph, mode=mode, memory="planned" if mode == "graph" else "naive")
        runner.prepare()
        return runner.run(feeds).device_ns
    finally:
        acl.finalize()


def test_draw_input_is_a_placeholder_and_skips_the_host_check(monkeypatch):
    chip = get_chip("ascend910b2")
    monkeypatch.setattr(run_inputs, "_host_memory_bytes", lambda: 1024)   # a host of 1 KiB
    with pytest.raises(CliError, match="host memory"):
        run_inputs.draw_input(np.random.default_rng(0), "x", (64, 64), np.float32, chip)
    a = run_inputs.draw_input(np.random.default_rng(0), "x", (64, 64), np.float32, chip, timing_only=True)
    assert is_placeholder(a) and a.shape == (64, 64) and a.dtype == np.float32
    with pytest.raises(CliError, match="HBM"):   # the device still has to hold it
        run_inputs.draw_input(None, "x", (int(chip.hbm_bytes),), np.float32, chip, timing_only=True)


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_placeholder_input_gives_the_full_runs_ns(tmp_path, mode):
    g = load_onnx(_model(tmp_path, rows=256))
    real = {"x": np.random.default_rng(1).standard_normal((256, 4096)).astype(np.float32)}
    meta = {"x": placeholder((256, 4096), np.float32)}
    assert _simulate(g, meta, True, mode) == _simulate(g, real, False, mode) == _simulate(g, real, True, mode)


def test_placeholder_input_never_reaches_a_backed_device(tmp_path):
    g = load_onnx(_model(tmp_path, rows=256))
    with pytest.raises(MetaConstantError, match="input 'x' is metadata only"):
        _simulate(g, {"x": placeholder((256, 4096), np.float32)}, False)
    with pytest.raises(ValueError, match="the model wants"):
        _simulate(g, {"x": placeholder((128, 4096), np.float32)}, True)


def test_cli_timing_only_holds_no_host_copy_of_the_input(tmp_path, monkeypatch, capsys):
    """A 64 MiB input: the timing-only run's traced host peak stays far below it, and a
    host too small for it refuses the full run only."""
    p = _model(tmp_path)
    args = ["run", str(p), "--no-progress", "--trace", "", "--timing-only"]
    clear_executor_cache()
    tracemalloc.start()
    try:
        assert main(args) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < ROWS * 4096 * 4 / 8, peak
    monkeypatch.setattr(run_inputs, "_host_memory_bytes", lambda: 2**20)   # a host of 1 MiB
    capsys.readouterr()
    assert main(["run", str(p), "--no-progress", "--trace", "", "--no-check"]) == 1
    assert "more than host memory" in capsys.readouterr().err
    clear_executor_cache()
    assert main(args) == 0
