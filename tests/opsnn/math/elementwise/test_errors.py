"""Phase-1 error paths of Add, Sub, Mul, Div (all forms) and Relu: each returns its CANN status code with a message
naming the parameter; phase-2 misuse with workspaces."""
import numpy as np

import opsnn
from opsnn.base.dtypes import aclDataType as T

from ..helpers import expect_error

S = opsnn.aclCreateScalar


def test_add_family_nulls(t):
    a = t()
    p = opsnn.aclnnAddGetWorkspaceSize
    expect_error(p, (None, a, 1.0, a), 161001, "aclnnAdd", "self is null")
    expect_error(p, (a, None, 1.0, a), 161001, "other is null")
    expect_error(p, (a, a, None, a), 161001, "alpha is null")
    expect_error(p, (a, a, 1.0, None), 161001, "out is null")
    expect_error(opsnn.aclnnAddsGetWorkspaceSize, (a, None, 1.0, a), 161001, "aclnnAdds", "other is null")
    expect_error(opsnn.aclnnInplaceAddGetWorkspaceSize, (None, a, 1.0), 161001, "aclnnInplaceAdd",
                 "selfRef is null")
    expect_error(opsnn.aclnnMulGetWorkspaceSize, (a, a, None), 161001, "aclnnMul", "out is null")
    expect_error(opsnn.aclnnInplaceDivsGetWorkspaceSize, (a, None), 161001, "aclnnInplaceDivs", "other is null")
    opsnn.aclDestroyTensor(a)
    expect_error(p, (a, t(), 1.0, t()), 161001, "self was destroyed")


def test_add_family_invalid(t):
    a, i = t(), t(dt=np.int32)
    p = opsnn.aclnnAddGetWorkspaceSize
    expect_error(p, (a, [1, 2], 1.0, a), 161002, "other must be an aclTensor, got list")
    expect_error(p, (a, a, "two", a), 161002, "alpha must be an aclScalar or a number, got str")
    expect_error(p, (a, a, 1.0, i), 161002, "result dtype ACL_FLOAT cannot be cast to out dtype ACL_INT32")
    expect_error(p, (i, i, 1.0, i), 161002, "alpha dtype ACL_FLOAT cannot be cast to the promoted dtype ACL_INT32")
    expect_error(p, (i, i, S(1, T.ACL_INT32), t(dt=np.bool_)), 161002, "cannot be cast to out dtype ACL_BOOL")
    expect_error(p, (a, t((3, 2)), 1.0, a), 161002, "shapes do not broadcast", "self [2, 3]", "other [3, 2]")
    expect_error(p, (a, t((3,)), 1.0, t((2,))), 161002, "out shape [2] does not match the broadcast shape [2, 3]")
    big = t((1,) * 9)
    expect_error(p, (big, big, 1.0, big), 161002, "self has 9 dims; at most 8")
    b = t(dt=np.bool_)
    expect_error(opsnn.aclnnSubGetWorkspaceSize, (b, b, True, b), 161002, "aclnnSub",
                 "subtraction of two bool operands")
    expect_error(opsnn.aclnnSubsGetWorkspaceSize, (b, S(True, T.ACL_BOOL), True, b), 161002,
                 "subtraction of two bool")
    expect_error(opsnn.aclnnInplaceAddGetWorkspaceSize, (t((3,)), a, 1.0), 161002,
                 "selfRef shape [3] does not match the broadcast shape [2, 3]")
    expect_error(opsnn.aclnnInplaceMulGetWorkspaceSize, (i, a), 161002, "aclnnInplaceMul",
                 "result dtype ACL_FLOAT cannot be cast to selfRef dtype ACL_INT32")
    expect_error(opsnn.aclnnDivGetWorkspaceSize, (a, a, t(dt=np.bool_)), 161002, "aclnnDiv",
                 "cannot be cast to out dtype ACL_BOOL")
    expect_error(opsnn.aclnnMulsGetWorkspaceSize, (a, object(), a), 161002, "other must be an aclScalar")


def test_relu_errors(t):
    p = opsnn.aclnnReluGetWorkspaceSize
    expect_error(p, (None, t()), 161001, "aclnnRelu", "self is null")
    b = t(dt=np.bool_)
    expect_error(p, (b, b), 161002, "self dtype ACL_BOOL not supported")
    expect_error(p, (t(), t(dt=np.float16)), 161002, "out dtype ACL_FLOAT16 not supported")
    expect_error(p, (t(), t((3, 2))), 161002, "out shape [3, 2]")
    expect_error(opsnn.aclnnInplaceReluGetWorkspaceSize, (None,), 161001, "selfRef is null")


def test_overlapping_out_view_is_rejected(npu, t):
    """An out view with a stride-0 dim would be written twice: 161002."""
    ptr, _ = npu.to_device(np.zeros(3, np.float32))
    out = opsnn.aclCreateTensor((2, 3), T.ACL_FLOAT, (0, 1), 0, 2, (3,), ptr)
    expect_error(opsnn.aclnnAddGetWorkspaceSize, (t(), t(), 1.0, out), 161002, "out view [2, 3]",
                 "overlaps itself (stride 0)")


def test_phase2_workspace_checks(npu, rng):
    """A non-contiguous input needs workspace: a short or null workspace fails in
    phase 2 with 161002 / 161001 and the executor stays usable for a proper run."""
    x = rng.standard_normal((6, 5)).astype(np.float32)
    ptr, _ = npu.to_device(np.ascontiguousarray(x.T))
    tx = opsnn.aclCreateTensor((6, 5), T.ACL_FLOAT, (1, 6), 0, 2, (5, 6), ptr)
    py, ty = npu.empty((6, 5), np.float32)
    ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(tx, ty)
    assert ret == 0 and ws == 128 and ex.workspace_size == ws   # 6*5*4 B aligned to 32
    assert opsnn.aclnnRelu(npu.malloc(64), 64, ex, 0) == 161002
    assert "workspace of 64 B is smaller than the 128 B" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnRelu(0, ws, ex, 0) == 161001
    assert "workspace address is null" in opsnn.aclGetRecentErrMsg()
    npu.run((ws, ex, 0), opsnn.aclnnRelu)
    np.testing.assert_array_equal(npu.to_host(py, (6, 5), np.float32), np.maximum(x, 0))
