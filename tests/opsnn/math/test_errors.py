"""Every phase-1 error path of the elementwise family returns its CANN status code
with a message naming the parameter; phase-2 misuse with workspaces."""
import numpy as np
import pytest

import opsnn
from opsnn.base.dtypes import aclDataType as T

from .helpers import expect_error

S = opsnn.aclCreateScalar


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


def test_cast_errors(t):
    a = t()
    p = opsnn.aclnnCastGetWorkspaceSize
    expect_error(p, (None, T.ACL_FLOAT, a), 161001, "aclnnCast", "self is null")
    expect_error(p, (a, None, a), 161001, "dtype is null")
    expect_error(p, (a, 99, a), 161002, "dtype 99 is not an aclDataType")
    expect_error(p, (a, T.ACL_FLOAT16, a), 161002, "out dtype ACL_FLOAT differs from dtype ACL_FLOAT16")
    expect_error(p, (a, T.ACL_FLOAT, t((3, 2))), 161002, "out shape [3, 2]")
