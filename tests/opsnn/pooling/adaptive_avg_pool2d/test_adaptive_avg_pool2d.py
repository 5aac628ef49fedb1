"""aclnnAdaptiveAvgPool2d against the float64 golden, on the tiny chip."""
import numpy as np
import pytest

import opsnn
from opsnn.pooling.adaptive_avg_pool2d.golden import adaptive_avg_pool2d_golden
from tests.conftest import rel_err

from ..helpers import assert_many_tiles, run_op


def _adaptive(npu, x, size):
    s2 = list(size) * (2 // len(size))
    (out,), ex = run_op(npu, opsnn.aclnnAdaptiveAvgPool2dGetWorkspaceSize, opsnn.aclnnAdaptiveAvgPool2d, x,
                        (opsnn.aclCreateIntArray(size),), [(x.shape[:-2] + tuple(s2), x.dtype)])
    return out, adaptive_avg_pool2d_golden(x, s2), ex


@pytest.mark.parametrize("shape,size", [
    ((2, 3, 7, 7), (1, 1)),        # global average pool
    ((1, 4, 13, 13), (6, 6)),      # AlexNet (torchvision) adaptive pool, overlapping windows
    ((2, 2, 10, 9), (3, 4)),       # uneven windows
    ((1, 3, 5, 4), (7, 9)),        # upsampling: output larger than input
    ((3, 6, 8), (2,)),             # CHW, one size for both axes
])
def test_adaptive_avg_pool_float32(npu, rng, shape, size):
    x = rng.standard_normal(shape).astype(np.float32)
    out, ref, _ = _adaptive(npu, x, size)
    assert rel_err(out, ref) < 1e-5


def test_adaptive_avg_pool_float16_global(npu, rng):
    x = rng.standard_normal((1, 8, 9, 9)).astype(np.float16)
    out, ref, _ = _adaptive(npu, x, (1, 1))
    assert rel_err(out, ref) < 1e-2


def test_global_pool_of_large_plane_chunks_kernel_rows(npu, rng):
    """A 96x96 fp32 plane (36 KiB) does not fit UB: rows are chunked."""
    x = rng.standard_normal((1, 3, 96, 96)).astype(np.float32)
    out, ref, ex = _adaptive(npu, x, (1, 1))
    assert rel_err(out, ref) < 1e-5
    assert ex.info["strategy"] == "kernel_row_chunk"


def test_adaptive_many_tiles(npu, rng):
    x = rng.standard_normal((2, 8, 20, 20)).astype(np.float32)
    out, ref, ex = _adaptive(npu, x, (10, 10))
    assert rel_err(out, ref) < 1e-5
    assert_many_tiles(ex.kernels[0].spec)
