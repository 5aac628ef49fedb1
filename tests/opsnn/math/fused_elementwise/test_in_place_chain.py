"""run_chain's reuse of dead intermediates (and of the output) gives the bits of the
allocating evaluation: each step in its result dtype, a fresh array per step."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.math.fused_elementwise.infershape import step_dtypes
from opsnn.math.fused_elementwise.kernel import _COMPUTE, run_chain


def _allocating(xs, steps):
    dts = step_dtypes([x.dtype for x in xs], steps)
    vals = list(xs)
    with np.errstate(all="ignore"):
        for (op, operands, _attrs), dt in zip(steps, dts):
            a = [vals[o] for o in operands]
            r = a[0].astype(dt) if op == "Cast" else _COMPUTE[op](*a)
            vals.append(np.asarray(r).astype(dt, copy=False))
    return vals[-1]


BN_RELU = [("Mul", (0, 1), ()), ("Add", (3, 2), ()), ("Relu", (4,), ())]
GELU = [("Div", (0, 1), ()), ("Erf", (4,), ()), ("Add", (5, 2), ()), ("Mul", (0, 6), ()), ("Mul", (7, 3), ())]
MIXED = [("Cast", (0,), (("to", "float16"),)), ("Mul", (3, 1), ()), ("Sqrt", (0,), ()), ("Sub", (5, 2), ()),
         ("Add", (4, 4), ()), ("Div", (7, 6), ())]


def _inputs(rng, chain):
    if chain is BN_RELU:
        return [rng.standard_normal((2, 8, 5, 5)).astype(np.float32), rng.standard_normal((8, 1, 1)).astype(np.float32),
                rng.standard_normal((8, 1, 1)).astype(np.float32)]
    if chain is GELU:
        return [rng.standard_normal((2, 4, 24)).astype(np.float32)] + [np.asarray(v, np.float32) for v in
                                                                         (1.4142135, 1.0, 0.5)]
    return [np.abs(rng.standard_normal((3, 7))).astype(np.float32), rng.standard_normal((3, 7)).astype(np.float16),
            rng.standard_normal((1, 7)).astype(np.float32)]


@pytest.mark.parametrize("chain", [BN_RELU, GELU, MIXED], ids=["bn_relu", "gelu", "mixed"])
@pytest.mark.parametrize("with_out", [False, True])
def test_same_bits_as_allocating(chain, with_out):
    rng = np.random.default_rng(len(chain))
    xs = _inputs(rng, chain)
    keep = [x.copy() for x in xs]
    want = _allocating(xs, chain)
    out = np.full(want.shape, 7, want.dtype) if with_out else None
    got = run_chain(xs, chain, out)
    assert np.asarray(got).dtype == want.dtype and np.asarray(got).tobytes() == want.tobytes()
    if with_out:   # the last step has operands of one float dtype only in these two
        assert (got is out) == (chain is not MIXED)
    for x, k in zip(xs, keep):                    # inputs never written
        assert x.tobytes() == k.tobytes()
