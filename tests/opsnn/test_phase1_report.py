"""Phase 1's typed report: strategy, candidates asked, workspace parts, and the host
cost the clock charges for them (acl_runtime.host_clock's formula, recomputed here)."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime.host_clock import HOST_COST_NS, TILING_CANDIDATE_NS, TILING_NS
from acl_runtime.runtime import runtime
from opsnn.base.report import Phase1Report


def _prepare_span(name: str) -> dict:
    spans = [s for s in runtime().profiler.host_spans() if s.name == name]
    assert spans, f"no {name} host span"
    return spans[-1]


def test_layer_norm_multi_pass_pays_for_the_fused_candidate(npu, rng):
    """A row too long for UB: the registry asks 'fused' (not capable), then
    'multi_pass'. The report says so and the host clock charges one extra candidate."""
    d = 64 * 1024  # fp32: 256 KiB per row, more than tiny's UB
    x = rng.standard_normal((2, d)).astype(np.float32)
    _, tx = npu.to_device(x)
    _, to = npu.empty(x.shape, np.float32)
    ws, ex, ret = opsnn.aclnnLayerNormGetWorkspaceSize(tx, opsnn.aclCreateIntArray([d]), None, None, 1e-5,
                                                       to, None, None)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    rep = ex.report
    assert isinstance(rep, Phase1Report)
    assert rep.strategy == "multi_pass" and rep.candidates == ("fused", "multi_pass")
    assert rep.extra_candidates == 1
    assert rep.workspace_bytes == ws
    expect = HOST_COST_NS["aclnn_prepare"] + sum(TILING_NS[c] for c in rep.core_types) + TILING_CANDIDATE_NS
    assert ex.plan.prepare_ns == pytest.approx(expect)
    span = _prepare_span("aclnnLayerNormGetWorkspaceSize")
    assert span.dur_ns == pytest.approx(expect)
    assert span.args["strategy"] == "multi_pass" and span.args["tiling_candidates"] == ["fused", "multi_pass"]


def test_softmax_first_strategy_costs_no_extra(npu, rng):
    x = rng.standard_normal((4, 32)).astype(np.float32)
    _, tx = npu.to_device(x)
    _, to = npu.empty(x.shape, np.float32)
    ws, ex, ret = opsnn.aclnnSoftmaxGetWorkspaceSize(tx, -1, to)
    assert ret == 0
    rep = ex.report
    assert rep.strategy == "one_pass" and rep.candidates == ("one_pass",) and rep.extra_candidates == 0
    assert rep.kernels == tuple(k.spec.name for k in ex.kernels)
    assert ex.plan.prepare_ns == pytest.approx(HOST_COST_NS["aclnn_prepare"] + TILING_NS["AIV"])


def test_workspace_parts_sum_to_the_workspace(npu, rng):
    """A transposed (non-contiguous) matmul operand is packed into workspace by a
    contiguous copy: the report files those bytes under contiguous_copies."""
    a = rng.standard_normal((16, 8)).astype(np.float32)
    b = rng.standard_normal((8, 12)).astype(np.float32)
    _, ta = npu.to_device(a)
    _, tb = npu.to_device(b)
    _, tc = npu.empty((16, 12), np.float32)
    ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0)
    assert ret == 0
    rep = ex.report
    assert rep.workspace_bytes == ws
    assert rep.core_types and set(rep.core_types) <= {"AIC", "AIV", "MIX"}
