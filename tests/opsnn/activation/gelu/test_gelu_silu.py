"""aclnnGelu, aclnnGeluV2 (approximate 0 / 1) and aclnnSilu against float64 numpy:
random shapes, float dtypes, non-contiguous inputs and outputs; error paths."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import opsnn
from opsnn.activation.gelu import golden
from opsnn.base.dtypes import aclDataType as T
from tests.opsnn.math.helpers import (FLOAT_NP, LAYOUTS, SETTINGS, check_close, expect_error, make_input,
                                      out_tensor, run, shapes, upload)

CASES = {
    "Gelu": (lambda x, y: opsnn.aclnnGeluGetWorkspaceSize(x, y), opsnn.aclnnGelu, golden.gelu_golden),
    "GeluV2-none": (lambda x, y: opsnn.aclnnGeluV2GetWorkspaceSize(x, 0, y), opsnn.aclnnGeluV2, golden.gelu_golden),
    "GeluV2-tanh": (lambda x, y: opsnn.aclnnGeluV2GetWorkspaceSize(x, 1, y), opsnn.aclnnGeluV2,
                    golden.gelu_tanh_golden),
    "Silu": (lambda x, y: opsnn.aclnnSiluGetWorkspaceSize(x, y), opsnn.aclnnSilu, golden.silu_golden),
}


@SETTINGS
@given(case=st.sampled_from(list(CASES)), shape=shapes(), dt=st.sampled_from(FLOAT_NP),
       layout=st.sampled_from(LAYOUTS), strided_out=st.booleans(), scale=st.sampled_from([1.0, 8.0]),
       seed=st.integers(0, 2**31 - 1))
def test_activation_property(npu, case, shape, dt, layout, strided_out, scale, seed):
    prep, launch, ref_fn = CASES[case]
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dt, layout)
    if scale != 1.0 and layout != "broadcast":   # large |x|: exp overflow must not give NaN
        x = (x.astype(np.float64) * scale).astype(dt)
        tx = upload(npu, x, layout, rng)
    tout, read = out_tensor(npu, x.shape, dt, strided_out)
    ex = run(npu, prep, launch, tx, tout)
    check_close(read(), ref_fn(x), dt)
    if case.startswith("GeluV2"):
        assert ex.info["approximate"] == case.split("-")[1]


def test_gelu_forms_differ_by_the_tanh_approximation(npu):
    """erf and tanh forms agree to ~1e-3 absolute, and each matches its own golden to 1e-6."""
    x = np.linspace(-4, 4, 257).astype(np.float32)
    tx = npu.to_device(x)[1]
    outs = {}
    for approx in (0, 1):
        p, t = npu.empty(x.shape, np.float32)
        run(npu, lambda a, b: opsnn.aclnnGeluV2GetWorkspaceSize(a, approx, b), opsnn.aclnnGeluV2, tx, t)
        outs[approx] = npu.to_host(p, x.shape, np.float32)
    np.testing.assert_allclose(outs[0], golden.gelu_golden(x), atol=1e-6)
    np.testing.assert_allclose(outs[1], golden.gelu_tanh_golden(x), atol=1e-6)
    assert 1e-4 < np.abs(outs[0] - outs[1]).max() < 1e-3


@pytest.mark.parametrize("name", ["Gelu", "Silu"])
def test_activation_errors(npu, name):
    prep = getattr(opsnn, f"aclnn{name}GetWorkspaceSize")
    api = f"aclnn{name}"
    x = npu.empty((4, 5), np.float32)[1]
    expect_error(prep, (None, x), 161001, api, "self is null")
    expect_error(prep, (x, None), 161001, "out is null")
    expect_error(prep, (np.zeros(3), x), 161002, "self must be an aclTensor")
    xi = npu.empty((4, 5), np.int32)[1]
    expect_error(prep, (xi, xi), 161002, "self dtype ACL_INT32 not supported")
    expect_error(prep, (x, npu.empty((4, 5), np.float16)[1]), 161002, "out dtype ACL_FLOAT16 not supported",
                 "ACL_FLOAT")
    expect_error(prep, (x, npu.empty((5, 4), np.float32)[1]), 161002, "out shape [5, 4]", "[4, 5]")


def test_gelu_v2_errors(npu):
    x = npu.empty((3,), np.float16)[1]
    p = opsnn.aclnnGeluV2GetWorkspaceSize
    expect_error(p, (x, 2, x), 161002, "aclnnGeluV2", "approximate must be 0 (none) or 1 (tanh), got 2")
    expect_error(p, (x, "tanh", x), 161002, "approximate must be 0")
    expect_error(p, (None, 0, x), 161001, "x is null")
    expect_error(p, (x, 0, None), 161001, "y is null")
    expect_error(p, (x, 1, npu.empty((3,), np.float32)[1]), 161002, "y dtype ACL_FLOAT not supported")


def test_bf16_gelu_on_many_tiles(npu, rng):
    """A bf16 tensor large enough for several blocks and tiles on the tiny chip."""
    x = rng.standard_normal((37, 129)).astype(FLOAT_NP[2])
    px, tx = npu.to_device(x)
    py, ty = npu.empty(x.shape, x.dtype)
    ex = run(npu, opsnn.aclnnGeluGetWorkspaceSize, opsnn.aclnnGelu, tx, ty)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim
    assert spec.args["compute_dtype"] == T.ACL_FLOAT.name
    check_close(npu.to_host(py, x.shape, x.dtype), golden.gelu_golden(x), x.dtype)
