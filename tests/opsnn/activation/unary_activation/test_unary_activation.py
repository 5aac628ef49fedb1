"""The table-generated activations against their float64 goldens on the tiny chip:
many blocks and edge tiles, random shapes/dtypes/layouts (hypothesis), and one
status code per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import opsnn
from opsnn.activation.unary_activation.golden import GOLDEN
from opsnn.activation.unary_activation.op_api import ROWS
from opsnn.base.dtypes import aclDataType as T
from tests.opsnn.math.helpers import (BF16, FLOAT_NP, INT_NP, LAYOUTS, SETTINGS, api, check_close, expect_error,
                                      make_input, out_tensor, run, shapes)

S = opsnn.aclCreateScalar
ROW = {r.op_type: r for r in ROWS}

#: attribute values to test each op with (CANN names), besides the defaults
ATTRS = {
    "LeakyRelu": [{"negativeSlope": 0.01}, {"negativeSlope": 0.2}],
    "Elu": [{"alpha": 1.0, "scale": 1.0, "inputScale": 1.0}, {"alpha": 0.5, "scale": 2.0, "inputScale": 1.5}],
    "Celu": [{"alpha": 1.0}, {"alpha": 2.0}],
    "Softplus": [{"beta": 1.0, "threshold": 20.0}, {"beta": 2.0, "threshold": 1.0}],
    "HardsigmoidV2": [{"alpha": 0.2, "beta": 0.5}, {"alpha": 0.5, "beta": 0.1}],
    "Swish": [{"betaOptional": None}, {"betaOptional": 1.7}],
    "Threshold": [{"threshold": 0.0, "value": 0.0}, {"threshold": 0.5, "value": -2.0}],
    "Hardshrink": [{"lambd": 0.5}, {"lambd": 1.0}],
    "Softshrink": [{"lambd": 0.5}, {"lambd": 0.25}],
    "Shrink": [{"lambd": 0.5, "bias": 0.0}, {"lambd": 1.0, "bias": 0.3}],
}


def _args(op, attrs):
    return [None if attrs[p.name] is None else S(float(attrs[p.name]), T.ACL_DOUBLE) for p in ROW[op].attrs]


def _run(npu, op, tx, tout, attrs):
    prep, launch = api(op)
    return run(npu, lambda x, o: prep(x, *_args(op, attrs), o), launch, tx, tout)


def _golden(op, x, attrs):
    return GOLDEN[op](x, **{k: v for k, v in attrs.items()})


CASES = [(op, a) for op in ROW for a in ATTRS.get(op, [{}])]


@pytest.mark.parametrize("op,attrs", CASES, ids=[f"{op}-{i}" for i, (op, _) in enumerate(CASES)])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["f32", "f16"])
def test_many_blocks_and_edge_tiles(npu, rng, op, attrs, dt):
    """(37, 129): several blocks on the tiny chip, more tiles than blocks, a ragged
    last tile; values over [-6, 6] so every branch of each formula is taken."""
    x = (rng.uniform(-6, 6, (37, 129))).astype(dt)
    tx = npu.to_device(x)[1]
    tout, read = out_tensor(npu, x.shape, dt, False)
    ex = _run(npu, op, tx, tout, attrs)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim
    check_close(read(), _golden(op, x, attrs), dt)


@SETTINGS
@given(case=st.sampled_from(CASES), shape=shapes(), dt=st.sampled_from(FLOAT_NP + [np.dtype(np.float64)]),
       layout=st.sampled_from(LAYOUTS), strided_out=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_activation_property(npu, case, shape, dt, layout, strided_out, seed):
    op, attrs = case
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dt, layout)
    tout, read = out_tensor(npu, x.shape, dt, strided_out)
    _run(npu, op, tx, tout, attrs)
    check_close(read(), _golden(op, x, attrs), dt)


@pytest.mark.parametrize("op", ["Threshold", "Shrink"])
@pytest.mark.parametrize("dt", INT_NP, ids=str)
def test_integer_threshold_and_shrink(npu, rng, op, dt):
    x = rng.integers(-5, 6, (7, 19)).astype(dt)
    tx = npu.to_device(x)[1]
    tout, read = out_tensor(npu, x.shape, dt, False)
    attrs = {"threshold": 1, "value": -3} if op == "Threshold" else {"lambd": 1, "bias": 1}
    prep, launch = api(op)
    run(npu, lambda a, o: prep(a, *[S(int(attrs[p.name]), T.ACL_INT64) for p in ROW[op].attrs], o), launch,
        tx, tout)
    check_close(read(), _golden(op, x, attrs), dt)


@pytest.mark.parametrize("op", sorted(ROW))
def test_errors(npu, op):
    row = ROW[op]
    prep, _ = api(op)
    name = f"aclnn{op}"
    x = npu.empty((4, 5), np.float32)[1]
    sc = [S(0.5, T.ACL_FLOAT) for _ in row.attrs]
    expect_error(prep, (None, *sc, x), 161001, name, "self is null")
    expect_error(prep, (x, *sc, None), 161001, "out is null")
    expect_error(prep, (np.zeros(3), *sc, x), 161002, "self must be an aclTensor")
    expect_error(prep, (x, *sc, npu.empty((4, 5), np.float16)[1]), 161002, "out dtype ACL_FLOAT16 not supported")
    expect_error(prep, (x, *sc, npu.empty((5, 4), np.float32)[1]), 161002, "out shape [5, 4]")
    xb = npu.empty((4, 5), np.bool_)[1]
    expect_error(prep, (xb, *sc, xb), 161002, "self dtype ACL_BOOL not supported")
    if T.ACL_INT32 not in row.dtypes:
        xi = npu.empty((4, 5), np.int32)[1]
        expect_error(prep, (xi, *sc, xi), 161002, "self dtype ACL_INT32 not supported")
    for i, p in enumerate(row.attrs):
        if not p.optional:
            bad = list(sc)
            bad[i] = None
            expect_error(prep, (x, *bad, x), 161001, f"{p.name} is null")


def test_attribute_values(npu):
    x = npu.empty((3,), np.float32)[1]
    expect_error(opsnn.aclnnCeluGetWorkspaceSize, (x, S(0.0, T.ACL_FLOAT), x), 161002, "alpha must not be 0")
    expect_error(opsnn.aclnnSoftplusGetWorkspaceSize, (x, S(0.0, T.ACL_FLOAT), S(20.0, T.ACL_FLOAT), x), 161002,
                 "beta must not be 0")
    for op in ("Hardshrink", "Softshrink"):
        expect_error(api(op)[0], (x, S(-1.0, T.ACL_FLOAT), x), 161002, "lambd must be >= 0")
    expect_error(opsnn.aclnnShrinkGetWorkspaceSize, (x, S(-1.0, T.ACL_FLOAT), S(0.0, T.ACL_FLOAT), x), 161002,
                 "lambd must be >= 0")


def test_empty_tensor_launches_nothing(npu):
    x = npu.empty((0, 3), np.float32)[1]
    ws, ex, ret = opsnn.aclnnSigmoidGetWorkspaceSize(x, x)
    assert (ret, ws, ex.kernels) == (0, 0, [])


def test_bf16_sigmoid_pythonic(npu, rng):
    """The generated Pythonic function runs the same kernel."""
    from acl_runtime import Session  # noqa: F401  (the npu fixture holds the context)
    x = rng.standard_normal((3, 70)).astype(BF16)
    tx = npu.to_device(x)[1]
    tout, read = out_tensor(npu, x.shape, BF16, True)
    _run(npu, "Sigmoid", tx, tout, {})
    check_close(read(), GOLDEN["Sigmoid"](x), BF16)
    assert opsnn.functional.FUNCTIONS["sigmoid"].op_def.op_type == "Sigmoid"
