"""Tile programs of the elementwise family: what each kernel charges per element
(bytes in and out, Vector passes incl. fused casts and broadcasts), UB budget and
block/tile counts on the tiny chip and the 910B2 preset."""
import numpy as np
import pytest

import opsnn
from npu_sim.chips import get_chip
from npu_sim.program import Pipe
from opsnn.base.dtypes import aclDataType as T

from .helpers import meta, ntiles, prepare_spec, totals


@pytest.mark.parametrize("fn,args,passes", [
    (opsnn.aclnnSiluGetWorkspaceSize, (), 4),
    (opsnn.aclnnGeluGetWorkspaceSize, (), 14),
])
def test_unary_pass_counts(npu, fn, args, passes):
    x = meta((4096,), T.ACL_FLOAT)
    spec = prepare_spec(fn, x, *args, x)
    assert abs(totals(spec)[Pipe.VECTOR] - passes * 4 * 4096) <= ntiles(spec) * passes * 4
