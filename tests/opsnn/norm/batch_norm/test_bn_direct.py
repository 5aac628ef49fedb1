"""BatchNorm inference's fp32 body writes straight into the output: bit for bit the
fp32 formula (x * scale, + shift, scale and shift folded in fp32), out of place and
in place (the output aliasing the input)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.opsnn.norm.batch_norm.test_batch_norm import _params, run_bn


def _fp32_formula(x, w, b, m, v, eps):
    scale = np.float32(1) / np.sqrt(v + np.float32(eps))
    scale = scale * w
    shift = -m * scale + b
    bshape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    r = x.astype(np.float32)
    r *= scale.reshape(bshape)
    r += shift.reshape(bshape)
    return r


@pytest.mark.parametrize("in_place", [False, True], ids=["out_of_place", "in_place"])
@pytest.mark.parametrize("shape", [(6, 5), (2, 3, 9, 11)], ids=lambda s: f"{len(s)}d")
def test_fp32_bits(npu, rng, shape, in_place):
    x = rng.standard_normal(shape).astype(np.float32) * 3 + 1
    w, b, m, v = _params(rng, shape[1])
    got, _ = run_bn(npu, x, w, b, m, v, eps=1e-3, in_place=in_place)
    assert got.tobytes() == _fp32_formula(x, w, b, m, v, 1e-3).tobytes()
