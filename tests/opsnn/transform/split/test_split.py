"""aclnnSplitTensor / aclnnSplitWithSize and aclnnRepeat against their goldens on the
tiny chip: dtypes, many tiles, non-contiguous input, statuses, a property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.split.golden import split_golden
from opsnn.transform.split.infershape import section_sizes
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, expect_error, random_array

ALL = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64, np.bool_]


def _outs(x, sizes, axis):
    return [Out(x.shape[:axis] + (s,) + x.shape[axis + 1:], x.dtype) for s in sizes]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
def test_split_with_size_every_dtype(npu, rng, dtype):
    x = random_array(rng, (4, 9, 3), dtype)
    got, ex = run(npu, "SplitWithSize", x, [2, 0, 7], 1, _outs(x, [2, 0, 7], 1))
    for g, w in zip(got, split_golden(x, [2, 0, 7], 1)):
        np.testing.assert_array_equal(g, w)
    assert ex.info["sizes"] == [2, 0, 7]


def test_split_tensor_sections_many_tiles_and_strided(npu, rng):
    x = rng.standard_normal((96, 70)).astype(np.float32)
    sizes = section_sizes(70, 32)
    assert sizes == [32, 32, 6]
    got, ex = run(npu, "SplitTensor", x, 32, -1, _outs(x, sizes, 1), layout="strided")
    for g, w in zip(got, split_golden(x, sizes, 1)):
        np.testing.assert_array_equal(g, w)
    assert many_tiles(ex) and ex.info["copies"] == ["Contiguous"]


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("sizes_null", NULL, "splitSize is null"),
    ("out_null", NULL, "out is null"),
    ("sum", INVALID, "summing to 5"),
    ("count", INVALID, "out has 1 tensors, the split gives 2"),
    ("dim", INVALID, "dim 2 out of range [-2, 2)"),
    ("dtype", INVALID, "out[1] dtype ACL_FLOAT16 not supported"),
])
def test_split_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 5)), sizes=[2, 3], dim=1, out=[t((3, 2)), t((3, 3))])
    args.update({"self_null": dict(self=None), "sizes_null": dict(sizes=None), "out_null": dict(out=None),
                 "sum": dict(sizes=[2, 2]), "count": dict(out=[t((3, 2))]), "dim": dict(dim=2),
                 "dtype": dict(out=[t((3, 2)), t((3, 3), np.float16)])}.get(case, {}))
    expect_error(opsnn.aclnnSplitWithSizeGetWorkspaceSize, tuple(args.values()), code, "aclnnSplitWithSize", frag)


def test_split_tensor_sections_must_be_positive(npu):
    x = npu.empty((4,), np.float32)[1]
    expect_error(opsnn.aclnnSplitTensorGetWorkspaceSize, (x, 0, 0, [x]), INVALID, "splitSections 0 must be positive")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 8), min_size=1, max_size=4), data=st.data(), dtype=st.sampled_from(ALL))
def test_split_property(npu, shape, data, dtype):
    axis = data.draw(st.integers(0, len(shape) - 1))
    sec = data.draw(st.integers(1, shape[axis]))
    sizes = section_sizes(shape[axis], sec)
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))), shape, dtype)
    got, _ = run(npu, "SplitTensor", x, sec, axis, _outs(x, sizes, axis))
    for g, w in zip(got, split_golden(x, sizes, axis)):
        np.testing.assert_array_equal(g, w)
