"""npu_sim/host_gc.py: the cyclic garbage collector is paused inside gc_paused and in
ModelRunner's object-heavy phases, and always restored (also on an error); a caller's
own gc.disable() and NPU_SIM_GC_PAUSE=0 are respected; npu_sim/env_flags.py reads the
on/off switches (0/off/false/no, 1/on/true/yes; anything else warns once, keeps the default)."""
from __future__ import annotations

import gc

import numpy as np
import pytest
from onnx import TensorProto, helper

from npu_sim.host_gc import GC_PAUSE_ENV, gc_paused, with_gc_paused


@pytest.fixture(autouse=True)
def _gc_on():
    was = gc.isenabled()
    gc.enable()
    yield
    gc.enable() if was else gc.disable()


def test_paused_inside_restored_after():
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_when_the_body_raises():
    @with_gc_paused
    def boom():
        assert not gc.isenabled()
        raise KeyError("x")
    with pytest.raises(KeyError):
        boom()
    assert gc.isenabled()


def test_a_callers_disabled_collector_stays_disabled():
    gc.disable()
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_env_zero_keeps_the_collector_running(monkeypatch):
    monkeypatch.setenv(GC_PAUSE_ENV, "0")
    with gc_paused():
        assert gc.isenabled()
    assert gc.isenabled()


def test_model_runner_phases_run_paused_and_restore():
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from frontend.onnx_import import load_onnx
    from frontend.runner import ModelRunner
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])
    model = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
                              opset_imports=[helper.make_opsetid("", 17)])
    if runtime().initialized:
        acl.finalize()
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        seen = []
        r = ModelRunner(load_onnx(model))
        assert gc.isenabled()
        r.prepare(progress=lambda i, n: seen.append(gc.isenabled()))
        assert gc.isenabled()
        feed = np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8)
        out = r.run({"x": feed}, progress=lambda i, n: seen.append(gc.isenabled())).outputs["y"]
        assert gc.isenabled()
        assert seen and not any(seen)
        np.testing.assert_array_equal(out, np.maximum(feed.astype(np.float64), 0).astype(np.float32))
        with pytest.raises(ValueError):   # a missing input: the error leaves the collector on
            r.run({})
        assert gc.isenabled()
    finally:
        acl.finalize()


@pytest.mark.parametrize("raw,want", [("0", False), ("off", False), ("FALSE", False), (" no ", False),
                                      ("1", True), ("On", True), ("true", True), ("yes", True), ("", True)])
def test_env_flag_words(monkeypatch, raw, want):
    from npu_sim.env_flags import env_flag
    monkeypatch.setenv("NPU_SIM_TEST_FLAG", raw)
    assert env_flag("NPU_SIM_TEST_FLAG") is want


def test_env_flag_unknown_value_warns_once_and_keeps_the_default(monkeypatch, capsys):
    from npu_sim.device import FAST_PATH_ENV, Device
    from npu_sim.chips import get_chip
    monkeypatch.setenv(FAST_PATH_ENV, "fast-please")
    assert Device(get_chip("tiny")).fast_path is True
    assert Device(get_chip("tiny")).fast_path is True
    err = capsys.readouterr().err
    assert err.count("NPU_SIM_FAST_PATH='fast-please'") == 1
    monkeypatch.setenv(FAST_PATH_ENV, "off")
    assert Device(get_chip("tiny")).fast_path is False


def test_gc_pause_env_off_word(monkeypatch):
    monkeypatch.setenv(GC_PAUSE_ENV, "off")
    with gc_paused():
        assert gc.isenabled()


class _Node:
    def __init__(self):
        self.me = self   # a reference cycle: only the cyclic collector frees it


def test_objects_built_in_a_pause_skip_the_young_generations():
    import weakref
    with gc_paused():
        keep = [[i] for i in range(5000)]
        cyc = _Node()
    ref = weakref.ref(cyc)
    del cyc
    assert gc.get_count()[0] < 1000   # not 5000 pending young objects
    assert all(gc.is_tracked(x) for x in keep[:3])
    gc.collect(1)                     # a young collection does not see the promoted cycle ...
    assert ref() is not None
    gc.collect()                      # ... a full one frees it
    assert ref() is None


def test_promoted_garbage_is_bounded_by_a_full_collection(monkeypatch):
    import weakref

    from npu_sim import host_gc
    monkeypatch.setattr(host_gc, "PROMOTE_LIMIT", 2000)
    gc.collect()
    with gc_paused():
        pass                          # the bookkeeping starts from the current heap
    full_before = gc.get_stats()[2]["collections"]
    with gc_paused():
        junk = [_Node() for _ in range(3000)]
    refs = [weakref.ref(x) for x in junk[:5]]
    del junk
    with gc_paused():
        more = [[i] for i in range(3000)]   # over the limit: this pause ends with a full collection
    assert gc.get_stats()[2]["collections"] > full_before
    assert all(r() is None for r in refs)
    assert len(more) == 3000
