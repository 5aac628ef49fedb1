"""keep_nc1hwc0: which convolutions and pointwise ops stay NC1HWC0, where the
TransData nodes go, and that numbers match the reference in both modes with the
TransData kernels in the trace (eager: inside every aclnnConvolution)."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper

from frontend.passes import apply_passes, keep_nc1hwc0, pass_names
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner
from acl_runtime.runtime import runtime
from opsnn.transform.trans_data import fractal_z_shape, oihw_to_fractal_z

from .graphs import graph, model, ops

S = [1, 4, 8, 8]


def _net(rng, mid=("Relu",), pool=True, extra_out=False):
    """x -> Conv(3x3) -> mid ops -> Conv(1x1) -> Add(residual) -> [MaxPool] -> Conv -> y."""
    f = np.float32
    inits = [("w1", rng.standard_normal((4, 3, 3, 3)).astype(f)), ("w2", rng.standard_normal((4, 4, 1, 1)).astype(f)),
             ("w3", rng.standard_normal((6, 4, 1, 1)).astype(f)), ("k", rng.uniform(1, 2, (4, 1, 1)).astype(f))]
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1], name="conv1")]
    cur = "c1"
    for i, op in enumerate(mid):
        ins = [cur, "k"] if op in ("Mul", "Div") else [cur]
        nodes.append(helper.make_node(op, ins, [f"m{i}"], name=f"mid{i}"))
        cur = f"m{i}"
    nodes += [helper.make_node("Conv", [cur, "w2"], ["c2"], name="conv2"),
              helper.make_node("Add", ["c2", cur], ["s"], name="add")]
    last = "s"
    if pool:
        nodes.append(helper.make_node("MaxPool", ["s"], ["p"], kernel_shape=[2, 2], strides=[2, 2], name="pool"))
        last = "p"
    nodes.append(helper.make_node("Conv", [last, "w3"], ["y"], name="conv3"))
    hw = 4 if pool else 8
    outs = [("y", [1, 6, hw, hw])] + ([("c1", S)] if extra_out else [])
    return model(nodes, [("x", [1, 3, 8, 8])], outs, inits)


def test_five_d_between_convs_trans_data_at_the_edges(rng):
    g = graph(_net(rng))
    w1 = np.asarray(g.constants["w1"])
    assert keep_nc1hwc0(g) == 3
    assert ops(g) == ["TransData", "Conv", "Relu", "Conv", "Add", "TransData", "MaxPool", "TransData", "Conv",
                      "TransData"]
    n = {x.name: x for x in g.nodes}
    assert n["x__to_nc1hwc0"].attrs == {"dst_format": "NC1HWC0", "shape": [1, 3, 8, 8], "c0": 8}   # fp32: C0 = 8
    assert n["mid0"].inputs == ["c1__nc1hwc0"] and n["add"].inputs == ["c2__nc1hwc0", "m0__nc1hwc0"]
    assert n["s__to_nchw"].outputs == ["s"] and n["pool"].inputs == ["s"]           # MaxPool reads NCHW
    assert n["y__to_nchw"].outputs == ["y"] and g.outputs == ["y"]
    conv1 = n["conv1"]
    assert conv1.attrs["formats"] == "NC1HWC0" and conv1.attrs["weight_shape"] == [4, 3, 3, 3]
    wz = g.constants[conv1.inputs[1]]
    assert wz.shape == fractal_z_shape((4, 3, 3, 3), 8) == (9, 1, 16, 8)
    np.testing.assert_array_equal(wz, oihw_to_fractal_z(w1, 8))
    assert g.shapes["c1__nc1hwc0"] == (1, 1, 8, 8, 8)


def test_not_kept_five_d(rng):
    # Div of the pads (0 / 0) could be NaN; a [C, 1, 1] broadcast is per channel: both go back to NCHW
    for mid in (("Div",), ("Mul",)):
        g = graph(_net(rng, mid=mid, pool=False))
        keep_nc1hwc0(g)
        n = {x.name: x for x in g.nodes}
        assert n["mid0"].inputs[0] == "c1" and "c1__to_nchw" in n and "m0__to_nc1hwc0" in n, mid
    # a grouped conv and a 1-D conv stay NCHW: nothing to do
    w = rng.standard_normal((4, 2, 3, 3)).astype(np.float32)
    gg = graph(model([helper.make_node("Conv", ["x", "w"], ["y"], group=2, pads=[1, 1, 1, 1])], [("x", S)],
                     [("y", S)], [("w", w)]))
    assert keep_nc1hwc0(gg) == 0 and ops(gg) == ["Conv"]
    w1 = rng.standard_normal((4, 4, 3)).astype(np.float32)
    g1 = graph(model([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1])], [("x", [1, 4, 8])],
                     [("y", [1, 4, 8])], [("w", w1)]))
    assert keep_nc1hwc0(g1) == 0 and ops(g1) == ["Conv"]


def test_a_five_d_value_that_is_also_a_graph_output_gets_one_trans_data(rng):
    g = graph(_net(rng, extra_out=True))
    keep_nc1hwc0(g)
    n = {x.name: x for x in g.nodes}
    assert n["c1__to_nchw"].outputs == ["c1"] and n["mid0"].inputs == ["c1__nc1hwc0"]
    assert [x.outputs[0] for x in g.nodes].count("c1") == 1


def test_registered_last_and_can_be_disabled(rng):
    assert pass_names()[-1] == "keep_nc1hwc0"
    g, done = apply_passes(graph(_net(rng)), "graph", disabled=["keep_nc1hwc0"])
    assert "TransData" not in ops(g) and "keep_nc1hwc0" not in done


def _run(m, mode, **kw):
    runner = ModelRunner(graph(m), mode=mode, **kw)
    runner.prepare()
    first = len(runtime().kernel_records())
    x = np.random.default_rng(3).standard_normal((1, 3, 8, 8)).astype(np.float32)
    res = runner.run({"x": x})
    return res.outputs["y"], [r["name"] for r in runtime().kernel_records(first)], x


def test_numbers_match_the_reference_and_the_trace_names_trans_data(npu, rng):
    m = _net(rng)
    ref_sess = reference_evaluator(onnx.load_from_string(m.SerializeToString()))
    for mode, want in (("graph", 4), ("eager", 3 * 3)):   # eager: input, weight, output of each of 3 convs
        y, names, x = _run(m, mode)
        ref = ref_sess.run(None, {"x": x})[0]
        np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4, err_msg=mode)
        assert names.count("TransData") == want, (mode, names)
