"""fuse_elementwise: maximal pointwise chains with one output, cut where they must be."""
from __future__ import annotations

import numpy as np
from onnx import helper

from frontend.passes import fuse_elementwise

from .graphs import graph, model, ops

S = [2, 3, 4]


def _g(nodes, outputs=(("y", S),), inputs=(("a", S), ("b", S))):
    return graph(model(nodes, list(inputs), list(outputs), [("half", np.float32(0.5)), ("one", np.float32(1.0))]))


def test_residual_add_relu_is_one_node():
    g = _g([helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Relu", ["s"], ["y"])])
    assert fuse_elementwise(g) == 1
    n, = g.nodes
    assert n.op_type == "FusedElementwise" and n.inputs == ["a", "b"] and n.outputs == ["y"]
    assert n.attrs["fused"] == ["Add", "Relu"] and n.attrs["steps"] == [("Add", (0, 1), ()), ("Relu", (2,), ())]


def test_gelu_chain_reuses_its_input_once():
    g = _g([helper.make_node("Div", ["a", "one"], ["d"]), helper.make_node("Erf", ["d"], ["e"]),
            helper.make_node("Add", ["e", "one"], ["p"]), helper.make_node("Mul", ["a", "p"], ["m"]),
            helper.make_node("Mul", ["m", "half"], ["y"])], inputs=(("a", S),))
    assert fuse_elementwise(g) == 1
    assert g.nodes[0].inputs == ["a", "one", "half"] and len(g.nodes[0].attrs["steps"]) == 5


def test_a_chain_with_two_outputs_is_cut():
    g = _g([helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Relu", ["s"], ["r"]),
            helper.make_node("Sqrt", ["r"], ["y"])], outputs=(("y", S), ("s", S)))
    assert fuse_elementwise(g) == 1
    assert ops(g) == ["Add", "FusedElementwise"] and g.nodes[1].attrs["fused"] == ["Relu", "Sqrt"]
    g = _g([helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Relu", ["s"], ["y"]),
            helper.make_node("Sqrt", ["s"], ["z"])], outputs=(("y", S), ("z", S)))
    assert fuse_elementwise(g) == 0


def test_non_members_shape_changes_and_single_ops_are_left_alone():
    g = _g([helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Sigmoid", ["s"], ["y"])])
    assert fuse_elementwise(g) == 0
    g = _g([helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Add", ["s", "c"], ["y"])],
           inputs=(("a", [1, 3, 4]), ("b", [1, 3, 4]), ("c", [2, 1, 1])))
    assert fuse_elementwise(g) == 0


def test_live_tile_limit_splits_the_chain():
    names = ["a", "b", "c", "d", "e"]
    nodes = [helper.make_node("Add", ["a", "b"], ["s0"])] + [
        helper.make_node("Add", [f"s{i}", names[i + 2]], [f"s{i + 1}" if i < 2 else "y"]) for i in range(3)]
    g = _g(nodes, inputs=[(n, S) for n in names])
    # a, b, c streamed + s0 + out = 5 live tiles for the first two Adds; the third would need d and
    # a row for s1 (7 > 6), so the last two Adds (s1, d, e: 5) are a chain of their own
    assert fuse_elementwise(g, max_live=6) == 2
    assert all(n.op_type == "FusedElementwise" for n in g.nodes)
    g = _g(nodes, inputs=[(n, S) for n in names])
    assert fuse_elementwise(g) == 1                  # the default limit holds 5 inputs + 1 + 1
