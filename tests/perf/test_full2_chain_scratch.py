"""FusedElementwise's ``run_chain`` with the output as scratch and Erf in place
(``OUT_AS_SCRATCH``, issue 17: no fresh array per GELU step): the bytes of the
reference path (switch off) and of a fresh array per step, for GELU at MiniLM-like
sizes (scipy's vectorised erf with its unsure elements recomputed, in place), chains
whose value in the output is read again later, and random chains; ``erf_compute(x,
out=x)`` equals ``erf_compute(x)``."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.math.fused_elementwise import kernel
from opsnn.math.pointwise.kernel import SMALL_SPECIAL, erf_compute
from tests.opsnn.math.fused_elementwise.test_in_place_chain import _allocating


GELU = [("Div", (0, 1), ()), ("Erf", (4,), ()), ("Add", (5, 2), ()), ("Mul", (0, 6), ()), ("Mul", (7, 3), ())]
#: x*y kept in the output while x*y + z is computed, then (x*y) * (x*y + z): the held value read again
REREAD = [("Mul", (0, 1), ()), ("Add", (3, 2), ()), ("Mul", (3, 4), ())]
ERF_TWICE = [("Erf", (0,), ()), ("Erf", (3,), ()), ("Mul", (4, 1), ()), ("Sub", (5, 2), ())]


def _gelu_inputs(n):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    return [x] + [np.asarray(v, np.float32) for v in (1.4142135, 1.0, 0.5)]


def _check(xs, steps, monkeypatch):
    want = _allocating(xs, steps)
    out = np.full(want.shape, np.nan, want.dtype)
    got = kernel.run_chain(xs, steps, out)
    monkeypatch.setattr(kernel, "OUT_AS_SCRATCH", False)
    ref_out = np.full(want.shape, np.nan, want.dtype)
    ref = kernel.run_chain(xs, steps, ref_out)
    monkeypatch.setattr(kernel, "OUT_AS_SCRATCH", True)
    assert np.asarray(got).tobytes() == np.asarray(ref).tobytes() == want.tobytes()
    return got, out


@pytest.mark.parametrize("n", [SMALL_SPECIAL + 77, 3 * SMALL_SPECIAL])
def test_gelu_large_same_bytes(n, monkeypatch):
    xs = _gelu_inputs(n)
    keep = xs[0].copy()
    got, out = _check(xs, GELU, monkeypatch)
    assert got is out and xs[0].tobytes() == keep.tobytes()


@pytest.mark.parametrize("steps", [REREAD, ERF_TWICE], ids=["reread", "erf_twice"])
def test_held_value_read_again(steps, monkeypatch):
    rng = np.random.default_rng(3)
    xs = [rng.standard_normal((5, SMALL_SPECIAL // 4)).astype(np.float32) for _ in range(3)]
    _check(xs, steps, monkeypatch)


@pytest.mark.parametrize("seed", range(20))
def test_random_chains(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    shape = (3, 50)
    xs = [rng.standard_normal(shape).astype(np.float32) + 2, np.asarray(0.75, np.float32),
          rng.standard_normal((1, 50)).astype(np.float32)]
    steps = []
    for k in range(int(rng.integers(2, 8))):
        avail = len(xs) + k
        op = ["Add", "Sub", "Mul", "Div", "Relu", "Erf", "Sqrt"][int(rng.integers(7))]
        if op in ("Relu", "Erf", "Sqrt"):
            steps.append((op, (int(rng.integers(avail)),), ()))
        else:
            steps.append((op, (int(rng.integers(avail)), int(rng.integers(avail))), ()))
    _check(xs, steps, monkeypatch)


def test_erf_in_place_equals_fresh():
    x = _gelu_inputs(2 * SMALL_SPECIAL)[0] / np.float32(1.4142135)
    want = erf_compute(x)
    y = x.copy()
    assert erf_compute(y, out=y) is y and y.tobytes() == want.tobytes()
