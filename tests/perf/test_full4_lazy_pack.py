"""At trace level "pipes" a recording is packed after a device run only past
``acl_runtime.profiler.PACK_MIN_SLOTS`` slots (issue 17), and ``TraceRecorder.__len__``
keeps its count of the unpacked entries between calls.

* Graph-mode runs (two runs, so several device runs and marks; after a warm-up session,
  so both sessions hit the same process-wide caches) give the same trace
  entries and the same Chrome text with the switch on and at 0 (pack after every run),
  and that text is the reference writer's (``traces.chrome_trace.to_chrome_trace``);
  on, the device recording is left unpacked, at 0 and at level "kernels" it is packed.
* A recording that reaches the threshold is packed.
* ``len`` of a recorder after any mix of spans, pipe spans, packs, reads of ``spans``
  and clears equals the number of entries recorded (counted independently here).
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from acl_runtime import acl
from acl_runtime import profiler as prof
from acl_runtime.runtime import runtime
from acl_runtime.trace_writer import chrome_trace_text
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner
from npu_sim.trace import TraceRecorder
from traces.chrome_trace import to_chrome_trace


def _model():
    rng = np.random.default_rng(0)
    w1, w2 = rng.standard_normal((32, 48)).astype(np.float32), rng.standard_normal((48, 16)).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"]), helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("MatMul", ["r", "w2"], ["y"])]
    g = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64, 32])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64, 16])],
                          [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _trace(monkeypatch, min_slots, level="pipes"):
    """(entries, Chrome text, reference text, device tail slots) after two runs in a
    fresh ACL session on the tiny chip."""
    monkeypatch.setattr(prof, "PACK_MIN_SLOTS", min_slots)
    if runtime().initialized:
        acl.finalize()
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        prof.set_level(level)
        r = ModelRunner(load_onnx(_model()), mode="graph", memory="planned")
        r.prepare()
        x = np.random.default_rng(1).standard_normal((64, 32)).astype(np.float32)
        for _ in range(2):
            r.run({"x": x})
        p = runtime().profiler
        tail = runtime().device.recorder.tail_slots()
        entries = p.trace_entries()[0]
        ref = json.dumps(to_chrome_trace(p), allow_nan=False, separators=(",", ":"))
        return entries, chrome_trace_text(p), ref, tail
    finally:
        acl.finalize()


def test_lazy_packing_writes_the_same_trace(monkeypatch):
    _trace(monkeypatch, 0)                                # warm the process-wide caches (cache hits alike)
    ents, text, ref, tail = _trace(monkeypatch, 1 << 17)
    ents0, text0, ref0, tail0 = _trace(monkeypatch, 0)
    assert tail > 0 and tail0 == 0                       # left unpacked / packed after every run
    assert ents == ents0 and text == text0 == ref == ref0
    assert any(len(e) == 6 for e in ents)                 # pipe spans were recorded
    _, _, _, tail_k = _trace(monkeypatch, 1 << 17, "kernels")
    assert tail_k == 0                                    # other levels pack as before


def test_a_recording_past_the_threshold_is_packed(monkeypatch):
    ents, text, ref, tail = _trace(monkeypatch, 8)
    assert tail < 8 and text == ref


@pytest.mark.parametrize("seed", range(6))
def test_len_counts_entries_between_calls(seed):
    rng = np.random.default_rng(seed)
    rec, n = TraceRecorder(), 0
    for step in range(400):
        op = rng.integers(0, 8)
        if op <= 2:
            rec.pipe_span(("device 0", "AIC0 CUBE"), "mmad", float(step), 1.0, step, 64)
            n += 1
        elif op <= 4:
            rec.span(("host", "thread 0"), "call", float(step), 0.5, "host", {"k": step})
            n += 1
        elif op == 5:
            rec.pack()
        elif op == 6:
            assert len(rec.spans) == n
        elif rng.random() < 0.1:
            rec.clear()
            n = 0
        assert len(rec) == n == len(rec.entries())
