"""Property tests of Erf, Sqrt, PowTensorScalar/PowTensorTensor and Clamp (scalar,
min, max and tensor bounds) against float64 numpy: random shapes, broadcasting,
dtypes and layouts."""
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

import opsnn
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.promotion import FLOATS, compute_dtype, promote_tensor_scalar, promote_types
from opsnn.math.pointwise import golden

from ..helpers import (ALL_NP, FLOAT_NP, LAYOUTS, NUMERIC_NP, SEEDS, SETTINGS, acl, api, broadcast_pair, check_close,
                       make_input, npd, out_tensor, run, shapes, upload)


@SETTINGS
@given(op=st.sampled_from(["Erf", "Sqrt"]), shape=shapes(), dt=st.sampled_from(ALL_NP),
       layout=st.sampled_from(LAYOUTS), wide=st.booleans(), strided_out=st.booleans(), seed=SEEDS)
def test_float_unary(npu, op, shape, dt, layout, wide, strided_out, seed):
    """Integer and bool inputs compute in float32; out is the input's float type or float32."""
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dt, layout)
    out_dt = np.dtype(np.float32) if wide or np.dtype(dt).kind in "iub" else np.dtype(dt)
    tout, read = out_tensor(npu, x.shape, out_dt, strided_out)
    run(npu, *api(op), tx, tout)
    ref = golden.erf_golden(x) if op == "Erf" else golden.sqrt_golden(x)
    check_close(read(), ref, out_dt)


def _exponents(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        return rng.integers(0, 4, size=shape).astype(dt)
    return rng.uniform(-2, 2, size=shape).astype(dt)


@SETTINGS
@given(shapes_=broadcast_pair(), dta=st.sampled_from(NUMERIC_NP), dtb=st.sampled_from(NUMERIC_NP),
       la=st.sampled_from(LAYOUTS), lb=st.sampled_from(["contiguous", "transposed", "strided"]), seed=SEEDS)
def test_pow_tensor_tensor(npu, shapes_, dta, dtb, la, lb, seed):
    promoted = promote_types(acl(dta), acl(dtb))
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shapes_[0], dta, la, kind="positive" if promoted in FLOATS else "any")
    e = _exponents(rng, shapes_[1], dtb)
    te = upload(npu, e, lb, rng)
    out_dt = npd(promoted)
    tout, read = out_tensor(npu, np.broadcast_shapes(x.shape, e.shape), out_dt, False)
    run(npu, *api("PowTensorTensor"), tx, te, tout)
    check_close(read(), golden.pow_golden(x, e), out_dt)


@SETTINGS
@given(shape=shapes(), dt=st.sampled_from(NUMERIC_NP), ex=st.sampled_from([2, 3, 0.5, -1.0, 2.0]),
       layout=st.sampled_from(LAYOUTS), seed=SEEDS)
def test_pow_tensor_scalar(npu, shape, dt, ex, layout, seed):
    sdt = T.ACL_INT64 if isinstance(ex, int) else T.ACL_FLOAT
    promoted = promote_tensor_scalar(acl(dt), sdt)
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dt, layout, kind="positive")
    out_dt = npd(promoted)
    tout, read = out_tensor(npu, x.shape, out_dt, False)
    run(npu, *api("PowTensorScalar"), tx, opsnn.aclCreateScalar(ex, sdt), tout)
    check_close(read(), golden.pow_golden(x, ex), out_dt)


def test_pow_integer_negative_exponent(npu):
    """Integer base to a negative integer exponent: 1 for 1, +-1 for -1, else 0."""
    a = np.array([1, -1, -1, 2, -3, 0, 5], np.int32)
    e = np.array([-2, -3, -2, -1, -1, 2, 0], np.int32)
    po, to = npu.empty((7,), np.int32)
    run(npu, *api("PowTensorTensor"), npu.to_device(a)[1], npu.to_device(e)[1], to)
    np.testing.assert_array_equal(npu.to_host(po, (7,), np.int32), [1, -1, 1, 0, 0, 0, 1])


BOUNDS = st.sampled_from([None, -0.5, 0.3, 1.0, -2, 2])


@SETTINGS
@given(shape=shapes(), dt=st.sampled_from(NUMERIC_NP), lo=BOUNDS, hi=BOUNDS, layout=st.sampled_from(LAYOUTS),
       seed=SEEDS)
def test_clamp_scalars(npu, shape, dt, lo, hi, layout, seed):
    assume(lo is not None or hi is not None)
    assume(not (np.dtype(dt).kind == "u" and any(isinstance(v, int) and v < 0 for v in (lo, hi))))
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dt, layout)
    promoted = acl(dt)
    scal = []
    for v in (lo, hi):
        if v is None:
            scal.append(None)
            continue
        sdt = T.ACL_INT64 if isinstance(v, int) else T.ACL_FLOAT
        promoted = promote_tensor_scalar(promoted, sdt)
        scal.append(opsnn.aclCreateScalar(v, sdt))
    out_dt = npd(promoted)
    tout, read = out_tensor(npu, x.shape, out_dt, False)
    if lo is not None and hi is None and layout == "contiguous":
        run(npu, *api("ClampMin"), tx, scal[0], tout)
    elif hi is not None and lo is None and layout == "contiguous":
        run(npu, *api("ClampMax"), tx, scal[1], tout)
    else:
        run(npu, *api("Clamp"), tx, scal[0], scal[1], tout)
    ct = npd(compute_dtype(promoted))  # a FLOAT aclScalar holds a float32; then the compute type

    def bound(v):
        return None if v is None else ct.type(np.float32(v) if isinstance(v, float) else v)
    ref = golden.clamp_golden(x, bound(lo), bound(hi))
    check_close(read(), ref, out_dt)


@SETTINGS
@given(shapes_=broadcast_pair(3), dt=st.sampled_from(FLOAT_NP + [np.dtype(np.int32)]), which=st.sampled_from(
       ["both", "lo", "hi"]), seed=SEEDS)
def test_clamp_tensor(npu, shapes_, dt, which, seed):
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shapes_[0], dt, "contiguous")
    lo, tlo = make_input(npu, rng, shapes_[1], dt, "strided")
    hi = (lo.astype(np.float64) + np.abs(rng.standard_normal(lo.shape))).astype(dt)
    thi = upload(npu, hi, "contiguous", rng)
    shape = np.broadcast_shapes(x.shape, lo.shape)
    tout, read = out_tensor(npu, shape, dt, True)
    args = {"both": (tlo, thi), "lo": (tlo, None), "hi": (None, thi)}[which]
    run(npu, *api("ClampTensor"), tx, *args, tout)
    ref = golden.clamp_golden(np.broadcast_to(x, shape), lo if which != "hi" else None,
                              hi if which != "lo" else None)
    check_close(read(), ref, dt)
