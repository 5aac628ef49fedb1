"""Graph passes with incrementally kept producer/consumer maps
(``frontend.passes.util.NodeMaps``) rewrite a graph exactly as with both maps rebuilt
from the node list after every rewrite (the reference), on an LLM-style graph with a
rewrite per layer (decomposed RMSNorm, rotary on q and k, SwiGLU) and on a graph that
is not SSA; and the kept maps equal rebuilt ones after random rewrites."""
from __future__ import annotations

import copy
import random
from collections import Counter

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend.graph import Node
from frontend.onnx_import import load_onnx
from frontend.passes import apply_passes
from frontend.passes import util as pass_util
from frontend.passes.util import NodeMaps, consumers, producers

B, S, D, N, F = 1, 4, 16, 2, 24
f32 = np.float32


def _llm(layers: int, rng, duplicate_writer: bool = False):
    """``layers`` pre-norm decoder layers: RMSNorm (Pow/ReduceMean/Add/Sqrt/Div/Mul),
    q and k MatMuls with rotate-half rotary, a residual Add, RMSNorm, SwiGLU of two
    MatMuls, a residual Add. ``duplicate_writer``: one value written by two nodes."""
    hd = D // N
    nodes, inits = [], []

    def init(name, arr):
        inits.append(numpy_helper.from_array(arr, name))
        return name

    init("two", np.array(2.0, f32))
    init("eps", np.array(1e-6, f32))
    init("ax", np.array([-1], np.int64))
    init("shp4", np.array([B, S, N, hd], np.int64))
    init("shp3", np.array([B, S, D], np.int64))
    init("z", np.array([0], np.int64))
    init("h", np.array([hd // 2], np.int64))
    init("big", np.array([2 ** 62], np.int64))
    ang = rng.uniform(-3, 3, (1, 1, S, hd)).astype(f32)
    init("cos", np.cos(ang))
    init("sin", np.sin(ang))

    def mk(op, ins, outs, **kw):
        nodes.append(helper.make_node(op, ins, outs, name=outs[0], **kw))
        return outs[0]

    def rms(x, p):
        g = init(p + "g", rng.standard_normal(D).astype(f32))
        mk("Pow", [x, "two"], [p + "sq"])
        mk("ReduceMean", [p + "sq"], [p + "ms"], axes=[-1], keepdims=1)
        mk("Add", [p + "ms", "eps"], [p + "v"])
        mk("Sqrt", [p + "v"], [p + "s"])
        mk("Div", [x, p + "s"], [p + "n"])
        return mk("Mul", [p + "n", g], [p + "y"])

    def rope(x, p):
        mk("Slice", [x, "z", "h", "ax"], [p + "x1"])
        mk("Slice", [x, "h", "big", "ax"], [p + "x2"])
        mk("Neg", [p + "x2"], [p + "nx2"])
        mk("Concat", [p + "nx2", p + "x1"], [p + "rot"], axis=-1)
        mk("Mul", [x, "cos"], [p + "p1"])
        mk("Mul", [p + "rot", "sin"], [p + "p2"])
        return mk("Add", [p + "p1", p + "p2"], [p + "r"])

    def mm(x, p, k, n):
        return mk("MatMul", [x, init(p + "w", (rng.standard_normal((k, n)) * 0.1).astype(f32))], [p + "o"])

    h = "x"
    for layer in range(layers):
        p = f"l{layer}_"
        y = rms(h, p + "n1")
        qk = []
        for t in ("q", "k"):
            o = mm(y, p + t, D, D)
            mk("Reshape", [o, "shp4"], [p + t + "4"])
            mk("Transpose", [p + t + "4"], [p + t + "t"], perm=[0, 2, 1, 3])
            qk.append(rope(p + t + "t", p + t + "rope"))
        mk("Add", qk, [p + "att"])
        mk("Transpose", [p + "att"], [p + "att_t"], perm=[0, 2, 1, 3])
        mk("Reshape", [p + "att_t", "shp3"], [p + "att3"])
        mid = mk("Add", [h, mm(p + "att3", p + "o", D, D)], [p + "mid"])
        y2 = rms(mid, p + "n2")
        g, u = mm(y2, p + "g", D, F), mm(y2, p + "u", D, F)
        mk("Sigmoid", [g], [p + "sg"])
        mk("Mul", [g, p + "sg"], [p + "si"])
        mk("Mul", [p + "si", u], [p + "gu"])
        h = mk("Add", [mid, mm(p + "gu", p + "d", F, D)], [p + "out"])
    if duplicate_writer:   # a second writer of layer 0's first norm output
        mk("Relu", ["x"], ["l0_n1y"])
    graph = helper.make_graph(nodes, "llm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [B, S, D])],
                              [helper.make_tensor_value_info(h, TensorProto.FLOAT, [B, S, D])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _sig(n: Node):
    attrs = {k: ([_sig(m) for m in v] if k == "members" else repr(v)) for k, v in sorted(n.attrs.items())}
    return n.op_type, n.name, tuple(n.inputs), tuple(n.outputs), tuple(attrs.items())


def _immediate(self, at, new, drop):
    """The reference rewrite: the node list edited at once, both maps rebuilt from it."""
    i = next(j for j, n in enumerate(self.g.nodes) if n is at)
    self.g.nodes[i:i + 1] = new
    gone = {id(n) for n in drop}
    self.g.nodes[:] = [n for n in self.g.nodes if id(n) not in gone]
    self.rebuild()


def _rebuild_every_time(monkeypatch):
    monkeypatch.setattr(NodeMaps, "rewrite", _immediate)


@pytest.mark.parametrize("duplicate_writer", [False, True])
def test_passes_match_maps_rebuilt_after_every_rewrite(duplicate_writer, monkeypatch):
    g = load_onnx(_llm(3, np.random.default_rng(0), duplicate_writer), meta_only=True)
    fast, done = apply_passes(g)
    with monkeypatch.context() as m:
        _rebuild_every_time(m)
        ref, ref_done = apply_passes(g)
    assert done == ref_done
    assert [_sig(n) for n in fast.nodes] == [_sig(n) for n in ref.nodes]
    assert sorted(fast.constants) == sorted(ref.constants) and fast.shapes == ref.shapes
    if not duplicate_writer:
        assert done["fuse_rms_norm"] == 6 and done["fuse_rotary"] == 6 + 3 and done["fuse_swiglu"] == 3


def _same_maps(maps: NodeMaps, g) -> bool:
    fresh_cons = consumers(g)
    names = {k for k, v in maps.cons.items() if v} | set(fresh_cons)
    return maps.prod == producers(g) and all(Counter(map(id, maps.cons.get(k, []))) ==
                                             Counter(map(id, fresh_cons.get(k, []))) for k in names)


@pytest.mark.parametrize("seed", range(6))
def test_node_maps_follow_random_rewrites(seed):
    """Replace random runs of original nodes by one or two new nodes reading the run's
    outside inputs (one twice) and writing its last output: after each rewrite the kept
    maps equal fresh ones of the reference node list, and the flushed node list is it."""
    rng = random.Random(seed)
    g = load_onnx(_llm(2, np.random.default_rng(seed)), meta_only=True)
    ref = copy.copy(g)
    ref.nodes = list(g.nodes)
    maps = NodeMaps(g)
    touched: set[int] = set()
    for k in range(15):
        i = rng.randrange(len(ref.nodes))
        run = ref.nodes[i:i + rng.randint(1, 4)]
        if any(id(n) in touched for n in run):   # (a pass never rewrites a node a rewrite put in)
            continue
        touched.update(id(n) for n in run)
        inner = {o for n in run for o in n.outputs}
        ins = [x for n in run for x in n.inputs if x and x not in inner]
        out = run[-1].outputs[0]
        if rng.random() < 0.5:
            new = [Node("Fused", f"f{k}", ins + ins[:1], [out])]
        else:
            new = [Node("Fused", f"f{k}", ins + ins[:1], [f"f{k}_mid"]), Node("Id", f"f{k}b", [f"f{k}_mid"], [out])]
        touched.update(id(n) for n in new)
        ref.nodes[i:i + len(run)] = new
        at = rng.choice(run)
        maps.rewrite(at, new, [n for n in run if n is not at])
        assert _same_maps(maps, ref)
    maps.flush()
    assert [id(n) for n in g.nodes] == [id(n) for n in ref.nodes]


def test_node_maps_rebuild_for_a_second_writer():
    g = load_onnx(_llm(1, np.random.default_rng(1)), meta_only=True)
    maps = NodeMaps(g)
    last = g.nodes[-1]
    extra = Node("Relu", "again", ["x"], [g.nodes[3].outputs[0]])   # a value written twice from now on
    maps.rewrite(last, [last, extra], [])
    assert not maps.ssa and maps.prod[extra.outputs[0]] is extra and _same_maps(maps, g)
    assert g.nodes[-2:] == [last, extra] and pass_util.producers(g)[extra.outputs[0]] is extra
