"""Task groups in the Pythonic layer: ``with graph.task_group() as grp`` inside the
capture, ``with graph.update(grp, stream)`` after it: the next replay uses the new
tensors and scalar without a recapture."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime import Session
from acl_runtime.errors import AclRuntimeError


def _muls(x, k, out, st):
    scalar = opsnn.aclCreateScalar(k, opsnn.aclDataType.ACL_FLOAT)
    opsnn.run_op(opsnn.aclnnMulsGetWorkspaceSize, opsnn.aclnnMuls, x, scalar, out, stream=st)


def test_session_task_group_update(clean):
    rng = np.random.default_rng(2)
    with Session("tiny") as s:
        st, up = s.stream(), s.stream()
        a, b = (rng.standard_normal(32).astype(np.float32) for _ in range(2))
        xa, xb = s.to_device(a), s.to_device(b)
        oa, ob = s.empty((32,), np.float32), s.empty((32,), np.float32)
        with s.capture(st) as g:
            with g.task_group() as grp:
                _muls(xa, 2.0, oa, st)
        assert grp.handle
        g.replay()
        np.testing.assert_allclose(oa.numpy(stream=st), a * 2, rtol=1e-6)
        with g.update(grp, up):
            _muls(xb, 0.5, ob, up)
        g.replay()
        np.testing.assert_allclose(ob.numpy(stream=st), b * 0.5, rtol=1e-6)
        with pytest.raises(AclRuntimeError) as ei:
            with g.update(grp, up):
                _muls(xb, 0.5, ob, up)
                _muls(xb, 0.5, ob, up)
        assert ei.value.code == 107000
        g.destroy()
        with pytest.raises(AclRuntimeError) as ei:
            with g.update(grp, up):
                pass
        assert ei.value.code == 100000
