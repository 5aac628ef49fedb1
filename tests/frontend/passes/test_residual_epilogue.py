"""fuse_cube_epilogue's residual add: Conv [+BN] -> Add/Sum(other) [-> Relu] as one
FusedConv, what it must not match, the NC1HWC0 treatment of the added operand, and the
numbers in both modes (and with keep_nc1hwc0 off)."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from frontend.passes import apply_passes, fuse_cube_epilogue
from frontend.reference import reference_evaluator

from .graphs import bn_inits, bn_node, graph, model, ops

S = [1, 4, 6, 6]


def _block(rng, tail, outputs=(("y", S),), inputs=(("x", [1, 3, 6, 6]), ("r", S)), first=None, bn=True):
    """x -> Conv(w) [-> BN] -> c; then ``tail`` nodes (``first``: nodes before the Conv)."""
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    nodes = list(first or []) + [helper.make_node("Conv", ["x", "w"], ["c0" if bn else "c"], name="conv",
                                                  pads=[1, 1, 1, 1])]
    inits = [("w", w)]
    if bn:
        nodes.append(bn_node("c0", "c"))
        inits += bn_inits(4, rng)
    return graph(model(nodes + list(tail), list(inputs), list(outputs), inits))


def _relu_add(a="c", b="r", op="Add"):
    return [helper.make_node(op, [a, b], ["s"], name="add"), helper.make_node("Relu", ["s"], ["y"], name="relu")]


def test_conv_bn_add_relu_becomes_one_fused_conv(rng):
    for op, order in (("Add", ("c", "r")), ("Sum", ("r", "c"))):
        g, done = apply_passes(_block(rng, _relu_add(*order, op=op)), "graph")
        fc = [n for n in g.nodes if n.op_type == "FusedConv"]
        assert ops(g) == ["TransData", "TransData", "FusedConv", "TransData"], ops(g)
        a = fc[0].attrs
        assert a["fused"] == ["Conv", "BatchNormalization", op, "Relu"] and a["residual"] and a["activation"] == "relu"
        # the added operand is read in the output's format: a TransData to NC1HWC0 for the NCHW input r
        assert fc[0].inputs[2] == "conv__bn_folded_b" and fc[0].inputs[3] == "r__nc1hwc0" and a["formats"] == "NC1HWC0"
        assert done["fuse_cube_epilogue"] == 1   # one fusion: the Add (or Sum) and its Relu


def test_add_alone_is_the_end_and_may_have_several_consumers(rng):
    g = _block(rng, [helper.make_node("Add", ["c", "r"], ["y"]), helper.make_node("Neg", ["y"], ["z"])],
               outputs=(("y", S), ("z", S)), bn=False)
    assert fuse_cube_epilogue(g) == 1
    fc = g.nodes[0]
    assert fc.op_type == "FusedConv" and fc.attrs["activation"] == "none" and fc.outputs == ["y"]
    assert ops(g) == ["FusedConv", "Neg"]


def test_no_bias_leaves_an_empty_bias_slot(rng):
    g = _block(rng, _relu_add(), bn=False)
    assert fuse_cube_epilogue(g) == 1 and g.nodes[0].inputs == ["x", "w", "", "r"]


def test_fused_node_moves_after_the_producer_of_other(rng):
    """ONNX order puts the shortcut's producer after the Conv: the fused node takes the Add's place."""
    tail = [helper.make_node("Neg", ["r"], ["rn"], name="neg")] + _relu_add(b="rn")
    g = _block(rng, tail, bn=False)
    fuse_cube_epilogue(g)
    assert ops(g) == ["Neg", "FusedConv"] and g.nodes[1].inputs[3] == "rn"


def test_two_conv_outputs_added_fuse_into_one_of_them(rng):
    w2 = rng.standard_normal((4, 3, 1, 1)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), helper.make_node("Conv", ["x", "w2"], ["d"])]
    nodes += _relu_add("c", "d")
    g = graph(model(nodes, [("x", [1, 3, 6, 6])], [("y", S)],
                    [("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)), ("w2", w2)]))
    fuse_cube_epilogue(g)
    assert ops(g) == ["Conv", "FusedConv"] and g.nodes[1].inputs[3] == "d"
    g2, _ = apply_passes(graph(model(nodes, [("x", [1, 3, 6, 6])], [("y", S)],
                                     [("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)), ("w2", w2)])))
    # the other conv's output stays 5-D: no TransData between the two convolutions
    assert ops(g2) == ["TransData", "Conv", "FusedConv", "TransData"]


def test_not_matched(rng):
    # other operand produced by this same conv: Add(c, c)
    g = _block(rng, _relu_add("c", "c"), bn=False)
    assert fuse_cube_epilogue(g) == 0 and "Add" in ops(g)
    # broadcast: other is [1, 4, 1, 1]
    g = _block(rng, _relu_add(), inputs=(("x", [1, 3, 6, 6]), ("r", [1, 4, 1, 1])), bn=False)
    assert fuse_cube_epilogue(g) == 0
    # the conv's output has another consumer
    g = _block(rng, _relu_add() + [helper.make_node("Neg", ["c"], ["z"])], outputs=(("y", S), ("z", S)), bn=False)
    assert fuse_cube_epilogue(g) == 0
    # the conv's output is a graph output
    g = _block(rng, _relu_add(), outputs=(("y", S), ("c", S)), bn=False)
    assert fuse_cube_epilogue(g) == 0
    # a constant other (a bias-like full tensor) and a three-input Sum
    g = graph(model([helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1])] + _relu_add(b="k"),
                    [("x", [1, 3, 6, 6])], [("y", S)],
                    [("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)),
                     ("k", rng.standard_normal(S).astype(np.float32))]))
    assert fuse_cube_epilogue(g) == 0
    g = _block(rng, [helper.make_node("Sum", ["c", "r", "r"], ["y"])], bn=False)
    assert fuse_cube_epilogue(g) == 0
    # Conv -> Relu -> Add: the activation came first, so the Add is not the conv's epilogue
    g = _block(rng, [helper.make_node("Relu", ["c"], ["a"]), helper.make_node("Add", ["a", "r"], ["y"])], bn=False)
    assert fuse_cube_epilogue(g) == 1 and ops(g) == ["FusedConv", "Add"] and not g.nodes[0].attrs.get("residual")


def test_the_add_with_two_consumers_keeps_its_relu_apart(rng):
    g = _block(rng, _relu_add() + [helper.make_node("Neg", ["s"], ["z"])], outputs=(("y", S), ("z", S)), bn=False)
    fuse_cube_epilogue(g)
    assert ops(g) == ["FusedConv", "Relu", "Neg"] and g.nodes[0].outputs == ["s"]
    assert g.nodes[0].attrs["activation"] == "none"


@pytest.mark.parametrize("disabled", [(), ("keep_nc1hwc0",)])
def test_numbers_match_the_reference_in_both_modes(npu, rng, disabled):
    """A bottleneck-like pair: Conv+BN+Relu, then Conv+BN + shortcut Conv, Sum, Relu."""
    f = np.float32
    inits = [("w1", rng.standard_normal((4, 3, 3, 3)).astype(f)), ("w2", rng.standard_normal((4, 4, 3, 3)).astype(f)),
             ("w3", rng.standard_normal((4, 3, 1, 1)).astype(f))] + bn_inits(4, rng, "a") + bn_inits(4, rng, "b")
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]), bn_node("c1", "n1", "a"),
             helper.make_node("Relu", ["n1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1]), bn_node("c2", "n2", "b"),
             helper.make_node("Conv", ["x", "w3"], ["sc"]),
             helper.make_node("Sum", ["n2", "sc"], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    m = model(nodes, [("x", [1, 3, 6, 6])], [("y", S)], inits)
    feeds = {"x": rng.standard_normal((1, 3, 6, 6)).astype(f)}
    ref = reference_evaluator(m).run(None, feeds)[0]
    g = graph(m)
    res = {}
    from frontend.runner import ModelRunner
    for mode in ("eager", "graph"):
        runner = ModelRunner(g, mode=mode, disable_passes=disabled if mode == "graph" else ())
        runner.prepare()
        res[mode] = runner.run(feeds)
        got = res[mode].outputs["y"]
        assert np.abs(got - ref).max() <= 1e-4 * np.abs(ref).max(), (mode, disabled)
    assert res["graph"].calls < res["eager"].calls
