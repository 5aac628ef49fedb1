"""Fixtures for the runtime tests: a clean (uninitialised) ACL state, and synthetic
kernels of a known duration that bypass opsnn."""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime.runtime import runtime
from npu_sim import BlockProgram, CoreType, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec


def _finalize_if_needed():
    from acl_runtime import api
    s = api.active_session()
    if s is not None:
        s.close()
    if runtime().initialized:
        acl.finalize()


@pytest.fixture
def clean():
    """ACL not initialised before the test; finalised after it whatever happened."""
    _finalize_if_needed()
    yield
    _finalize_if_needed()


def vector_launch(vector_repeats: int, body=None, name: str = "Synthetic") -> KernelLaunch:
    """A one-block AIV kernel with one VECTOR stage of ``vector_repeats`` 256 B repeats
    (on tiny: that many ns plus the 20 ns scalar overhead), running ``body`` at the end."""
    stage = Stage(Pipe.VECTOR, vector_bytes=256 * vector_repeats)
    spec = KernelSpec(name, CoreType.AIV, (BlockProgram((TileSpec((stage,)),)),))
    return KernelLaunch(spec, body)


def fill_body(ptr: int, n: int, value: float):
    """A functional body that writes ``value`` into ``n`` float32 at ``ptr``."""
    def body(mem):
        mem.array(ptr, (n,), np.float32)[...] = value
    return body


def stream_spans(stream_id: int, name: str | None = None):
    dev = runtime().device
    return [s for s in dev.recorder.spans
            if s.track == (dev.track_pid, f"stream {stream_id}") and (name is None or s.name == name)]
