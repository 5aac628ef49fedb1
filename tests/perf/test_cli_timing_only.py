"""``npu-sim run --timing-only`` and ``--trace-level``: the simulated times (every
span of the trace) are the full run's."""
from __future__ import annotations

import json

import numpy as np
import onnx
from onnx import helper, numpy_helper

from frontend.cli import main
from opsnn.base.cache import clear_executor_cache


def run(*argv) -> int:
    """``npu-sim run ...`` in a fresh executor cache (a cache hit would charge the host
    less for phase 1 than the first run did)."""
    clear_executor_cache()
    return main(["run", *argv])


def _model(tmp_path):
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((64, 48)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.standard_normal((48,)).astype(np.float32), "b")
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [8, 64])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"]), helper.make_node("Add", ["h", "b"], ["a"]),
             helper.make_node("Relu", ["a"], ["r"]), helper.make_node("Softmax", ["r"], ["y"], axis=-1)]
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y], [w, b]), opset_imports=[helper.make_opsetid("", 13)])
    p = tmp_path / "m.onnx"
    onnx.save(m, p)
    return p


def _events(path):
    with open(path) as f:
        return json.load(f)["traceEvents"]


def test_timing_only_trace_equals_full_run(tmp_path, capsys):
    m = _model(tmp_path)
    full, timing, kern = tmp_path / "full.json", tmp_path / "timing.json", tmp_path / "kern.json"
    assert run(str(m), "--no-progress", "--chip", "tiny", "--trace", str(full)) == 0
    assert run(str(m), "--no-progress", "--chip", "tiny", "--trace", str(timing), "--timing-only") == 0
    assert run(str(m), "--no-progress", "--chip", "tiny", "--trace", str(kern), "--timing-only",
                 "--trace-level", "kernels") == 0
    ev_full, ev_t = _events(full), _events(timing)
    assert ev_full == ev_t and any(e.get("cat") == "pipe" for e in ev_full)
    # the kernels level keeps every non-pipe span, with the same times
    keep = [e for e in ev_full if e.get("ph") == "X" and e.get("cat") != "pipe"]
    assert [e for e in _events(kern) if e.get("ph") == "X"] == keep


def test_trace_level_off_writes_no_trace(tmp_path):
    m = _model(tmp_path)
    t = tmp_path / "t.json"
    # --trace FILE asks for a trace level off never writes: refused (exit 2), nothing written
    assert run(str(m), "--no-progress", "--chip", "tiny", "--trace", str(t), "--trace-level", "off",
               "--timing-only") == 2
    assert not t.exists()


def test_timing_only_refuses_save_outputs(tmp_path, capsys):
    m = _model(tmp_path)
    assert run(str(m), "--no-progress", "--timing-only", "--save-outputs", str(tmp_path / "o")) != 0
    cap = capsys.readouterr()
    assert "--timing-only" in cap.err + cap.out
