"""fuse_rms_norm: the decomposed RMSNorm forms it matches, the ones it must not, that
fuse_add_rms_norm then takes a residual Add in front of it, and the numbers against
the reference in both modes."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from frontend.onnx_import import load_onnx
from frontend.passes import apply_passes, fuse_rms_norm, pass_names
from frontend.reference import reference_evaluator

from .graphs import graph, model, ops, run_modes

S = [2, 5, 8]
f = np.float32


def _rms(x="x", y="y", *, square="pow", div="div", axes=(-1,), eps=("eps", 1e-6), gamma="g", keepdims=1,
         sq_of=None, opset=18, extra=None):
    """x -> decomposed RMSNorm -> y; names of intermediates: sq, ms, v, s, [r], n."""
    sq_of = sq_of or x
    nodes = [helper.make_node("Pow", [sq_of, "two"], ["sq"]) if square == "pow" else
             helper.make_node("Mul", [sq_of, sq_of], ["sq"])]
    if opset >= 18:
        nodes.append(helper.make_node("ReduceMean", ["sq", "axes"], ["ms"], keepdims=keepdims))
    else:
        nodes.append(helper.make_node("ReduceMean", ["sq"], ["ms"], axes=list(axes), keepdims=keepdims))
    nodes += [helper.make_node("Add", ["ms", eps[0]], ["v"]), helper.make_node("Sqrt", ["v"], ["s"])]
    if div == "div":
        nodes.append(helper.make_node("Div", [x, "s"], ["n"]))
    elif div == "reciprocal":
        nodes += [helper.make_node("Reciprocal", ["s"], ["r"]), helper.make_node("Mul", ["r", x], ["n"])]
    else:                                                    # Div(1, s)
        nodes += [helper.make_node("Div", ["one", "s"], ["r"]), helper.make_node("Mul", [x, "r"], ["n"])]
    nodes.append(helper.make_node("Mul", [gamma, "n"], [y], name="gamma_mul"))
    inits = [("two", np.array(2.0, f)), ("one", np.array(1.0, f)),
             ("g", np.linspace(0.5, 1.5, S[-1]).astype(f))]
    if opset >= 18:
        inits.append(("axes", np.array(list(axes), np.int64)))
    if eps[1] is not None:
        inits.append((eps[0], np.asarray(eps[1], f)))
    return nodes, inits


def _model(nodes, inits, inputs=(("x", S),), outputs=(("y", S),), opset=18):
    return model(nodes, list(inputs), list(outputs), inits, opset=opset)


@pytest.mark.parametrize("square", ["pow", "mul"])
@pytest.mark.parametrize("div", ["div", "reciprocal", "one_over"])
def test_each_decomposed_form_is_one_rms_normalization(square, div):
    g = graph(_model(*_rms(square=square, div=div)))
    assert fuse_rms_norm(g) == 1
    n, = g.nodes
    assert n.op_type == "RMSNormalization" and n.inputs == ["x", "g"] and n.outputs == ["y"]
    assert n.attrs["axis"] == -1 and n.attrs["stash_type"] == 1 and n.attrs["epsilon"] == pytest.approx(1e-6)
    assert n.attrs["fused"][0] == ("Pow" if square == "pow" else "Mul") and n.attrs["fused"][-1] == "Mul"
    assert "ReduceMean" in n.attrs["fused"] and "Sqrt" in n.attrs["fused"]


def test_axes_as_attribute_rank_minus_one_and_a_reshaped_gamma():
    nodes, inits = _rms(axes=(2,), opset=13)
    inits = [(k, v.reshape(1, 1, -1) if k == "g" else v) for k, v in inits]
    g = graph(_model(nodes, inits, opset=13))
    assert fuse_rms_norm(g) == 1
    n, = g.nodes
    assert g.constants[n.inputs[1]].shape == (8,)


def test_not_matched_mean_over_another_axis_several_axes_or_keepdims_0():
    assert fuse_rms_norm(graph(_model(*_rms(axes=(1,))))) == 0
    assert fuse_rms_norm(graph(_model(*_rms(axes=(-2, -1))))) == 0
    nodes, inits = _rms(keepdims=0)
    nodes[-3:] = [helper.make_node("Unsqueeze", ["s", "axes"], ["s1"]), helper.make_node("Div", ["x", "s1"], ["n"]),
                  nodes[-1]]
    assert fuse_rms_norm(graph(_model(nodes, inits))) == 0


def test_not_matched_eps_not_a_scalar_constant():
    nodes, inits = _rms(eps=("eps", np.full(8, 1e-6, f)))
    assert fuse_rms_norm(graph(_model(nodes, inits))) == 0       # eps a vector
    nodes, inits = _rms(eps=("e", None))
    g = graph(_model(nodes, inits, inputs=(("x", S), ("e", [1]))))
    assert fuse_rms_norm(g) == 0                                  # eps a runtime input


def test_not_matched_an_intermediate_with_a_second_consumer_or_a_graph_output():
    for name in ("sq", "ms", "v", "s", "n"):
        nodes, inits = _rms()
        nodes.append(helper.make_node("Neg", [name], ["z"]))
        shape = S if name in ("sq", "n") else S[:-1] + [1]
        g = graph(_model(nodes, inits, outputs=(("y", S), ("z", shape))))
        assert fuse_rms_norm(g) == 0, name
    nodes, inits = _rms()
    assert fuse_rms_norm(graph(_model(nodes, inits, outputs=(("y", S), ("s", S[:-1] + [1]))))) == 0


def test_not_matched_squaring_another_tensor_another_exponent_or_a_runtime_gamma_of_another_shape():
    nodes, inits = _rms(sq_of="x2")
    assert fuse_rms_norm(graph(_model(nodes, inits, inputs=(("x", S), ("x2", S))))) == 0
    nodes, inits = _rms()
    inits = [(k, np.array(3.0, f) if k == "two" else v) for k, v in inits]
    assert fuse_rms_norm(graph(_model(nodes, inits))) == 0
    nodes, inits = _rms(gamma="gr")
    assert fuse_rms_norm(graph(_model(nodes, inits, inputs=(("x", S), ("gr", [5, 8]))))) == 0


def _residual_model():
    nodes, inits = _rms(x="h")
    return _model([helper.make_node("Add", ["a", "b"], ["h"])] + nodes, inits,
                  inputs=(("a", S), ("b", S)), outputs=(("y", S), ("h", S)))


def test_runs_before_fuse_add_rms_norm_which_takes_the_residual_add():
    names = pass_names()
    assert names.index("fuse_rms_norm") < names.index("fuse_add_rms_norm")
    g, done = apply_passes(load_onnx(_residual_model()), "graph")
    assert done["fuse_rms_norm"] == 1 and done["fuse_add_rms_norm"] == 1
    n, = g.nodes
    assert n.op_type == "FusedAddRmsNorm" and n.outputs == ["y", "h"]
    assert n.attrs["fused"] == ["Add", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul"]
    g, done = apply_passes(load_onnx(_residual_model()), "graph", ["fuse_rms_norm"])
    assert "FusedAddRmsNorm" not in ops(g)


@pytest.mark.parametrize("div", ["div", "reciprocal"])
def test_numbers_match_the_reference_in_both_modes(npu, rng, div):
    nodes, inits = _rms(x="h", div=div, eps=("eps", 1e-3))
    m = _model([helper.make_node("Add", ["a", "b"], ["h"])] + nodes, inits, inputs=(("a", S), ("b", S)),
               outputs=(("y", S), ("h", S)))
    feeds = {"a": rng.standard_normal(S).astype(f), "b": rng.standard_normal(S).astype(f)}
    ref = reference_evaluator(m).run(None, feeds)
    g = load_onnx(m)
    got = run_modes(g, feeds)
    for mode, res in got.items():
        for name, r in zip(g.outputs, ref):
            np.testing.assert_allclose(res.outputs[name], r, rtol=1e-4, atol=1e-5, err_msg=f"{mode} {name}")
    assert got["graph"].calls == 1 < got["eager"].calls
