"""Phase-1 error paths of Cast: each returns its CANN status code with a message
naming the parameter."""
import opsnn
from opsnn.base.dtypes import aclDataType as T

from ..helpers import expect_error


def test_cast_errors(t):
    a = t()
    p = opsnn.aclnnCastGetWorkspaceSize
    expect_error(p, (None, T.ACL_FLOAT, a), 161001, "aclnnCast", "self is null")
    expect_error(p, (a, None, a), 161001, "dtype is null")
    expect_error(p, (a, 99, a), 161002, "dtype 99 is not an aclDataType")
    expect_error(p, (a, T.ACL_FLOAT16, a), 161002, "out dtype ACL_FLOAT differs from dtype ACL_FLOAT16")
    expect_error(p, (a, T.ACL_FLOAT, t((3, 2))), 161002, "out shape [3, 2]")
