"""aclnnResize / aclnnResizeV2 against the per-element ONNX-rule golden on the tiny chip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.resize.golden import resize_golden
from opsnn.transform.resize.infershape import resized_shape
from opsnn.transform.resize.tiling import resize_tiling
from npu_sim import PRESETS
from tests.conftest import rel_err
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, TOL, expect_error

COORDS = ["half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric"]


def v2(npu, x, scales, mode, coord, nearest="round_prefer_floor", layout="contiguous"):
    (y,), ex = run(npu, "ResizeV2", x, scales, None, mode, coord, nearest, -0.75, False, 0.0, False,
                   Out(resized_shape(x.shape, scales), x.dtype), layout=layout)
    return y, ex


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
@pytest.mark.parametrize("coord", COORDS)
@pytest.mark.parametrize("scales", [[1, 1, 2.0, 1.5], [1, 1, 0.5, 0.75]], ids=["up", "down"])
def test_modes_and_coordinates(npu, rng, mode, coord, scales):
    x = rng.standard_normal((1, 2, 6, 8)).astype(np.float32)
    y, ex = v2(npu, x, scales, mode, coord)
    ref = resize_golden(x, resized_shape(x.shape, scales), scales, mode, coord)
    assert rel_err(y, ref) <= 1e-5
    assert ex.info["mode"] == mode


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("nearest", ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"])
def test_nearest_modes_and_dtypes(npu, rng, dtype, nearest):
    x = rng.standard_normal((2, 3, 5)).astype(dtype)
    y, _ = v2(npu, x, [1, 1.7, 2.2], "nearest", "asymmetric", nearest)
    ref = resize_golden(x, resized_shape(x.shape, [1, 1.7, 2.2]), [1, 1.7, 2.2], "nearest", "asymmetric", nearest)
    np.testing.assert_array_equal(y.astype(np.float64), ref)


def test_cann_resize_bilinear_many_tiles(npu, rng):
    x = rng.standard_normal((2, 4, 32, 32)).astype(np.float16)
    (y,), ex = run(npu, "Resize", x, [1, 1, 2, 2], "bilinear", Out((2, 4, 64, 64), np.float16), layout="strided")
    ref = resize_golden(x, (2, 4, 64, 64), [1, 1, 2, 2], "linear", "half_pixel")
    assert rel_err(y, ref) <= TOL[np.dtype(np.float16)] and many_tiles(ex)


def test_tiling_charges_taps_per_resized_axis():
    res = resize_tiling(PRESETS["tiny"], (1, 1, 4, 8), (1, 1, 8, 16), "cubic", 4)
    # H pass: 1*1*8*8 elements * 4 taps * 4 B; W pass: 8*16 * 4 * 4
    assert res.data.vector_bytes == 64 * 16 + 128 * 16 and res.strategy == "cubic"
    assert res.data.mte2_bytes == 4 * 32 and res.data.mte3_bytes == 8 * 64


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"), ("mode", INVALID, "mode 'area'"),
    ("rank", INVALID, "self must be 4-D NCHW"), ("nc", INVALID, "only H and W may be resized"),
    ("dtype", INVALID, "self dtype ACL_INT32 not supported"), ("shape", INVALID, "does not match expected"),
])
def test_resize_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((1, 1, 2, 2)), scales=[1, 1, 2, 2], mode="nearest", out=t((1, 1, 4, 4)))
    args.update({"self_null": dict(self=None), "mode": dict(mode="area"), "rank": dict(self=t((1, 2, 2))),
                 "nc": dict(scales=[2, 1, 2, 2]), "dtype": dict(self=t((1, 1, 2, 2), np.int32)),
                 "shape": dict(out=t((1, 1, 4, 3)))}.get(case, {}))
    expect_error(opsnn.aclnnResizeGetWorkspaceSize, tuple(args.values()), code, "aclnnResize", frag)


def test_resize_v2_errors(npu):
    x, o = npu.empty((2, 4), np.float32)[1], npu.empty((4, 8), np.float32)[1]
    base = [x, [2.0, 2.0], None, "linear", "half_pixel", "floor", -0.75, False, 0.0, False, o]
    for i, v, frag in ((4, "bogus", "coordinateTransformationMode 'bogus'"), (1, [2.0], "must have 2 entries"),
                       (1, [0.0, 2.0], "must be positive")):
        args = list(base)
        args[i] = v
        expect_error(opsnn.aclnnResizeV2GetWorkspaceSize, tuple(args), INVALID, frag)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 6), min_size=1, max_size=3), data=st.data(),
       mode=st.sampled_from(["nearest", "linear", "cubic"]), coord=st.sampled_from(COORDS))
def test_property(npu, shape, data, mode, coord):
    scales = [data.draw(st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0])) for _ in shape]
    if any(int(d * s) == 0 for d, s in zip(shape, scales)):
        return
    x = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))).standard_normal(shape).astype(np.float32)
    y, _ = v2(npu, x, scales, mode, coord)
    ref = resize_golden(x, resized_shape(x.shape, scales), scales, mode, coord)
    assert rel_err(y, ref) <= 1e-5
