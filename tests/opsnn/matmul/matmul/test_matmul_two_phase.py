"""The two-phase contract through the pyACL-style binding, as a CANN user writes it."""
import numpy as np

import opsnn
from acl_runtime import acl
from tests.conftest import rel_err


def test_matmul_matches_float64(npu, rng):
    a = rng.standard_normal((100, 70)).astype(np.float32)
    b = rng.standard_normal((70, 130)).astype(np.float32)
    pa, ta = npu.to_device(a)
    pb, tb = npu.to_device(b)
    pc, tc = npu.empty((100, 130), np.float32)
    npu.run(opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0), opsnn.aclnnMatmul)
    assert rel_err(npu.to_host(pc, (100, 130), np.float32), a.astype(np.float64) @ b) < 1e-5
