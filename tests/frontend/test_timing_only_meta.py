"""Timing-only runs hold weight metadata only (issue 17, :mod:`frontend.meta_const`).

A graph loaded with ``meta_only=True`` keeps its big float weights as zero-stride
placeholders through load and the graph-mode passes; simulated on a timing-only device
it gives exactly the simulated ns of the full run (real weights, a device holding
data); its load holds far less host memory than the weights' bytes; constants that
something reads by value stay real; a placeholder never reaches a device holding data.
"""
from __future__ import annotations

import os
import tracemalloc

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from acl_runtime import acl
from frontend import profiling
from frontend.cli.common import load_graph, resolve_model
from frontend.meta_const import META_MIN_BYTES, MetaConstantError, host_bytes, is_placeholder
from frontend.model_zoo import light_model_path, light_models, minilm_model_path
from frontend.onnx_import import load_onnx
from frontend.passes import apply_passes
from frontend.runner import ModelRunner
from opsnn.base.cache import clear_executor_cache

RUN_SLOW = os.environ.get("NPU_SIM_SLOW_MODELS", "") not in ("", "0")
#: light models whose two runs (full and timing-only) take a few seconds
FAST = ["light_squeezenet", "light_shufflenet", "light_resnet50"]
SLOW = ["light_bvlc_alexnet", "light_zfnet512", "light_inception_v1", "light_inception_v2", "light_densenet121",
        "light_vgg19"]


def _feeds(proto) -> dict:
    """Random feeds for the model's runtime inputs; dynamic dims pinned to batch 2,
    sequence 16."""
    rng = np.random.default_rng(0)
    out = {}
    inits = {i.name for i in proto.graph.initializer}
    for vi in proto.graph.input:
        if vi.name in inits:
            continue
        name, tt = vi.name, vi.type.tensor_type
        dtype = helper.tensor_dtype_to_np_dtype(tt.elem_type)
        shape = tuple(d.dim_value if d.HasField("dim_value") else (2 if k == 0 else 16)
                      for k, d in enumerate(tt.shape.dim))
        if np.dtype(dtype).kind == "f":
            out[name] = rng.standard_normal(shape).astype(dtype)
        elif "mask" in name:
            out[name] = np.ones(shape, dtype)
        elif "type" in name:
            out[name] = np.zeros(shape, dtype)
        else:
            out[name] = rng.integers(1000, 9000, size=shape).astype(dtype)
    return out


def _simulate(graph, feeds, timing_only: bool) -> float:
    """Simulated ns of one graph-mode run (planned memory) on ascend910b2."""
    clear_executor_cache()
    if profiling.acl_initialized():
        acl.finalize()
    assert acl.init(chip="ascend910b2", timing_only=timing_only) == 0 and acl.rt.set_device(0) == 0
    try:
        runner = ModelRunner(graph, mode="graph", memory="planned")
        runner.prepare()
        return runner.run(feeds).device_ns
    finally:
        acl.finalize()


def _model_path(name: str):
    if name == "minilm":
        if minilm_model_path() is None:
            pytest.skip("MiniLM needs the optional extra `models`")
        return resolve_model("minilm")
    if name not in light_models():
        pytest.skip(f"{name} is not shipped by the installed onnx")
    return light_model_path(name + ".onnx")


@pytest.mark.parametrize("name", FAST + ["minilm"] + [pytest.param(n, marks=pytest.mark.skipif(
    not RUN_SLOW, reason="slow; set NPU_SIM_SLOW_MODELS=1")) for n in SLOW])
def test_timing_only_meta_graph_simulates_the_full_runs_ns(name):
    """Exact equality: placeholders change no shape, dtype or pass decision."""
    proto = onnx.load(str(_model_path(name)))
    feeds = _feeds(proto)
    real = load_graph(proto, overrides=feeds)
    meta = load_graph(proto, overrides=feeds, timing_only=True)
    full_ns = _simulate(real, feeds, timing_only=False)
    meta_ns = _simulate(meta, feeds, timing_only=True)
    assert meta_ns == full_ns
    # the big constants are placeholders (no data bytes), before and after the passes
    # (a pass may make a big constant from a small real one: ResNet-50's 7x7 stem weight padded to FRACTAL_Z)
    # (a constant folded away at load may have been made real for the fold: MiniLM's position table)
    read = {i for n in meta.nodes for i in n.inputs}
    big = [a for k, a in meta.constants.items()
           if k in read and a.nbytes >= META_MIN_BYTES and a.ndim >= 2 and a.dtype.kind == "f"]
    assert big and all(is_placeholder(a) for a in big)
    for g in (meta, apply_passes(meta, "graph")[0]):
        assert host_bytes(g.constants) < sum(a.nbytes for a in g.constants.values()) / 4


def test_timing_only_load_holds_far_less_than_the_weights():
    """A timing-only AlexNet load (its ~240 MB of ConstantOfShape weights) allocates a
    small fraction of them on the host (tracemalloc peak)."""
    path = _model_path("light_bvlc_alexnet")
    tracemalloc.start()
    try:
        g = load_onnx(path, meta_only=True)
        g2, _ = apply_passes(g, "graph")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    weight_bytes = sum(a.nbytes for a in g.constants.values())
    assert weight_bytes > 200e6
    assert peak < weight_bytes / 20, (peak, weight_bytes)
    assert host_bytes(g2.constants) < weight_bytes / 100


def _mm_model(tmp_path):
    """MatMul by a 256x128 float weight (128 KiB: a placeholder) and Add of a 2-D float
    constant as big, which Add reads outside a data slot (so it stays real)."""
    rng = np.random.default_rng(1)
    w = rng.standard_normal((256, 128)).astype(np.float32)
    c = rng.standard_normal((256, 128)).astype(np.float32)
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [256, 256])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"]), helper.make_node("Add", ["h", "c"], ["y"])]
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y], [numpy_helper.from_array(w, "w"),
                                                                   numpy_helper.from_array(c, "c")]),
                          opset_imports=[helper.make_opsetid("", 13)])
    p = tmp_path / "mm.onnx"
    onnx.save(m, p)
    return p, w, c


def test_placeholders_only_in_data_slots_and_never_on_a_backed_device(tmp_path):
    p, w, c = _mm_model(tmp_path)
    g = load_onnx(p, meta_only=True)
    assert is_placeholder(g.constants["w"]) and g.constants["w"].shape == w.shape
    assert not is_placeholder(g.constants["c"]) and np.array_equal(g.constants["c"], c)   # read by value: real
    assert np.array_equal(load_onnx(p).constants["w"], w)                                  # a full load: real
    feeds = {"x": np.ones((256, 256), np.float32)}
    assert _simulate(g, feeds, timing_only=True) == _simulate(load_onnx(p), feeds, timing_only=False)
    with pytest.raises(MetaConstantError, match="metadata only"):
        _simulate(g, feeds, timing_only=False)
    with pytest.raises(MetaConstantError, match="reads its values"):   # a lowering asking for the values
        ModelRunner(g).const("w")
    assert np.array_equal(ModelRunner(g).const("c"), c)
