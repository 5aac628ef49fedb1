"""Instantiating a captured fork/join graph: buffer lifetimes from happens-before
(stream order + event record -> wait), one arena, kernels rebound; replays are correct
and concurrent buffers on unordered streams never share."""
from __future__ import annotations

import numpy as np

from acl_runtime import acl
from acl_runtime.capture import manager
from acl_runtime.runtime import runtime

from ..conftest import vector_launch

N = 1024   # float32 elements per buffer (4 KiB)


class SumKernel:
    """A prepared-kernel stand-in: out (last address) = sum of inputs + ``add``."""

    def __init__(self, add: float):
        self.spec = vector_launch(100).spec
        self.add = add

    def make_body(self, addrs, ws):
        def body(mem):
            acc = np.full(N, self.add, np.float32)
            for a in addrs[:-1]:
                acc = acc + mem.array(a, (N,), np.float32)
            mem.array(addrs[-1], (N,), np.float32)[...] = acc
        return body


def _launch(stream, add, *addrs):
    runtime().launch_prepared(stream, [SumKernel(add)], [{}], "Sum", list(addrs), 0)


def test_fork_join_plan_and_replay(npu):
    a, b = acl.rt.create_stream()[0], acl.rt.create_stream()[0]
    fork, join = acl.rt.create_event()[0], acl.rt.create_event()[0]
    x, y, z, w = (npu.malloc(4 * N) for _ in range(4))
    out = npu.malloc(4 * N)
    assert acl.mdl.ri_capture_begin(a, 0) == 0
    _launch(a, 1.0, x)                 # K1: x = 1
    assert acl.rt.record_event(fork, a) == 0
    assert acl.rt.stream_wait_event(b, fork) == 0
    _launch(b, 1.0, x, y)              # K2 (stream b): y = x + 1 = 2
    _launch(a, 10.0, x, z)             # K3 (stream a, concurrent with K2): z = x + 10 = 11
    assert acl.rt.record_event(join, b) == 0
    assert acl.rt.stream_wait_event(a, join) == 0
    _launch(a, 0.0, y, z, w)           # K4: w = y + z = 13
    _launch(a, 0.0, w, out)            # K5: out = w (out is not planned: read back by the host)
    ri, ret = acl.mdl.ri_capture_end(a)
    assert ret == 0, acl.get_recent_err_msg()
    plan = manager(runtime()).instantiate(ri, {p: 4 * N for p in (x, y, z, w)})
    off = plan.offsets
    # x, y, z are live together (y and z on unordered streams); w may reuse x only.
    assert len({off[x], off[y], off[z]}) == 3
    assert plan.arena_bytes == plan.lower_bound_bytes == 3 * 4 * N < plan.naive_bytes
    assert off[w] == off[x]
    for _ in range(3):
        assert acl.mdl.ri_execute_async(ri, a) == 0 and acl.rt.synchronize_device() == 0
        assert (npu.to_host(out, (N,), np.float32) == 13.0).all()
    # the arena counter: bytes of planned buffers between their first and last use in
    # capture order, at each kernel (K1..K5), then 0 after the last
    assert manager(runtime()).model(ri).arena_use == [4 * N, 2 * 4 * N, 3 * 4 * N, 3 * 4 * N, 4 * N, 0]
    track = [c for c in runtime().profiler.host.counters if c.track == acl.mdl.ARENA_COUNTER[0]]
    assert len(track) == 3 * 6 and track[-1].value == 0
    assert acl.mdl.ri_destroy(ri) == 0
