"""Pad family against the index-map golden on the tiny chip: every mode and dtype,
many tiles, non-contiguous input, one status per bad input, a property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.pad.golden import pad_golden
from opsnn.transform.pad.infershape import padded_shape
from tests.opsnn.transform.helpers import BF16, device_tensor, empty, expect_error, random_array

ALL = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64, np.bool_]
ENTRY = {"reflect": "ReflectionPad", "edge": "ReplicationPad", "wrap": "CircularPad"}


def run_pad(npu, x, pad, mode="constant", value=0, layout="contiguous"):
    tx = device_tensor(npu, x, layout)
    oshape = padded_shape(x.shape, pad)
    po, to = empty(npu, oshape, x.dtype)
    if mode == "constant":
        name = "ConstantPadNd"
        sc = opsnn.aclCreateScalar(value, opsnn.aclDataType.ACL_FLOAT if not isinstance(value, bool)
                                   else opsnn.aclDataType.ACL_BOOL)
        prep = opsnn.aclnnConstantPadNdGetWorkspaceSize(tx, opsnn.aclCreateIntArray(pad), sc, to)
    else:
        name = f"{ENTRY[mode]}{len(pad) // 2}d"
        prep = getattr(opsnn, f"aclnn{name}GetWorkspaceSize")(tx, opsnn.aclCreateIntArray(pad), to)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    npu.run(prep, getattr(opsnn, f"aclnn{name}"))
    return npu.to_host(po, oshape, x.dtype), prep[1]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["constant", "reflect", "edge", "wrap"])
def test_every_mode_and_dtype(npu, rng, dtype, mode):
    x = random_array(rng, (2, 5, 6), dtype)
    pad = [1, 2, 3, 1]
    got, ex = run_pad(npu, x, pad, mode, 1 if mode == "constant" else 0)
    np.testing.assert_array_equal(got, pad_golden(x, pad, mode, 1))
    assert ex.info["mode"] == mode


def test_constant_crop_and_many_tiles(npu, rng):
    x = rng.standard_normal((64, 130)).astype(np.float32)
    got, ex = run_pad(npu, x, [-3, 40, 5, 0], "constant", -2.5)
    np.testing.assert_array_equal(got, pad_golden(x, [-3, 40, 5, 0], "constant", -2.5))
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim


def test_non_contiguous_input(npu, rng):
    x = rng.standard_normal((3, 4, 5)).astype(np.float16)
    got, ex = run_pad(npu, x, [2, 2, 1, 1, 0, 1], "edge", layout="transposed")
    np.testing.assert_array_equal(got, pad_golden(x, [2, 2, 1, 1, 0, 1], "edge"))
    assert ex.info["copies"] == ["Contiguous"]


def test_empty_out_prepares_no_kernel(npu):
    _, ex = run_pad(npu, np.zeros((0, 3), np.float32), [1, 1])
    assert ex.kernels == [] and ex.info["strategy"] == "empty"


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("pad_null", NULL, "pad is null"),
    ("value_null", NULL, "value is null"),
    ("out_null", NULL, "out is null"),
    ("odd", INVALID, "must have an even length"),
    ("long", INVALID, "more than twice self's rank"),
    ("pad_float", INVALID, "pad entry must be an integer"),
    ("out_dtype", INVALID, "out dtype ACL_FLOAT16 not supported"),
    ("out_shape", INVALID, "does not match expected [5, 4]"),
    ("value_type", INVALID, "value must be an aclScalar"),
])
def test_constant_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 4)), pad=[0, 0, 1, 1], value=opsnn.aclCreateScalar(0.0, opsnn.aclDataType.ACL_FLOAT),
                out=t((5, 4)))
    args.update({"self_null": dict(self=None), "pad_null": dict(pad=None), "value_null": dict(value=None),
                 "out_null": dict(out=None), "odd": dict(pad=[1]), "long": dict(pad=[0] * 6),
                 "pad_float": dict(pad=[1.0, 0]), "out_dtype": dict(out=t((5, 4), np.float16)),
                 "out_shape": dict(out=t((4, 4))), "value_type": dict(value=3.0)}.get(case, {}))
    expect_error(opsnn.aclnnConstantPadNdGetWorkspaceSize, tuple(args.values()), code, "aclnnConstantPadNd", frag)


@pytest.mark.parametrize("name,pad,frag", [
    ("ReflectionPad2d", [4, 0, 0, 0], "must be less than the size 4"),
    ("ReflectionPad2d", [1, 0], "must have 4 entries"),
    ("ReplicationPad1d", [-1, 0], "must not be negative"),
    ("CircularPad2d", [0, 0, 4, 0], "must not exceed the size 3"),
    ("ReflectionPad3d", [0] * 6, "self must be at least 3-D"),
])
def test_nd_pad_errors(npu, name, pad, frag):
    x, o = npu.empty((3, 4), np.float32)[1], npu.empty((3, 4), np.float32)[1]
    expect_error(getattr(opsnn, f"aclnn{name}GetWorkspaceSize"), (x, pad, o), INVALID, f"aclnn{name}", frag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(2, 7), min_size=2, max_size=4), data=st.data(), dtype=st.sampled_from(ALL),
       mode=st.sampled_from(["constant", "reflect", "edge", "wrap"]), layout=st.sampled_from(["contiguous", "strided"]))
def test_property(npu, shape, data, dtype, mode, layout):
    nd = 2
    pad = [data.draw(st.integers(0, min(shape[-1 - i // 2] - 1, 3))) for i in range(2 * nd)]
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))), shape, dtype)
    got, _ = run_pad(npu, x, pad, mode, layout=layout)
    np.testing.assert_array_equal(got, pad_golden(x, pad, mode, 0))
