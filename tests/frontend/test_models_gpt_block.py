"""A GPT-style decoder block built with onnx.helper (opset 23: RMSNormalization,
RotaryEmbedding, Attention with GQA and is_causal, a SwiGLU MLP), random weights,
through the frontend runner that ``npu-sim run`` calls, on the tiny chip in both modes,
against the corrected reference evaluator. Graph mode fuses the residual Add +
RMSNormalization and the SwiGLU gate; the trace names their members."""
from __future__ import annotations

import json
import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend import profiling
from frontend.onnx_import import load_onnx
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner

B, S, H, HQ, HK, F = 1, 8, 32, 4, 2, 48
D = H // HQ


def gpt_block(seed: int = 0) -> onnx.ModelProto:
    rng = np.random.default_rng(seed)

    def w(*shape, s=0.2):
        return (rng.standard_normal(shape) * s).astype(np.float32)

    ang = np.arange(64)[:, None] / (10000 ** (np.arange(D // 2) / (D // 2)))[None, :]
    inits = {"g1": 1 + w(H, s=0.1), "g2": 1 + w(H, s=0.1), "wq": w(H, H), "wk": w(H, HK * D), "wv": w(H, HK * D),
             "wo": w(H, H), "wg": w(H, F), "wu": w(H, F), "wd": w(F, H),
             "cos": np.cos(ang).astype(np.float32), "sin": np.sin(ang).astype(np.float32)}
    n = helper.make_node
    nodes = [n("RMSNormalization", ["x", "g1"], ["h"], epsilon=1e-6),
             n("MatMul", ["h", "wq"], ["q"]), n("MatMul", ["h", "wk"], ["k"]), n("MatMul", ["h", "wv"], ["v"]),
             n("RotaryEmbedding", ["q", "cos", "sin", "pos"], ["qr"], num_heads=HQ),
             n("RotaryEmbedding", ["k", "cos", "sin", "pos"], ["kr"], num_heads=HK),
             n("Attention", ["qr", "kr", "v"], ["a"], is_causal=1, q_num_heads=HQ, kv_num_heads=HK),
             n("MatMul", ["a", "wo"], ["o"]), n("Add", ["x", "o"], ["x1"]),
             n("RMSNormalization", ["x1", "g2"], ["h2"], epsilon=1e-6),
             n("MatMul", ["h2", "wg"], ["gate"]), n("MatMul", ["h2", "wu"], ["up"]),
             n("Sigmoid", ["gate"], ["sg"]), n("Mul", ["gate", "sg"], ["silu"]), n("Mul", ["silu", "up"], ["m"]),
             n("MatMul", ["m", "wd"], ["d"]), n("Add", ["x1", "d"], ["y"])]
    g = helper.make_graph(nodes, "gpt_block",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [B, S, H]),
                           helper.make_tensor_value_info("pos", TensorProto.INT64, [B, S])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [B, S, H])],
                          [numpy_helper.from_array(a, k) for k, a in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 23)])
    m.ir_version = 10
    return m


def _feeds():
    r = np.random.default_rng(3)
    return {"x": r.standard_normal((B, S, H)).astype(np.float32), "pos": np.arange(3, 3 + S)[None, :].astype(np.int64)}


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_gpt_block_matches_the_reference_in_both_modes(npu, mode, tmp_path):
    m = gpt_block()
    feeds = _feeds()
    want = reference_evaluator(m).run(None, feeds)[0]
    runner = ModelRunner(load_onnx(m), mode=mode)
    runner.prepare()
    res = runner.run(feeds)
    got = res.outputs["y"]
    err = np.abs(got.astype(np.float64) - want).max() / np.abs(want).max()
    assert got.shape == want.shape and err < 1e-4, (mode, err)
    trace = tmp_path / "t.json"
    profiling.write_trace(trace, metadata={"mode": mode})
    ev = [e for e in json.loads(trace.read_text())["traceEvents"] if e.get("ph") == "X"]
    names = {e["name"] for e in ev}
    # 3-D Attention is decomposed (MatMul, Softmax, MatMul); RoPE runs on its own kernel in both modes
    assert {"ApplyRotaryPosEmb", "Softmax"} <= names, names
    fused = {tuple(e["args"]["fused"]) for e in ev if "fused" in e.get("args", {})}
    if mode == "graph":
        assert runner.passes["fuse_add_rms_norm"] == 1 and runner.passes["fuse_swiglu"] == 1
        assert ("Add", "RMSNormalization") in fused and ("MatMul", "MatMul", "Sigmoid", "Mul", "Mul") in fused
        assert {"AddRmsNorm", "SwiGlu", "RmsNorm"} <= names    # the first norm has no Add before it
    else:
        assert runner.passes == {} and "RmsNorm" in names and not {"AddRmsNorm", "SwiGlu"} & names


def test_gpt_block_through_the_cli(tmp_path, capsys):
    """``npu-sim run`` itself (graph mode, the default) checks the block against the reference."""
    from frontend.cli import main
    path = tmp_path / "gpt.onnx"
    onnx.save(gpt_block(), path)
    np.savez(tmp_path / "in.npz", **_feeds())
    rc = main(["run", str(path), "--inputs", str(tmp_path / "in.npz"), "--no-progress", "--trace", "",
               "--chip", "tiny"])
    out = capsys.readouterr().out
    assert rc == 0, out
    m = re.search(r"max rel err ([0-9.e+-]+) \(PASS", out)
    assert m and float(m.group(1)) < 1e-3, out
