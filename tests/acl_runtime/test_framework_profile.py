"""The optional framework overhead profile (acl_runtime/host_clock.py): off by default,
and when switched on every phase 1 (executor built or cache hit) costs the profile's
per-op figure more; phase 2 is unchanged."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime import host_clock
from acl_runtime.host_clock import FRAMEWORK_PROFILES, HOST_COST_NS, set_framework_profile
from acl_runtime.runtime import runtime


@pytest.fixture
def profile():
    prev = host_clock.framework_profile()
    cache = opsnn.set_executor_cache(enabled=True)
    opsnn.clear_executor_cache()
    yield set_framework_profile
    set_framework_profile(prev)
    opsnn.set_executor_cache(**cache)
    opsnn.clear_executor_cache()


def _phase_costs(npu):
    """(phase 1 miss, phase 1 hit, phase 2) host ns of one aclnnRelu on 64 floats."""
    clock = runtime().clock
    _, tx = npu.to_device(np.linspace(-1, 1, 64, dtype=np.float32))
    _, ty = npu.empty((64,), np.float32)
    out = []
    for _ in range(2):
        t0 = clock.now_ns
        ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(tx, ty)
        assert ret == 0
        t1 = clock.now_ns
        assert opsnn.aclnnRelu(0, ws, ex, 0) == 0
        out.append((t1 - t0, clock.now_ns - t1))
    (miss, launch), (hit, _) = out
    return miss, hit, launch


def test_off_by_default_and_torch_npu_adds_to_every_phase1(npu, profile):
    assert host_clock.framework_profile() == "none"
    base = _phase_costs(npu)
    opsnn.clear_executor_cache()
    profile("torch_npu")
    extra = FRAMEWORK_PROFILES["torch_npu"]
    on = _phase_costs(npu)
    assert on[0] == pytest.approx(base[0] + extra) and on[1] == pytest.approx(base[1] + extra)
    assert on[2] == pytest.approx(base[2])
    profile("none")
    assert HOST_COST_NS["aclnn_cache_hit"] == pytest.approx(base[1])


def test_unknown_profile_is_refused(profile):
    with pytest.raises(ValueError, match="unknown framework profile"):
        profile("tensorflow")
