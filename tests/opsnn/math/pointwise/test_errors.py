"""Phase-1 error paths of Erf, Sqrt, Pow and Clamp: each returns its CANN status code
with a message naming the parameter."""
import numpy as np

import opsnn
from opsnn.base.dtypes import aclDataType as T

from ..helpers import expect_error

S = opsnn.aclCreateScalar


def test_pointwise_errors(t):
    a, i = t(), t(dt=np.int32)
    expect_error(opsnn.aclnnErfGetWorkspaceSize, (a, None), 161001, "aclnnErf", "out is null")
    expect_error(opsnn.aclnnSqrtGetWorkspaceSize, (i, i), 161002, "aclnnSqrt",
                 "result dtype ACL_FLOAT cannot be cast to out dtype ACL_INT32")
    p = opsnn.aclnnPowTensorScalarGetWorkspaceSize
    expect_error(p, (a, None, a), 161001, "exponent is null")
    expect_error(p, (i, S(-1, T.ACL_INT64), i), 161002, "integer ACL_INT32 to the negative power -1")
    b = t(dt=np.bool_)
    expect_error(opsnn.aclnnPowTensorTensorGetWorkspaceSize, (b, b, b), 161002, "pow of bool operands")
    expect_error(opsnn.aclnnPowTensorTensorGetWorkspaceSize, (a, t((4,)), a), 161002, "do not broadcast")
    c = opsnn.aclnnClampGetWorkspaceSize
    expect_error(c, (a, None, None, a), 161001, "aclnnClamp", "clipValueMin and clipValueMax are both null")
    expect_error(c, (b, S(0, T.ACL_INT64), None, b), 161002, "self dtype ACL_BOOL not supported")
    expect_error(c, (i, S(0.5, T.ACL_FLOAT), None, i), 161002, "cannot be cast to out dtype ACL_INT32")
    expect_error(opsnn.aclnnClampMinGetWorkspaceSize, (a, None, a), 161001, "aclnnClampMin",
                 "clipValueMin is null")
    expect_error(opsnn.aclnnClampMaxGetWorkspaceSize, (a, None, a), 161001, "clipValueMax is null")
    ct = opsnn.aclnnClampTensorGetWorkspaceSize
    expect_error(ct, (a, None, None, a), 161001, "aclnnClampTensor", "both null")
    expect_error(ct, (a, 0.5, None, a), 161002, "clipValueMin must be an aclTensor")
