"""Property tests: random small shapes, kernels, strides, pads, dilations and dtypes,
max and average pooling against the float64 golden; plus model-sized layers on the
910B2 preset finishing quickly."""
import time

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn.pooling.avg_pool2d.golden import avg_pool2d_golden
from opsnn.pooling.max_pool.golden import max_pool2d_golden
from tests.conftest import rel_err

from .helpers import TOL, run_op

ia = opsnn.aclCreateIntArray
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def pool_case(draw, dilated: bool):
    kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    dh, dw = (draw(st.integers(1, 2)), draw(st.integers(1, 2))) if dilated else (1, 1)
    ekh, ekw = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    pads = (draw(st.integers(0, ekh // 2)), draw(st.integers(0, ekw // 2)),
            draw(st.integers(0, ekh // 2)), draw(st.integers(0, ekw // 2)))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    ceil = draw(st.booleans())
    h = draw(st.integers(max(1, ekh - pads[0] - pads[2]), 14))
    w = draw(st.integers(max(1, ekw - pads[1] - pads[3]), 14))
    lead = draw(st.sampled_from([(1, 1), (2, 3), (3,), (1, 5)]))
    dtype = draw(st.sampled_from([np.float32, np.float16]))
    seed = draw(st.integers(0, 2**31 - 1))
    return dict(k=(kh, kw), d=(dh, dw), pads=pads, s=(sh, sw), ceil=ceil, shape=lead + (h, w), dtype=dtype, seed=seed)


@SETTINGS
@given(c=pool_case(dilated=True))
def test_max_pool_property(npu, c):
    x = np.random.default_rng(c["seed"]).standard_normal(c["shape"]).astype(c["dtype"])
    ref, _ = max_pool2d_golden(x, c["k"], c["s"], c["pads"], c["d"], c["ceil"])
    (y,), ex = run_op(npu, opsnn.aclnnMaxPoolGetWorkspaceSize, opsnn.aclnnMaxPool, x,
                      (ia(c["k"]), ia(c["s"]), 0, ia(c["pads"]), ia(c["d"]), int(c["ceil"])), [(ref.shape, x.dtype)])
    assert not np.isnan(y).any()
    np.testing.assert_array_equal(y.astype(np.float64), ref)


@SETTINGS
@given(c=pool_case(dilated=False), cip=st.booleans(), div=st.sampled_from([0, 0, 3]))
def test_avg_pool_property(npu, c, cip, div):
    x = np.random.default_rng(c["seed"]).standard_normal(c["shape"]).astype(c["dtype"])
    ref = avg_pool2d_golden(x, c["k"], c["s"], c["pads"], c["ceil"], cip, div)
    (y,), _ = run_op(npu, opsnn.aclnnAvgPool2dGetWorkspaceSize, opsnn.aclnnAvgPool2d, x,
                     (ia(c["k"]), ia(c["s"]), ia(c["pads"]), c["ceil"], cip, div, 0), [(ref.shape, x.dtype)])
    assert not np.isnan(y).any()
    assert rel_err(y, ref) < TOL[np.dtype(c["dtype"])]


def test_model_sized_layers_are_fast(npu910, rng):
    """ResNet-50 / AlexNet pooling, LRN and softmax layers at 224x224 on 910B2:
    each phase-1 + phase-2 + sync well under a second of wall time."""
    t0 = time.perf_counter()
    x = rng.standard_normal((1, 64, 112, 112)).astype(np.float32)            # ResNet-50 stem max pool
    (y,), _ = run_op(npu910, opsnn.aclnnMaxPoolGetWorkspaceSize, opsnn.aclnnMaxPool, x,
                     (ia([3, 3]), ia([2, 2]), 0, ia([1, 1, 1, 1]), ia([1, 1]), 0), [((1, 64, 56, 56), np.float32)])
    assert y.max() == x.max() and y.min() >= x.min()
    x = rng.standard_normal((1, 2048, 7, 7)).astype(np.float32)              # ResNet-50 global pool
    (y,), _ = run_op(npu910, opsnn.aclnnAdaptiveAvgPool2dGetWorkspaceSize, opsnn.aclnnAdaptiveAvgPool2d, x,
                     (ia([1, 1]),), [((1, 2048, 1, 1), np.float32)])
    assert rel_err(y, x.astype(np.float64).mean(axis=(2, 3), keepdims=True)) < 1e-5
    x = rng.standard_normal((1, 96, 55, 55)).astype(np.float32)              # AlexNet LRN + max pool
    (y,), _ = run_op(npu910, opsnn.aclnnLrnGetWorkspaceSize, opsnn.aclnnLrn, x, (5, 1e-4, 0.75, 2.0),
                     [(x.shape, np.float32)])
    (y,), _ = run_op(npu910, opsnn.aclnnMaxPoolGetWorkspaceSize, opsnn.aclnnMaxPool, y,
                     (ia([3, 3]), ia([2, 2]), 0, ia([]), ia([]), 0), [((1, 96, 27, 27), np.float32)])
    x = rng.standard_normal((1, 256, 13, 13)).astype(np.float32)             # torchvision AlexNet avgpool
    (y,), _ = run_op(npu910, opsnn.aclnnAdaptiveAvgPool2dGetWorkspaceSize, opsnn.aclnnAdaptiveAvgPool2d, x,
                     (ia([6, 6]),), [((1, 256, 6, 6), np.float32)])
    x = rng.standard_normal((1, 1000)).astype(np.float32)                    # classifier softmax
    (y,), _ = run_op(npu910, opsnn.aclnnSoftmaxGetWorkspaceSize, opsnn.aclnnSoftmax, x, (1,),
                     [((1, 1000), np.float32)])
    assert abs(y.sum() - 1) < 1e-5
    assert time.perf_counter() - t0 < 3.0
