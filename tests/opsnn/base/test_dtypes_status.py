"""opsnn.base.dtypes re-exports ACL's data types (acl_runtime.acl_base, CANN acl_base.h);
opsnn.base.status has no error store of its own."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import opsnn
from acl_runtime import acl, acl_base
from acl_runtime.errors import get_recent_err_msg, set_recent_err_msg
from opsnn.base import dtypes, status


def test_dtypes_are_acl_base_types():
    assert dtypes.aclDataType is acl_base.aclDataType is opsnn.aclDataType
    assert dtypes.aclFormat is acl_base.aclFormat is opsnn.aclFormat
    assert dtypes.to_numpy_dtype is acl_base.to_numpy_dtype and dtypes.from_numpy_dtype is acl_base.from_numpy_dtype
    assert dtypes.to_numpy_dtype(27) == np.dtype(ml_dtypes.bfloat16)
    assert dtypes.dtype_name(acl_base.aclDataType.ACL_BF16) == "bfloat16"
    with pytest.raises(ValueError):
        acl_base.to_numpy_dtype(99)
    with pytest.raises(ValueError):
        acl_base.from_numpy_dtype(np.complex64)


def test_status_writes_and_reads_the_one_store():
    set_recent_err_msg("from acl")
    assert status.aclGetRecentErrMsg() == opsnn.aclGetRecentErrMsg() == acl.get_recent_err_msg() == "from acl"
    status.LAST_ERROR.message = "[161002] from an op"
    assert get_recent_err_msg() == acl.get_recent_err_msg() == "[161002] from an op"
    assert status.LAST_ERROR.message == opsnn.aclGetRecentErrMsg()
