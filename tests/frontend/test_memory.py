"""Memory policies of the runner (frontend.memory): naive, caching and planned give the
same outputs and kernel times; the plan reaches the lower bound; poison mode passes
under the plan and catches a plan that overlaps live buffers."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper

from acl_runtime import acl
from frontend import memory as fm
from frontend.cli import main
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner


@pytest.fixture
def clean_acl():
    """ACL not initialised around the test (the CLI and _run initialise it themselves)."""
    from acl_runtime.runtime import runtime
    if runtime().initialized:
        acl.finalize()
    yield
    if runtime().initialized:
        acl.finalize()


def _model(tmp_path):
    T = onnx.TensorProto.FLOAT
    nodes = [helper.make_node("Relu", ["x"], ["a"]), helper.make_node("Add", ["a", "x"], ["b"]),
             helper.make_node("Mul", ["b", "a"], ["c"]), helper.make_node("Add", ["c", "b"], ["d"]),
             helper.make_node("Relu", ["d"], ["e"]), helper.make_node("Mul", ["e", "e"], ["y"])]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", T, [4, 256])],
                          [helper.make_tensor_value_info("y", T, None)])
    p = tmp_path / "chain.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), p)
    return p


def _expected(x):
    a = np.maximum(x, 0)
    b = a + x
    d = b * a + b
    e = np.maximum(d, 0)
    return e * e


def _run(path, policy, poison=False):
    x = np.random.default_rng(0).standard_normal((4, 256)).astype(np.float32)
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        r = ModelRunner(load_onnx(path), memory=policy, poison=poison)
        r.prepare()
        res = r.run({"x": x})
        return res, r.memory_report(), _expected(x)
    finally:
        acl.finalize()


def test_policies_agree_and_plan_reaches_lower_bound(tmp_path, clean_acl):
    p = _model(tmp_path)
    out = {pol: _run(p, pol) for pol in fm.POLICIES}
    for pol, (res, rep, want) in out.items():
        np.testing.assert_allclose(res.outputs["y"], want, rtol=1e-5, err_msg=pol)
        assert rep.policy == pol
    # addresses never change kernel time (event times differ only by float rounding: the
    # placed policies make fewer aclrtMalloc calls, so the run starts earlier on the host)
    ns = [res.device_ns for res, _, _ in out.values()]
    assert max(ns) - min(ns) < 1e-6
    rep = out["planned"][1]
    assert rep.lower_bound <= rep.planned <= rep.caching <= rep.naive
    assert rep.planned == rep.lower_bound
    assert rep.naive >= 2 * rep.planned


def test_poison_passes_under_the_plan(tmp_path, clean_acl):
    for pol in ("planned", "caching"):
        res, _, want = _run(_model(tmp_path), pol, poison=True)
        np.testing.assert_allclose(res.outputs["y"], want, rtol=1e-5)


def test_poison_catches_an_overlapping_plan(tmp_path, clean_acl, monkeypatch):
    """Control: a broken plan that puts every buffer at offset 0 gives NaN outputs under
    poison, so the passing test above means something."""
    real = fm.plan

    def broken(bufs, policy):
        offs, arena, rep = real(bufs, policy)
        return {k: 0 for k in offs}, max(b.size_bytes for b in bufs), rep
    monkeypatch.setattr(fm, "plan", broken)
    res, _, want = _run(_model(tmp_path), "planned", poison=True)
    assert not np.allclose(res.outputs["y"], want, equal_nan=False)


def test_caching_allocator_reuses_by_size():
    from acl_runtime.workspace_planner import BufferRequest as B
    offs, total = fm.caching_offsets([B("a", 0, 1, 1000), B("b", 1, 2, 600), B("c", 1, 2, 2000)])
    assert offs["b"] == offs["a"] == 0 and offs["c"] == 1024 and total == 1024 + 2048


def test_bad_policy():
    with pytest.raises(ValueError, match="memory policy"):
        ModelRunner(None, memory="best")


def test_cli_memory_report(tmp_path, capsys, clean_acl):
    p = _model(tmp_path)
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--trace", "", "--memory-report"]) == 0
    out = capsys.readouterr().out
    assert "under --memory planned" in out and "caching allocator" in out and "lower bound" in out
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--trace", "", "--memory", "naive"]) == 0
    assert "under --memory naive" in capsys.readouterr().out
