"""Vector passes per element of the unary kernels of every elementwise family
(arithmetic, pointwise math, activations) through phase 1, side by side."""
import pytest

import opsnn
from npu_sim.program import Pipe
from opsnn.base.dtypes import aclDataType as T

from .helpers import meta, ntiles, prepare_spec, totals


@pytest.mark.parametrize("fn,args,passes", [
    (opsnn.aclnnReluGetWorkspaceSize, (), 1),
    (opsnn.aclnnSiluGetWorkspaceSize, (), 4),
    (opsnn.aclnnGeluGetWorkspaceSize, (), 14),
    (opsnn.aclnnErfGetWorkspaceSize, (), 10),
    (opsnn.aclnnSqrtGetWorkspaceSize, (), 1),
])
def test_unary_pass_counts(npu, fn, args, passes):
    x = meta((4096,), T.ACL_FLOAT)
    spec = prepare_spec(fn, x, *args, x)
    assert abs(totals(spec)[Pipe.VECTOR] - passes * 4 * 4096) <= ntiles(spec) * passes * 4
