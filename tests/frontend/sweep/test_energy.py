"""The first-order energy estimate (npu_sim.hardware.energy)."""
from __future__ import annotations

import pytest

from npu_sim import get_chip
from npu_sim.hardware.energy import BYTE_PJ, MAC_PJ_45NM, PROCESS_SCALE, STATIC_W_24_AIC, EnergyModel


def test_kernel_energy_parts():
    m = EnergyModel.for_chip(get_chip("ascend910b2"))       # 24 AIC: the reference static power
    rec = {"flops": 2000, "dtype": "float16", "gm_bytes": 100, "hbm_bytes": 64, "l2_hit_bytes": 32,
           "pipe_busy_ns": {"CUBE": 5.0}, "dur_ns": 10.0}
    e = m.kernel_pj(rec)
    assert e["mac"] == pytest.approx(1000 * MAC_PJ_45NM["float16"] * PROCESS_SCALE)
    assert e["l0"] == pytest.approx(2 * 1000 * 2 / 16 * BYTE_PJ["l0"] * PROCESS_SCALE)
    assert e["l1_ub"] == pytest.approx(200 * BYTE_PJ["l1_ub"] * PROCESS_SCALE)
    assert e["l2"] == pytest.approx(32 * BYTE_PJ["l2"] * PROCESS_SCALE)
    assert e["hbm"] == pytest.approx(64 * BYTE_PJ["hbm"])
    assert e["static"] == pytest.approx(STATIC_W_24_AIC * 10.0 * 1e3)     # W x ns -> pJ
    assert e["total"] == pytest.approx(sum(v for k, v in e.items() if k != "total"))


def test_vector_kernel_has_no_l0_and_run_adds_idle_static():
    m = EnergyModel.for_chip(get_chip("tiny"))
    rec = {"dtype": "float32", "gm_bytes": 64, "hbm_bytes": 64, "dur_ns": 5.0}
    assert m.kernel_pj(rec)["l0"] == 0 and m.kernel_pj(rec)["mac"] == 0
    run = m.run_pj([rec, rec], latency_ns=20.0)
    assert run["static"] == pytest.approx(m.static_w * 20.0 * 1e3)
    assert run["hbm"] == pytest.approx(2 * 64 * BYTE_PJ["hbm"])
    assert m.static_w == pytest.approx(STATIC_W_24_AIC * 2 / 24)
