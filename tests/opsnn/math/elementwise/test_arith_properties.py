"""Property tests of Add/Sub/Mul/Div in their tensor, scalar and in-place forms
against float64 numpy: random shapes (size 1, sides not multiples of 16),
broadcasting, every dtype pair, non-contiguous inputs and outputs, on the tiny chip."""
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

import opsnn
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.promotion import can_cast, promote_tensor_scalar, promote_types
from opsnn.math.elementwise import golden

from ..helpers import (ALL_NP, LAYOUTS, SETTINGS, acl, broadcast_pair, check_close, make_input, npd, out_tensor,
                      read_view, run)

GOLDEN = {"Add": golden.add_golden, "Sub": golden.sub_golden, "Mul": golden.mul_golden, "Div": golden.div_golden}
HAS_ALPHA = {"Add", "Sub"}


def _api(name):
    return getattr(opsnn, f"aclnn{name}GetWorkspaceSize"), getattr(opsnn, f"aclnn{name}")


def _alpha(draw, promoted):
    """(aclScalar, float value) castable to the promoted type."""
    if promoted == T.ACL_BOOL:
        return opsnn.aclCreateScalar(True, T.ACL_BOOL), 1.0
    if promoted in (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE):
        v = draw(st.sampled_from([1.0, 0.5, -2.0]))
        return opsnn.aclCreateScalar(v, T.ACL_FLOAT), v
    v = draw(st.sampled_from([1, 2, -1]))
    return opsnn.aclCreateScalar(v, T.ACL_INT64), float(v)


def _out_dtype(draw, op, promoted):
    if op == "Div" and promoted not in (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE):
        return draw(st.sampled_from([T.ACL_FLOAT, promoted]))
    if promoted in (T.ACL_FLOAT16, T.ACL_BF16):
        return draw(st.sampled_from([promoted, T.ACL_FLOAT]))
    return promoted


@SETTINGS
@given(data=st.data(), op=st.sampled_from(list(GOLDEN)), shapes=broadcast_pair(),
       dta=st.sampled_from(ALL_NP), dtb=st.sampled_from(ALL_NP), la=st.sampled_from(LAYOUTS),
       lb=st.sampled_from(LAYOUTS), strided_out=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_binary_tensor_tensor(npu, data, op, shapes, dta, dtb, la, lb, strided_out, seed):
    promoted = promote_types(acl(dta), acl(dtb))
    assume(not (op == "Sub" and promoted == T.ACL_BOOL))
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shapes[0], dta, la)
    y, ty = make_input(npu, rng, shapes[1], dtb, lb, kind="nonzero" if op == "Div" else "any")
    out_dt = npd(_out_dtype(data.draw, op, promoted))
    shape = np.broadcast_shapes(x.shape, y.shape)
    tout, read = out_tensor(npu, shape, out_dt, strided_out)
    prep, launch = _api(op)
    if op in HAS_ALPHA:
        alpha, av = _alpha(data.draw, promoted)
        ex = run(npu, prep, launch, tx, ty, alpha, tout)
        ref = GOLDEN[op](x, y, av)
    else:
        ex = run(npu, prep, launch, tx, ty, tout)
        ref = GOLDEN[op](x, y)
    check_close(read(), ref, out_dt)
    assert ex.info["promoted_dtype"] == promoted.name


@SETTINGS
@given(data=st.data(), op=st.sampled_from(list(GOLDEN)), shape=broadcast_pair().map(lambda p: p[0]),
       dta=st.sampled_from(ALL_NP), sdt=st.sampled_from([T.ACL_FLOAT, T.ACL_INT64, T.ACL_BOOL]),
       la=st.sampled_from(LAYOUTS), seed=st.integers(0, 2**31 - 1))
def test_binary_tensor_scalar(npu, data, op, shape, dta, sdt, la, seed):
    promoted = promote_tensor_scalar(acl(dta), sdt)
    assume(not (op == "Sub" and promoted == T.ACL_BOOL))
    assume(not (op == "Div" and sdt == T.ACL_BOOL))
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dta, la)
    sv = {T.ACL_FLOAT: data.draw(st.sampled_from([1.5, -0.75, 3.0])), T.ACL_INT64: data.draw(st.sampled_from([2, -3])),
          T.ACL_BOOL: True}[sdt]
    other = opsnn.aclCreateScalar(sv, sdt)
    out_dt = npd(_out_dtype(data.draw, op, promoted))
    tout, read = out_tensor(npu, x.shape, out_dt, False)
    prep, launch = _api(op + "s")
    if op in HAS_ALPHA:
        alpha, av = _alpha(data.draw, promoted)
        run(npu, prep, launch, tx, other, alpha, tout)
        ref = GOLDEN[op](x, np.float64(sv), av)
    else:
        run(npu, prep, launch, tx, other, tout)
        ref = GOLDEN[op](x, np.float64(sv))
    check_close(read(), np.broadcast_to(ref, x.shape), out_dt)


@SETTINGS
@given(data=st.data(), op=st.sampled_from(list(GOLDEN)), shapes=broadcast_pair(),
       dta=st.sampled_from(ALL_NP), dtb=st.sampled_from(ALL_NP),
       la=st.sampled_from(["contiguous", "transposed", "strided"]), lb=st.sampled_from(LAYOUTS),
       scalar=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_inplace(npu, data, op, shapes, dta, dtb, la, lb, scalar, seed):
    """selfRef op= other: selfRef has the broadcast shape and may be non-contiguous."""
    full = tuple(np.broadcast_shapes(*shapes))
    promoted = (promote_tensor_scalar(acl(dta), T.ACL_INT64) if scalar else promote_types(acl(dta), acl(dtb)))
    assume(can_cast(promoted, acl(dta)) and not (op == "Sub" and promoted == T.ACL_BOOL))
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, full, dta, la)
    if scalar:
        y, other = np.float64(2), opsnn.aclCreateScalar(2, T.ACL_INT64)
    else:
        y, other = make_input(npu, rng, shapes[1], dtb, lb, kind="nonzero" if op == "Div" else "any")
    name = f"Inplace{op}{'s' if scalar else ''}"
    prep, launch = _api(name)
    if op in HAS_ALPHA:
        alpha, av = _alpha(data.draw, promoted)
        run(npu, prep, launch, tx, other, alpha)
        ref = GOLDEN[op](x, y, av)
    else:
        run(npu, prep, launch, tx, other)
        ref = GOLDEN[op](x, y)
    check_close(read_view(npu, tx), ref, np.dtype(dta))


def test_add_float_alpha_keeps_old_signature(npu, rng):
    """The frontend and traces call aclnnAdd(a, b, alpha, out) with alpha an aclScalar
    or a plain float; Relu(x, out) likewise."""
    a = rng.standard_normal((3, 33)).astype(np.float32)
    b = rng.standard_normal((33,)).astype(np.float32)
    (pa, ta), (pb, tb) = npu.to_device(a), npu.to_device(b)
    po, to = npu.empty((3, 33), np.float32)
    run(npu, opsnn.aclnnAddGetWorkspaceSize, opsnn.aclnnAdd, ta, tb, 1.0, to)
    check_close(npu.to_host(po, (3, 33), np.float32), golden.add_golden(a, b), np.float32)
    run(npu, opsnn.aclnnAddGetWorkspaceSize, opsnn.aclnnAdd, ta, tb, opsnn.aclCreateScalar(1.0, 0), to)
    run(npu, opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, to, to)
    check_close(npu.to_host(po, (3, 33), np.float32), golden.relu_golden(golden.add_golden(a, b)), np.float32)


def test_integer_division_truncates_into_int_out(npu):
    """Div of integers divides in float32; an int32 out receives the quotient truncated
    toward zero (aclnnDiv on A2 casts its float result to out)."""
    a = np.array([7, -7, 9, 1, 0], np.int32)
    b = np.array([2, 2, -4, 3, 5], np.int32)
    ta, tb = npu.to_device(a)[1], npu.to_device(b)[1]
    for dt, want in ((np.int32, [3, -3, -2, 0, 0]), (np.float32, a / b)):
        po, to = npu.empty((5,), dt)
        ex = run(npu, opsnn.aclnnDivGetWorkspaceSize, opsnn.aclnnDiv, ta, tb, to)
        assert ex.info["compute_dtype"] == "ACL_FLOAT"
        np.testing.assert_allclose(npu.to_host(po, (5,), dt), want, rtol=1e-6)


def test_integer_add_wraps(npu):
    """int8 arithmetic is exact and wraps like the hardware's."""
    a = np.array([120, -120, 5], np.int8)
    b = np.array([10, -10, 5], np.int8)
    ta, tb = npu.to_device(a)[1], npu.to_device(b)[1]
    po, to = npu.empty((3,), np.int8)
    run(npu, opsnn.aclnnAddGetWorkspaceSize, opsnn.aclnnAdd, ta, tb, opsnn.aclCreateScalar(1, T.ACL_INT64), to)
    np.testing.assert_array_equal(npu.to_host(po, (3,), np.int8), [-126, 126, 10])
