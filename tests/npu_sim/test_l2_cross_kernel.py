"""The L2 kept across kernels (npu_sim.hardware.l2.GmL2): producer-consumer reuse by GM
address, the capacity cliff, and the per-kernel counters.

Expected values follow GmL2's policy (its docstring and docs/timing.md, "L2 across
kernels"): input bytes resident at a kernel's start are read at the L2 rate, the
rest at the HBM rate; outputs are written through and stay resident.
"""
from __future__ import annotations

import pytest

from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips.presets import TINY
from npu_sim.hardware.l2 import GmL2

KiB = 1024


# ---- the interval LRU ----------------------------------------------------------------------------
def test_resident_bytes_and_partial_overlap():
    c = GmL2(1000)
    c.touch(0, 400)
    assert c.resident(0, 400) == 400 and c.resident(200, 400) == 200 and c.resident(400, 100) == 0
    c.touch(200, 400)           # overlaps: [0,200) keeps its old stamp, [200,600) is newest
    assert c.used_bytes == 600 and c.resident(0, 600) == 600


def test_lru_trims_the_oldest_bytes_first():
    c = GmL2(1000)
    c.touch(0, 600)
    c.touch(10_000, 600)        # 200 B over: the oldest interval loses its first 200 B
    assert c.used_bytes == 1000 and c.evicted_bytes == 200
    assert c.resident(0, 200) == 0 and c.resident(200, 400) == 400 and c.resident(10_000, 600) == 600


def test_range_larger_than_l2_keeps_its_tail():
    c = GmL2(1000)
    c.touch(0, 5000)
    assert c.used_bytes == 1000 and c.resident(4000, 1000) == 1000 and c.resident(0, 4000) == 0


def test_kernel_hits_then_update_and_footprint_over_capacity():
    c = GmL2(1000)
    assert c.kernel([(0, 300)], [(1000, 300)]) == (0, 300)      # cold
    assert c.kernel([(1000, 300)], [(2000, 300)]) == (300, 300)  # reads what the last one wrote
    c2 = GmL2(1000)
    c2.touch(0, 600)
    # footprint 600 + 600 = 1200: 200 B over capacity evict 200 resident bytes before use
    assert c2.kernel([(0, 600)], [(5000, 600)]) == (400, 600)


# ---- on the device -------------------------------------------------------------------------------
CHIP = TINY.model_copy(update={"mte2_bytes_per_cycle": 4096, "mte3_bytes_per_cycle": 4096,
                               "l2_cross_kernel_reuse": True})


def _copy_spec(nbytes):
    tile = TileSpec((Stage(Pipe.MTE2, nbytes=nbytes), Stage(Pipe.VECTOR, vector_bytes=256),
                     Stage(Pipe.MTE3, nbytes=nbytes)))
    return KernelSpec("copy", CoreType.AIV, (BlockProgram((tile,)),))


def _chain(chip, nbytes, gm_known=True):
    """Kernel 1 reads x and writes y; kernel 2 reads y and writes z."""
    dev = Device(chip)
    s = dev.create_stream()
    x, y, z = 0, 1 << 24, 2 << 24
    for src, dst in ((x, y), (y, z)):
        gm = ([(src, nbytes)], [(dst, nbytes)], None) if gm_known else None
        dev.submit_kernel(s, KernelLaunch(_copy_spec(nbytes), None, gm), 0.0)
    dev.run_until(None)
    return dev.kernel_records


def test_consumer_reads_producer_output_from_l2():
    n = 64 * KiB
    first, second = _chain(CHIP, n)
    assert first["l2_resident_in_bytes"] == 0 and first["hbm_bytes"] == 2 * n
    assert second["l2_resident_in_bytes"] == n
    assert second["l2_hit_bytes"] == n and second["hbm_bytes"] == n       # read from L2, written through
    assert second["l2_hit_rate"] == pytest.approx(0.5)
    assert second["dur_ns"] < first["dur_ns"]


def test_past_l2_capacity_the_consumer_falls_back_to_hbm():
    """Footprint y + z = 2 x 768 KiB > tiny's 1 MiB L2: only the part of y that survives
    the consumer's own stream hits (768 - 512 = 256 KiB)."""
    n = 768 * KiB
    assert 2 * n > CHIP.l2_bytes
    _, second = _chain(CHIP, n)
    assert second["l2_resident_in_bytes"] == n - (2 * n - CHIP.l2_bytes)
    n = 2 * CHIP.l2_bytes
    _, second = _chain(CHIP, n)
    assert second["l2_resident_in_bytes"] == 0 and second["hbm_bytes"] == 2 * n


def test_switch_off_and_unknown_ranges_leave_timing_cold():
    n = 64 * KiB
    off = _chain(CHIP.model_copy(update={"l2_cross_kernel_reuse": False}), n)
    unknown = _chain(CHIP, n, gm_known=False)
    for recs in (off, unknown):
        assert [r["l2_hit_bytes"] for r in recs] == [0, 0]
        assert recs[0]["dur_ns"] == pytest.approx(recs[1]["dur_ns"])



def test_aclnn_chain_hits_through_the_runtime():
    """Two aclnnRelu calls on 910B2, the second reading the first's output: the launch
    ranges reach the device (opsnn -> acl_runtime -> KernelLaunch.gm)."""
    import opsnn
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from frontend.calibrate import _tensor
    if runtime().initialized:
        acl.finalize()
    acl.init(chip="ascend910b2", timing_only=True)
    acl.rt.set_device(0)
    try:
        x, y, z = (_tensor((1 << 20,), "FLOAT") for _ in range(3))
        for a, b in ((x, y), (y, z)):
            ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(a, b)
            assert ret == 0 and opsnn.aclnnRelu(0, ws, ex, 0) == 0
        acl.rt.synchronize_stream(0)
        first, second = runtime().device.kernel_records[-2:]
        assert first["l2_resident_in_bytes"] == 0 and second["l2_resident_in_bytes"] == 4 << 20
        assert second["l2_hit_rate"] > 0.4 and second["dur_ns"] < first["dur_ns"]
    finally:
        acl.finalize()


def test_interval_lru_matches_a_byte_by_byte_lru():
    """Random touches on small ranges: GmL2 agrees with a per-byte LRU (each byte
    stamped when touched; eviction takes the oldest stamp, lowest address first) on
    every byte's residency and on the evicted count."""
    import random
    rng = random.Random(7)
    cap = 97
    c = GmL2(cap)
    stamp_of: dict[int, int] = {}
    evicted = 0
    for t in range(1, 400):
        a, n = rng.randrange(0, 300), rng.randrange(1, 140)
        c.touch(a, n)
        if n > cap:
            a, n = a + n - cap, cap
        for b in range(a, a + n):
            stamp_of[b] = t
        while len(stamp_of) > cap:
            b = min(stamp_of, key=lambda k: (stamp_of[k], k))
            del stamp_of[b]
            evicted += 1
        assert c.used_bytes == len(stamp_of) and c.evicted_bytes == evicted
        q, m = rng.randrange(0, 300), rng.randrange(1, 80)
        assert c.resident(q, m) == sum(1 for b in range(q, q + m) if b in stamp_of)


def test_captured_graph_replay_carries_the_ranges():
    """The same Relu chain captured (aclmdlRICaptureBegin/End) and replayed: the replayed
    kernels carry their (remapped) ranges, so the second reads the first's output from L2."""
    import opsnn
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from frontend.calibrate import _tensor
    if runtime().initialized:
        acl.finalize()
    acl.init(chip="ascend910b2", timing_only=True)
    acl.rt.set_device(0)
    try:
        s, _ = acl.rt.create_stream()
        x, y, z = (_tensor((1 << 20,), "FLOAT") for _ in range(3))
        prepared = [opsnn.aclnnReluGetWorkspaceSize(a, b) for a, b in ((x, y), (y, z))]
        assert acl.mdl.ri_capture_begin(s, acl.mdl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
        for ws, ex, ret in prepared:
            assert ret == 0 and opsnn.aclnnRelu(0, ws, ex, s) == 0
        ri, ret = acl.mdl.ri_capture_end(s)
        assert ret == 0, acl.get_recent_err_msg()
        assert acl.mdl.ri_execute_async(ri, s) == 0 and acl.rt.synchronize_stream(s) == 0
        first, second = runtime().device.kernel_records[-2:]
        assert first["l2_resident_in_bytes"] == 0 and second["l2_resident_in_bytes"] == 4 << 20
    finally:
        acl.finalize()
