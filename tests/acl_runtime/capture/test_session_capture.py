"""Pythonic capture: ``with session.capture(stream) as g`` over real aclnn operators,
then ``g.replay(inputs)`` with new data gives the eager result each time."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime import Session
from acl_runtime.errors import AclRuntimeError


def _softmax(s, x, out, stream):
    opsnn.run_op(opsnn.aclnnSoftmaxGetWorkspaceSize, opsnn.aclnnSoftmax, x, -1, out, stream=stream)


def test_replay_with_new_inputs_matches_eager(clean):
    rng = np.random.default_rng(0)
    with Session("tiny") as s:
        st = s.stream()
        x = s.to_device(rng.standard_normal((4, 32)).astype(np.float32))
        mid, out = s.empty((4, 32), np.float32), s.empty((4, 32), np.float32)
        with s.capture(st) as g:
            _softmax(s, x, mid, st)
            _softmax(s, mid, out, st)
        assert g.num_tasks >= 2
        for k in range(5):
            host = rng.standard_normal((4, 32)).astype(np.float32)
            g.replay({x: host})
            want = np.exp(host) / np.exp(host).sum(-1, keepdims=True)
            want = np.exp(want) / np.exp(want).sum(-1, keepdims=True)
            got = out.numpy(stream=st)
            np.testing.assert_allclose(got, want, rtol=1e-5)
        g.destroy()
        with pytest.raises(AclRuntimeError):
            g.replay()


def test_forbidden_call_inside_the_block_raises_and_invalidates(clean):
    with Session("tiny") as s:
        st = s.stream()
        x = s.empty((8,), np.float32)
        with pytest.raises(AclRuntimeError) as ei:
            with s.capture(st):
                x.copy_from(np.ones(8, np.float32))    # blocking aclrtMemcpy: unsafe
        assert ei.value.code == 107030
        assert np.all(x.numpy() == 0)
