"""Phase-1 error paths of SWhere/Where, EqTensor/EqScalar and Equal: each returns its
CANN status code with a message naming the parameter."""
import numpy as np

import opsnn

from ..helpers import expect_error


def test_select_errors(t):
    a, f = t(dt=np.bool_), t()
    w = opsnn.aclnnSWhereGetWorkspaceSize
    expect_error(w, (None, f, f, f), 161001, "aclnnSWhere", "condition is null")
    expect_error(w, (f, f, f, f), 161002, "condition dtype ACL_FLOAT not supported", "ACL_BOOL, ACL_UINT8")
    expect_error(w, (a, f, f, t(dt=np.int8)), 161002, "cannot be cast to out dtype ACL_INT8")
    expect_error(w, (t((4,), np.bool_), f, f, f), 161002, "do not broadcast", "condition [4]")
    expect_error(opsnn.aclnnWhereGetWorkspaceSize, (a, f, None, f), 161001, "aclnnWhere", "other is null")
    expect_error(opsnn.aclnnEqTensorGetWorkspaceSize, (f, f, t((3, 3), np.bool_)), 161002, "aclnnEqTensor",
                 "out shape [3, 3]")
    expect_error(opsnn.aclnnEqScalarGetWorkspaceSize, (f, "1", a), 161002, "other must be an aclScalar")
    e = opsnn.aclnnEqualGetWorkspaceSize
    expect_error(e, (f, f, t((1,), np.int32)), 161002, "aclnnEqual", "out dtype ACL_INT32 not supported")
    expect_error(e, (f, f, t((2,), np.bool_)), 161002, "out must hold one element, got shape [2]")
    expect_error(e, (f, None, t((1,), np.bool_)), 161001, "other is null")
