"""Stream priorities (aclrtCreateStreamWithConfig) and the stream budget that captured
graphs use up.

Priority: 0 is the highest and 7 the lowest, out-of-range values are clamped (CANN
aclrtCreateStreamWithConfig reference, hiascend.com aclcppdevg_03_0069). When blocks
of kernels on different streams wait for cores, a higher-priority stream's blocks get
the cores as they free up; running blocks are never preempted. The checks read the
schedule (kernel records on the device clock), not wall time.
"""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import Session, acl
from acl_runtime import constants as C
from acl_runtime.runtime import runtime
from npu_sim import BlockProgram, CoreType, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec


def _wide(blocks: int, repeats: int, name: str) -> KernelLaunch:
    """An AIV kernel of ``blocks`` identical blocks, each ``repeats`` vector repeats."""
    prog = BlockProgram((TileSpec((Stage(Pipe.VECTOR, vector_bytes=256 * repeats),)),))
    return KernelLaunch(KernelSpec(name, CoreType.AIV, (prog,) * blocks), None)


def _contend(prio_a: int, prio_b: int) -> dict[str, float]:
    """Kernel A (stream priority ``prio_a``) and kernel B (``prio_b``), each 4x as many
    blocks as the chip has AIVs, enqueued A first; returns each kernel's end (ns)."""
    acl.init(chip="tiny")
    try:
        acl.rt.set_device(0)
        n = len(runtime().device.cores[CoreType.AIV])
        sa, ret_a = acl.rt.create_stream_with_config(prio_a, 0)
        sb, ret_b = acl.rt.create_stream_with_config(prio_b, 0)
        assert ret_a == ret_b == 0
        runtime().launch_kernel(sa, _wide(4 * n, 20_000, "A"))
        runtime().launch_kernel(sb, _wide(4 * n, 20_000, "B"))
        assert acl.rt.synchronize_device() == 0
        return {r["name"]: r["start_ns"] + r["dur_ns"] for r in runtime().device.kernel_records}
    finally:
        acl.finalize()


def test_a_high_priority_stream_finishes_first_when_contending(clean):
    equal = _contend(3, 3)
    high_b = _contend(7, 0)
    # equal priorities: FIFO, so the blocks interleave and A (enqueued first) ends first
    assert equal["A"] <= equal["B"]
    # B at priority 0 against A at 7: B's waiting blocks take every core that frees up
    assert high_b["B"] < equal["B"]
    assert high_b["B"] < high_b["A"]
    # the work is the same, so the last kernel ends at the same time either way
    assert max(high_b.values()) == pytest.approx(max(equal.values()))


def test_equal_nonzero_priorities_schedule_as_the_default(clean):
    assert _contend(5, 5) == _contend(0, 0)


def test_priority_is_clamped_and_kept_on_the_stream(clean):
    acl.init(chip="tiny")
    try:
        acl.rt.set_device(0)
        for given, kept in ((-3, 0), (0, 0), (4, 4), (7, 7), (99, 7)):
            s, ret = acl.rt.create_stream_with_config(given, 0x1)   # ACL_STREAM_FAST_LAUNCH: no effect on times
            assert ret == 0
            assert runtime().device.streams[s].priority == kept
        s, ret = acl.rt.create_stream_with_config("high", 0)
        assert ret == C.ACL_ERROR_INVALID_PARAM and s == 0
    finally:
        acl.finalize()


def test_session_stream_priority(clean):
    with Session(chip="tiny") as s:
        hi, lo = s.stream(priority=0), s.stream(priority=7)
        dev = runtime().device
        assert dev.streams[hi.handle].priority == 0 and dev.streams[lo.handle].priority == 7


def test_captured_graphs_count_against_the_stream_budget(clean):
    """Each live model run instance holds its capture's streams until aclmdlRIDestroy
    (CANN aclmdlRICaptureBegin: captured streams use up stream resources): with the
    budget filled by streams and one captured graph, aclrtCreateStream says 207008;
    destroying the graph gives the stream back."""
    acl.init(chip="tiny")
    try:
        acl.rt.set_device(0)
        made = []
        while len(runtime().device.streams) < C.MAX_STREAMS_PER_DEVICE - 1:
            s, ret = acl.rt.create_stream()
            assert ret == 0
            made.append(s)
        cap = made[0]
        x = np.ones(64, np.float32)
        host, ret = acl.rt.malloc_host(x.nbytes)
        dptr, ret2 = acl.rt.malloc(x.nbytes, 0)
        assert ret == ret2 == 0
        assert acl.mdl.ri_capture_begin(cap, acl.mdl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
        assert acl.rt.memcpy_async(dptr, x.nbytes, host, x.nbytes, C.ACL_MEMCPY_HOST_TO_DEVICE, cap) == 0
        ri, ret = acl.mdl.ri_capture_end(cap)
        assert ret == 0
        assert runtime().streams.captured_streams() == 1
        s, ret = acl.rt.create_stream()
        assert ret == C.ACL_ERROR_RT_NO_STREAM_RESOURCE == 207008 and s == 0
        assert "captured graphs hold 1" in acl.get_recent_err_msg()
        assert acl.mdl.ri_destroy(ri) == 0
        s, ret = acl.rt.create_stream()
        assert ret == 0 and s
    finally:
        acl.finalize()
