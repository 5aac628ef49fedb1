"""aclCreateTensor / aclCreateScalar / aclCreateIntArray and their destroy calls on
bad input: each returns None (create) or a status code (destroy) with a readable
message in ``aclGetRecentErrMsg()``, never an exception."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from opsnn.base.status import ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, ACLNN_SUCCESS

T = opsnn.aclDataType
ND = 2


def _tensor(**kw):
    args = dict(view_dims=(2, 3), data_type=T.ACL_FLOAT, stride=None, offset=0, format=ND, storage_dims=(2, 3),
                tensor_data=64)
    args.update(kw)
    return opsnn.aclCreateTensor(args["view_dims"], args["data_type"], args["stride"], args["offset"],
                                 args["format"], args["storage_dims"], args["tensor_data"])


def _fails(result, code: int, *needles: str) -> None:
    assert result is None
    msg = opsnn.aclGetRecentErrMsg()
    assert msg.startswith(f"[{code}]"), msg
    for n in needles:
        assert n in msg, msg


# ------------------------------------------------------------------------------ aclCreateTensor
@pytest.mark.parametrize("kw, needles", [
    (dict(tensor_data=-32), ("tensorData", "negative")),
    (dict(tensor_data=4.7), ("tensorData", "not an int")),
    (dict(tensor_data=64.0), ("tensorData", "not an int")),
    (dict(tensor_data=True), ("tensorData", "not an int")),
    (dict(tensor_data="64"), ("tensorData", "not an int")),
    (dict(view_dims=(2.0, 3)), ("viewDims", "not an int")),
    (dict(view_dims=(2, True)), ("viewDims", "not an int")),
    (dict(storage_dims=(2, 3.5)), ("storageDims", "not an int")),
    (dict(stride=(3.0, 1)), ("stride", "not an int")),
    (dict(offset=0.5), ("offset", "not an int")),
    (dict(offset=None), ("offset", "not an int")),
    (dict(data_type=0.0), ("dataType", "not an int")),
    (dict(data_type=99), ("dataType", "99")),
    (dict(format=2.0), ("format", "not an int")),
    (dict(format=7), ("format", "7")),
    (dict(view_dims=5), ("viewDims", "sequence")),
    (dict(view_dims=(2, -3)), ("negative",)),
    (dict(stride=(-1, 1)), ("non-negative",)),
    (dict(offset=-1), ("non-negative",)),
    (dict(tensor_data=48), ("32-byte aligned",)),
])
def test_create_tensor_rejects_bad_metadata(kw, needles):
    """Negative or non-int (float, bool, str) addresses, dims, strides, offset, dtype
    or format are 161002 with a message naming the parameter."""
    _fails(_tensor(**kw), ACLNN_ERR_PARAM_INVALID, *needles)


@pytest.mark.parametrize("kw", [dict(view_dims=None), dict(storage_dims=None)])
def test_create_tensor_null_dims(kw):
    _fails(_tensor(**kw), ACLNN_ERR_PARAM_NULLPTR, "null")


def test_create_tensor_accepts_numpy_integers():
    """numpy integer dims, strides, offset, dtype, format and address work like ints."""
    t = _tensor(view_dims=np.array([2, 3], np.int64), stride=(np.int32(3), np.int64(1)), offset=np.int64(0),
                data_type=np.int32(T.ACL_FLOAT), format=np.int64(ND), storage_dims=(np.int64(2), np.uint8(3)),
                tensor_data=np.int64(96))
    assert t is not None, opsnn.aclGetRecentErrMsg()
    assert t.view_shape == (2, 3) and t.view_strides == (3, 1) and t.tensor_data == 96
    assert all(type(d) is int for d in t.view_shape + t.view_strides + t.storage_shape)
    assert type(t.tensor_data) is int and type(t.view_offset) is int


def test_create_tensor_address_zero_is_allowed():
    """Address 0 is a tensor bound later (aclSetInputTensorAddr)."""
    assert _tensor(tensor_data=0) is not None


# ----------------------------------------------------------------------------- aclDestroyTensor
@pytest.mark.parametrize("bad", [5, "t", 1.5, opsnn.aclCreateIntArray([1])])
def test_destroy_tensor_wrong_type(bad):
    assert opsnn.aclDestroyTensor(bad) == ACLNN_ERR_PARAM_INVALID
    msg = opsnn.aclGetRecentErrMsg()
    assert msg.startswith(f"[{ACLNN_ERR_PARAM_INVALID}]") and "aclDestroyTensor" in msg and "aclTensor" in msg


def test_destroy_tensor_null_and_ok():
    assert opsnn.aclDestroyTensor(None) == ACLNN_ERR_PARAM_NULLPTR
    assert "null" in opsnn.aclGetRecentErrMsg()
    t = _tensor()
    assert opsnn.aclDestroyTensor(t) == ACLNN_SUCCESS and t.destroyed


# ------------------------------------------------------------------------------ aclCreateScalar
@pytest.mark.parametrize("value, dtype, needles", [
    ("x", T.ACL_FLOAT, ("str", "FLOAT")),
    ("1.5", T.ACL_FLOAT, ("str",)),
    (b"1", T.ACL_INT32, ("bytes",)),
    ([1.0], T.ACL_FLOAT, ("list",)),
    (np.ones(2), T.ACL_FLOAT, ("ndarray",)),
    (1 + 2j, T.ACL_FLOAT, ("complex",)),
    (300, T.ACL_INT8, ("300", "INT8")),
    (-1, T.ACL_UINT8, ("-1", "UINT8")),
    (2 ** 63, T.ACL_INT64, ("INT64",)),
    (1.5, T.ACL_INT32, ("1.5", "INT32")),
    (float("nan"), T.ACL_INT64, ("nan", "INT64")),
    (float("inf"), T.ACL_INT32, ("inf",)),
    (1.0, 99, ("99",)),
    (1.0, 0.0, ("dataType", "not an int")),
])
def test_create_scalar_rejects_unconvertible_values(value, dtype, needles):
    """A value that the dtype cannot hold fails at creation with 161002."""
    _fails(opsnn.aclCreateScalar(value, dtype), ACLNN_ERR_PARAM_INVALID, "aclCreateScalar", *needles)


def test_create_scalar_null_value():
    _fails(opsnn.aclCreateScalar(None, T.ACL_FLOAT), ACLNN_ERR_PARAM_NULLPTR, "null")


@pytest.mark.parametrize("value, dtype, expect", [
    (1.5, T.ACL_FLOAT, 1.5), (2, T.ACL_FLOAT, 2.0), (True, T.ACL_FLOAT, 1.0), (np.float64(0.25), T.ACL_FLOAT16, 0.25),
    (3, T.ACL_INT8, 3), (np.int64(-7), T.ACL_INT64, -7), (4.0, T.ACL_INT32, 4), (True, T.ACL_BOOL, True),
    (1, T.ACL_BOOL, True), (1e40, T.ACL_FLOAT, float("inf")), (255, T.ACL_UINT8, 255),
    (np.asarray(2.5, np.float32), T.ACL_FLOAT, 2.5), (np.asarray(3), T.ACL_INT32, 3),
])
def test_create_scalar_valid(value, dtype, expect):
    """Numbers the dtype can hold (floats beyond float32's range round to inf, as a C
    cast does) are accepted and read back in that dtype."""
    s = opsnn.aclCreateScalar(value, dtype)
    assert s is not None, opsnn.aclGetRecentErrMsg()
    assert s.to_python() == expect


# ------------------------------------------------------------------- scalar / int array destroy
@pytest.mark.parametrize("destroy, good, bad", [
    (opsnn.aclDestroyScalar, lambda: opsnn.aclCreateScalar(1.0, T.ACL_FLOAT), [5, 1.0, "s", (1, 2)]),
    (opsnn.aclDestroyIntArray, lambda: opsnn.aclCreateIntArray([1, 2]), [5, [1, 2], (1, 2), "ab"]),
])
def test_destroy_scalar_and_int_array(destroy, good, bad):
    """Destroy: 0 for the right type, 161001 for None, 161002 (with a message) for anything else."""
    assert destroy(good()) == ACLNN_SUCCESS
    assert destroy(None) == ACLNN_ERR_PARAM_NULLPTR
    assert destroy.__name__ in opsnn.aclGetRecentErrMsg() and "null" in opsnn.aclGetRecentErrMsg()
    for b in bad:
        assert destroy(b) == ACLNN_ERR_PARAM_INVALID, b
        msg = opsnn.aclGetRecentErrMsg()
        assert msg.startswith(f"[{ACLNN_ERR_PARAM_INVALID}]") and destroy.__name__ in msg, msg


# --------------------------------------------------------------------------- aclCreateIntArray
@pytest.mark.parametrize("values, needles", [
    ([1, 2.5], ("not an int",)), ([True, 2], ("not an int",)), (["1"], ("not an int",)), (5, ("sequence",)),
])
def test_create_int_array_rejects_non_ints(values, needles):
    _fails(opsnn.aclCreateIntArray(values), ACLNN_ERR_PARAM_INVALID, "aclCreateIntArray", *needles)


def test_create_int_array_null_and_numpy():
    _fails(opsnn.aclCreateIntArray(None), ACLNN_ERR_PARAM_NULLPTR, "null")
    a = opsnn.aclCreateIntArray(np.array([3, 1], np.int64))
    assert a == (3, 1) and all(type(v) is int for v in a)
    assert opsnn.aclCreateIntArray([]) == ()
