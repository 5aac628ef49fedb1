"""Property tests of SWhere/Where, EqTensor/EqScalar and Equal against float64 numpy:
random shapes, broadcasting, dtypes and layouts."""
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

import opsnn
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.promotion import promote_types
from opsnn.math.select import golden

from ..helpers import (ALL_NP, LAYOUTS, SEEDS, SETTINGS, acl, api, broadcast_pair, check_close, make_input, npd,
                       out_tensor, run, shapes, upload)


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
    run(npu, *api("SWhere" if swhere else "Where"), tc, ta, tb, tout)
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
    run(npu, *api("EqScalar" if scalar else "EqTensor"), ta, other, tout)
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
    run(npu, *api("Equal"), ta, tb, tout)
    assert bool(read()[0]) == golden.equal_golden(a, b)
