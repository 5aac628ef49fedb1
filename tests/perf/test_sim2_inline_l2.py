"""run_block's inlined L2 cache accesses (``pipeline.INLINE_L2``: ``L2Cache.read`` /
``write`` / ``_insert`` copied into the tile loop) against ``INLINE_L2 = False``, the
reference that calls the cache's methods: the same kernel records, trace spans (in
order), clock and cache state (ranges in LRU order, dirty set, counters, write-backs),
on random keyed multi-tile programs (reads and writes, queue depths 1-3, MIX kernels)
with an L2 small enough to evict dirty ranges, and one too small for a range, on the
event path and the fast path."""
from __future__ import annotations

import json

import pytest

from npu_sim.chips import PRESETS
from npu_sim.device import FAST_PATH_ENV
from npu_sim.hardware import pipeline

from .test_runblock_starts import random_device


def _run(chip, seed):
    dev = random_device(chip, seed)
    c = dev.l2_cache
    state = (list(c.lines.items()), sorted(map(repr, c.dirty)), c.used_bytes, c.hits, c.misses, c.hit_bytes,
             c.miss_bytes, c.evictions, c.writeback_bytes, c.pending_writeback)
    return json.dumps(list(dev.kernel_records)), list(dev.recorder.spans), dev.env.now, state


@pytest.mark.parametrize("fast", ["0", "1"])
@pytest.mark.parametrize("l2_bytes", [40 * 1024, 150 * 1024, 1 << 30])
def test_inlined_l2_equals_cache_methods(monkeypatch, fast, l2_bytes):
    monkeypatch.setenv(FAST_PATH_ENV, fast)
    chip = PRESETS["tiny"].model_copy(update={"l2_bytes": l2_bytes, "l2_cross_kernel_reuse": False})
    evicted = False
    for seed in range(6):
        monkeypatch.setattr(pipeline, "INLINE_L2", False)
        ref = _run(chip, 200 + seed)
        monkeypatch.setattr(pipeline, "INLINE_L2", True)
        new = _run(chip, 200 + seed)
        assert ref == new, seed
        evicted = evicted or ref[3][7] > 0
    assert evicted == (l2_bytes < 1 << 30)
