"""run_block yields its GM stages' waits as the delays themselves on the fast path's inline
clock (``hardware/inline.py`` ``InlineClock.yields_delays``) instead of calling its
``timeout``; ``pipeline.DIRECT_DELAYS = False`` keeps the calls as the reference. Both give
the same kernel records, trace spans, clock and fast-path count, float for float, on
multi-tile kernels (a Matmul on the bare device API, an encoder layer, a light model),
both ways run within one process."""
from __future__ import annotations

import pytest

from npu_sim.hardware import pipeline
from tests.perf.test_blocks_one_tile import _model
from tests.perf.test_fast_path import _raw, _workload


def _ref_then_new(monkeypatch, fn, *a):
    monkeypatch.setattr(pipeline, "DIRECT_DELAYS", False)
    fn(*a)   # warm-up: phase 1's caches
    ref = fn(*a)
    monkeypatch.setattr(pipeline, "DIRECT_DELAYS", True)
    return ref, fn(*a)


@pytest.mark.parametrize("case", ["one_stream", "two_streams"])
def test_direct_delays_raw(monkeypatch, case):
    ref, new = _ref_then_new(monkeypatch, _raw, case)
    assert ref == new and new[3] > 0


def test_direct_delays_encoder(monkeypatch):
    ref, new = _ref_then_new(monkeypatch, lambda: _workload("encoder", batch=1, seq=128))
    assert ref == new and new[3] > 0


def test_direct_delays_model(monkeypatch):
    ref, new = _ref_then_new(monkeypatch, _model, "light_shufflenet")
    assert ref == new and new[3] > 0
