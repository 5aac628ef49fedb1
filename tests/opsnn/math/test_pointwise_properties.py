"""Property tests of Erf, Sqrt, Pow, Clamp, Cast, SWhere/Where, EqTensor/EqScalar
and Equal against float64 numpy: random shapes, broadcasting, dtypes and layouts."""
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

import opsnn
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.promotion import FLOATS, compute_dtype, promote_tensor_scalar, promote_types
from opsnn.math import golden

from .helpers import (ALL_NP, BF16, FLOAT_NP, LAYOUTS, SETTINGS, acl, broadcast_pair, check_close, make_input, npd,
                      out_tensor, run, shapes, upload)

NUMERIC_NP = [d for d in ALL_NP if d != np.bool_]
SEEDS = st.integers(0, 2**31 - 1)


def _api(name):
    return getattr(opsnn, f"aclnn{name}GetWorkspaceSize"), getattr(opsnn, f"aclnn{name}")


@SETTINGS
@given(op=st.sampled_from(["Erf", "Sqrt"]), shape=shapes(), dt=st.sampled_from(ALL_NP),
       layout=st.sampled_from(LAYOUTS), wide=st.booleans(), strided_out=st.booleans(), seed=SEEDS)
def test_float_unary(npu, op, shape, dt, layout, wide, strided_out, seed):
    """Integer and bool inputs compute in float32; out is the input's float type or float32."""
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dt, layout)
    out_dt = np.dtype(np.float32) if wide or np.dtype(dt).kind in "iub" else np.dtype(dt)
    tout, read = out_tensor(npu, x.shape, out_dt, strided_out)
    run(npu, *_api(op), tx, tout)
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
    run(npu, *_api("PowTensorTensor"), tx, te, tout)
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
    run(npu, *_api("PowTensorScalar"), tx, opsnn.aclCreateScalar(ex, sdt), tout)
    check_close(read(), golden.pow_golden(x, ex), out_dt)


def test_pow_integer_negative_exponent(npu):
    """Integer base to a negative integer exponent: 1 for 1, +-1 for -1, else 0."""
    a = np.array([1, -1, -1, 2, -3, 0, 5], np.int32)
    e = np.array([-2, -3, -2, -1, -1, 2, 0], np.int32)
    po, to = npu.empty((7,), np.int32)
    run(npu, *_api("PowTensorTensor"), npu.to_device(a)[1], npu.to_device(e)[1], to)
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
        run(npu, *_api("ClampMin"), tx, scal[0], tout)
    elif hi is not None and lo is None and layout == "contiguous":
        run(npu, *_api("ClampMax"), tx, scal[1], tout)
    else:
        run(npu, *_api("Clamp"), tx, scal[0], scal[1], tout)
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
    run(npu, *_api("ClampTensor"), tx, *args, tout)
    ref = golden.clamp_golden(np.broadcast_to(x, shape), lo if which != "hi" else None,
                              hi if which != "lo" else None)
    check_close(read(), ref, dt)


@SETTINGS
@given(shape=shapes(), src=st.sampled_from(ALL_NP), dst=st.sampled_from(ALL_NP), layout=st.sampled_from(LAYOUTS),
       strided_out=st.booleans(), seed=SEEDS)
def test_cast(npu, shape, src, dst, layout, strided_out, seed):
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, src, layout)
    if np.dtype(src).kind == "f" and np.dtype(dst).kind in "iu":
        x = (np.abs(x.astype(np.float64)) * 3).astype(src)  # in range for every integer target
        tx = upload(npu, x, layout if layout != "broadcast" else "contiguous", rng)
    tout, read = out_tensor(npu, x.shape, dst, strided_out)
    ex = run(npu, *_api("Cast"), tx, acl(dst), tout)
    assert ex.info["dst_dtype"] == acl(dst).name
    check_close(read(), golden.cast_golden(x, np.dtype(dst).kind.replace("u", "i")), dst)


@SETTINGS
@given(shapes_=broadcast_pair(3), third=shapes(2), cdt=st.sampled_from([np.bool_, np.uint8]),
       dta=st.sampled_from(ALL_NP), dtb=st.sampled_from(ALL_NP), lc=st.sampled_from(LAYOUTS),
       la=st.sampled_from(LAYOUTS), swhere=st.booleans(), seed=SEEDS)
def test_where(npu, shapes_, third, cdt, dta, dtb, lc, la, swhere, seed):
    try:
        np.broadcast_shapes(shapes_[0], shapes_[1], third)
    except ValueError:
        assume(False)
    rng = np.random.default_rng(seed)
    c, tc = make_input(npu, rng, third, cdt, lc)
    if np.dtype(cdt) == np.uint8:
        c = (c % 3).astype(np.uint8)   # 0 or nonzero
        tc = upload(npu, c, "contiguous", rng)
    a, ta = make_input(npu, rng, shapes_[0], dta, la)
    b, tb = make_input(npu, rng, shapes_[1], dtb, "contiguous")
    out_dt = npd(promote_types(acl(dta), acl(dtb)))
    tout, read = out_tensor(npu, np.broadcast_shapes(c.shape, a.shape, b.shape), out_dt, False)
    run(npu, *_api("SWhere" if swhere else "Where"), tc, ta, tb, tout)
    check_close(read(), golden.where_golden(c, a, b), out_dt)


def _ties(rng, shape, dt):
    """Small integer values (many equal pairs) in dtype ``dt``."""
    return (rng.integers(0, 3, size=shape) if np.dtype(dt) != np.bool_ else rng.random(shape) < 0.5).astype(dt)


@SETTINGS
@given(shapes_=broadcast_pair(), dta=st.sampled_from(ALL_NP), dtb=st.sampled_from(ALL_NP),
       out_dt=st.sampled_from([np.bool_, np.bool_, np.int32, np.float32]), la=st.sampled_from(LAYOUTS),
       scalar=st.booleans(), seed=SEEDS)
def test_eq(npu, shapes_, dta, dtb, out_dt, la, scalar, seed):
    rng = np.random.default_rng(seed)
    a = _ties(rng, shapes_[0], dta)
    ta = upload(npu, a, la if la != "broadcast" else "strided", rng)
    if scalar:
        b, other = 1, opsnn.aclCreateScalar(1, T.ACL_INT64)
        shape = a.shape
    else:
        b = _ties(rng, shapes_[1], dtb)
        other = upload(npu, b, "transposed", rng)
        shape = np.broadcast_shapes(a.shape, b.shape)
    tout, read = out_tensor(npu, shape, out_dt, False)
    run(npu, *_api("EqScalar" if scalar else "EqTensor"), ta, other, tout)
    check_close(read(), np.broadcast_to(golden.eq_golden(a, b), shape), out_dt)


@SETTINGS
@given(shape=shapes(3), dta=st.sampled_from(ALL_NP), dtb=st.sampled_from(ALL_NP),
       how=st.sampled_from(["same", "same", "changed", "reshaped"]), la=st.sampled_from(LAYOUTS), seed=SEEDS)
def test_equal(npu, shape, dta, dtb, how, la, seed):
    rng = np.random.default_rng(seed)
    a = _ties(rng, shape, dta)
    b = a.astype(dtb)
    if how == "changed" and b.size:
        b = b.copy()
        b.flat[rng.integers(b.size)] = 5 if np.dtype(dtb) != np.bool_ else not b.flat[0]
    elif how == "reshaped":
        b = b.reshape(-1, 1) if b.ndim != 2 or b.shape[1] != 1 else b.reshape(-1)
    ta = upload(npu, a, la if la != "broadcast" else "transposed", rng)
    tb = upload(npu, b, "contiguous", rng)
    tout, read = out_tensor(npu, (1,), np.bool_, False)
    run(npu, *_api("Equal"), ta, tb, tout)
    assert bool(read()[0]) == golden.equal_golden(a, b)


def test_bf16_cast_rounds_to_nearest_even(npu):
    """float32 -> bfloat16 rounds to nearest even (ml_dtypes' rounding, as the Cast unit)."""
    x = np.array([1.0 + 2**-8, 1.0 + 3 * 2**-8, -3.14159], np.float32)
    po, to = npu.empty((3,), BF16)
    run(npu, *_api("Cast"), npu.to_device(x)[1], T.ACL_BF16, to)
    got = npu.to_host(po, (3,), BF16).astype(np.float64)
    np.testing.assert_array_equal(got, [1.0, 1.0 + 2**-6, -3.140625])
