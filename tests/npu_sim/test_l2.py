"""L2: the LRU over keyed GM ranges, and what it does to kernel timing.

Expected values come from the policy in npu_sim/hardware/l2.py and the formulas in
docs/timing.md (hit bytes at L2 bandwidth, missed and unkeyed bytes at HBM
bandwidth), evaluated on chip fields.
"""
from __future__ import annotations

import pytest

from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips.presets import TINY
from npu_sim.hardware.l2 import L2Cache
from npu_sim.program import GmRange


# ---- the LRU itself ------------------------------------------------------------------------------
def test_lru_hits_misses_and_eviction_order():
    c = L2Cache(300)
    assert not c.read("a", 100) and not c.read("b", 100) and not c.read("c", 100)
    assert c.used_bytes == 300
    assert c.read("a", 100)              # a is now the most recently used
    assert not c.read("d", 100)          # evicts b, the least recently used
    assert "b" not in c and "a" in c and "c" in c and "d" in c
    assert (c.hits, c.misses, c.evictions) == (1, 4, 1)
    assert (c.hit_bytes, c.miss_bytes) == (100, 400)


def test_lru_oversize_range_is_not_cached_and_write_allocates():
    c = L2Cache(100)
    assert not c.read("big", 101) and "big" not in c and c.used_bytes == 0
    c.write("w", 60)
    assert c.read("w", 60)
    c.write("w", 80)                     # rewriting replaces the size
    assert c.used_bytes == 80
    c.clear()
    assert c.used_bytes == 0 and "w" not in c


# ---- on the device -------------------------------------------------------------------------------
def _run(chip, blocks, core_type=CoreType.AIV, buffer_num=2):
    dev = Device(chip)
    s = dev.create_stream()
    dev.submit_kernel(s, KernelLaunch(KernelSpec("k", core_type, tuple(blocks), buffer_num), None), 0.0)
    dev.run_until(None)
    (rec,) = dev.kernel_records
    return dev, rec


def _read(nbytes, key, count=1):
    return BlockProgram((TileSpec((Stage(Pipe.MTE2, nbytes=nbytes, gm_ranges=(GmRange(nbytes, 0, key),)),), count),))


FAST_ENGINE = TINY.model_copy(update={"mte2_bytes_per_cycle": 4096})


def test_shared_weight_is_read_from_hbm_once():
    """Four blocks read the same keyed 4 KiB range at once: the first misses (HBM), the
    other three hit (L2); HBM carries the range once."""
    nbytes = 4096
    dev, rec = _run(FAST_ENGINE, [_read(nbytes, "W")] * 4)
    assert rec["hbm_bytes"] == nbytes and rec["l2_hit_bytes"] == 3 * nbytes
    assert dev.hbm.bytes_moved == nbytes and dev.l2.bytes_moved == 3 * nbytes
    spans = sorted((s for s in dev.recorder.spans if s.cat == "pipe"), key=lambda s: s.track[1])
    fixed = TINY.dma_latency_ns + TINY.scalar_ns_per_tile
    hbm_t = nbytes / TINY.hbm_bandwidth_bytes_per_ns
    l2_t = [(k + 1) * nbytes / TINY.l2_bandwidth_bytes_per_ns for k in range(3)]  # FIFO on L2
    assert sorted(s.dur_ns for s in spans) == pytest.approx(sorted([hbm_t + fixed] + [t + fixed for t in l2_t]))


def test_unkeyed_reads_always_go_to_hbm():
    nbytes = 4096
    prog = BlockProgram((TileSpec((Stage(Pipe.MTE2, nbytes=nbytes),), 3),))
    _, rec = _run(FAST_ENGINE, [prog] * 2)
    assert rec["hbm_bytes"] == 6 * nbytes and rec["l2_hit_bytes"] == 0


def test_key_index_within_a_group_distinguishes_tiles():
    """TileSpec(count=3) with one key reads (key, 0), (key, 1), (key, 2): three distinct
    ranges, so a block alone misses all three; a second block re-reading them hits."""
    nbytes = 2048
    _, one = _run(FAST_ENGINE, [_read(nbytes, "K", 3)])
    assert one["hbm_bytes"] == 3 * nbytes and one["l2_hit_bytes"] == 0
    _, two = _run(FAST_ENGINE, [_read(nbytes, "K", 3)] * 2)
    assert two["hbm_bytes"] == 3 * nbytes and two["l2_hit_bytes"] == 3 * nbytes


def test_keys_do_not_cross_kernel_launches():
    """The same program launched twice: keys are scoped to the launch, so the second
    launch misses too."""
    dev = Device(FAST_ENGINE)
    s = dev.create_stream()
    spec = KernelSpec("k", CoreType.AIV, (_read(4096, "W"),))
    for _ in range(2):
        dev.submit_kernel(s, KernelLaunch(spec, None), 0.0)
    dev.run_until(None)
    assert [r["hbm_bytes"] for r in dev.kernel_records] == [4096, 4096]


def test_capacity_thrash_versus_fit():
    """One block reads 8 distinct 256 KiB ranges twice over. They fit tiny's 1 MiB L2
    only if there are at most 4 of them: 4 ranges -> second pass hits; 8 -> LRU thrash,
    every read misses."""
    rng = 256 * 1024

    def prog(n_keys):
        tiles = tuple(TileSpec((Stage(Pipe.MTE2, nbytes=rng, gm_ranges=(GmRange(rng, 0, ("R", k)),)),))
                      for _ in range(2) for k in range(n_keys))
        return BlockProgram(tiles)

    assert 4 * rng == TINY.l2_bytes
    _, fit = _run(FAST_ENGINE, [prog(4)])
    assert fit["hbm_bytes"] == 4 * rng and fit["l2_hit_bytes"] == 4 * rng
    _, thrash = _run(FAST_ENGINE, [prog(8)])
    assert thrash["hbm_bytes"] == 16 * rng and thrash["l2_hit_bytes"] == 0


def test_keyed_write_then_read_hits():
    """A keyed MTE3 write goes into the write-back L2 (nothing to HBM while it stays); a
    later keyed read of the same key in the same launch hits. With buffer_num=1, tile
    2's copy-in waits for tile 1's compute, which waited for tile 0's copy-out: the
    write comes first."""
    n = 4096
    vec = Stage(Pipe.VECTOR, vector_bytes=256)
    w = Stage(Pipe.MTE3, nbytes=n, gm_ranges=(GmRange(n, 0, "ws"),))
    r = Stage(Pipe.MTE2, nbytes=n, gm_ranges=(GmRange(n, 0, "ws"),))
    small_in, small_out = Stage(Pipe.MTE2, nbytes=64), Stage(Pipe.MTE3, nbytes=64)
    prog = BlockProgram((TileSpec((small_in, vec, w)), TileSpec((small_in, vec, small_out)),
                         TileSpec((r, vec, small_out))))
    _, rec = _run(FAST_ENGINE, [prog], buffer_num=1)
    assert rec["l2_hit_bytes"] == 2 * n                # the write absorbed, the read hit
    assert rec["hbm_bytes"] == 2 * 64 + 2 * 64         # only the unkeyed small copies
    assert rec["l2_hit_rate"] == 2 * n / (2 * n + 4 * 64) and rec["l2_writeback_bytes"] == 0
    # read before write (tile 0 reads, tile 2 writes): a miss
    prog2 = BlockProgram((TileSpec((r, vec, small_out)), TileSpec((small_in, vec, small_out)),
                          TileSpec((small_in, vec, w))))
    _, rec2 = _run(FAST_ENGINE, [prog2], buffer_num=1)
    assert rec2["l2_hit_bytes"] == n                   # only the write; the earlier read missed


def test_write_back_dirty_eviction_and_oversized_write():
    """A dirty range is written back when evicted (take_writeback hands its bytes over
    once); a clean one is not; a write larger than the L2 is not cached."""
    c = L2Cache(100)
    assert c.write("a", 60) and "a" in c
    assert not c.read("b", 60)              # evicts dirty a
    assert c.take_writeback() == 60 and c.take_writeback() == 0
    assert not c.read("c", 60)              # evicts clean b: no write-back
    assert c.take_writeback() == 0 and c.writeback_bytes == 60
    assert not c.write("huge", 101) and "huge" not in c
