"""Fused MIX kernels (every block one program on an AIC + 2 AIV group, no
``MixBlockProgram``) on the uncontended fast path give the event path's results
exactly, the reference (``Device.fast_path = False``): kernel records (json, key
order included), spans, the clock, the HBM / L2 servers and the free core lists, on
a separated chip, with keyed L2 ranges, groups queueing at HBM, a kernel of
``MixBlockProgram`` blocks in between (it keeps the event path) and a second stream
that contends."""
from __future__ import annotations

import json

import pytest

from npu_sim import BlockProgram, CoreType, Device, GmRange, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.program import MixBlockProgram


def _fused(nbytes: int, tiles: int) -> BlockProgram:
    st = (Stage(Pipe.MTE2, nbytes=nbytes, gm_ranges=(GmRange(nbytes, key=("A", nbytes)),)),
          Stage(Pipe.MTE1, nbytes=nbytes), Stage(Pipe.CUBE, macs=nbytes * 64),
          Stage(Pipe.FIXPIPE, nbytes=nbytes // 2, gm_ranges=(GmRange(nbytes // 2, key=("W", nbytes)),)),
          Stage(Pipe.VECTOR, vector_bytes=nbytes), Stage(Pipe.MTE3, nbytes=nbytes // 2))
    return BlockProgram((TileSpec(st, tiles),))


def _run(fast: bool, level: str):
    dev = Device(PRESETS["ascend910b2"], backed=False)
    dev.fast_path = fast
    dev.recorder.pipes = level == "pipes"
    s1, s2 = dev.create_stream(), dev.create_stream()
    split = MixBlockProgram(_fused(4096, 2), (BlockProgram((TileSpec((Stage(Pipe.MTE2, nbytes=2048),
                                                                     Stage(Pipe.VECTOR, vector_bytes=2048),
                                                                     Stage(Pipe.MTE3, nbytes=2048)), 2),)),))
    t = 0.0
    for k in range(8):
        blocks = (_fused(32 * 1024, 3),) * 6 + (_fused(8192, 2),) if k != 3 else (split,) * 4
        dev.submit_kernel(s2 if k == 5 else s1, KernelLaunch(KernelSpec(f"m{k}", CoreType.MIX, blocks, 2, {}), None), t)
        t += 2000.0 if k % 2 else 0.0
    dev.run_until(None)
    return (json.dumps(list(dev.kernel_records)), list(dev.recorder.spans), dev.env.now,
            (dev.hbm.free_at_ns, dev.hbm.busy_ns), (dev.l2.free_at_ns, dev.l2.busy_ns),
            {k.value: [c.name for c in v] for k, v in dev.scheduler.free.items()}), dev.fast_kernels


@pytest.mark.parametrize("level", ["pipes", "kernels"])
def test_fused_mix_fast_path_equals_event_path(level):
    ref, n_ref = _run(False, level)
    new, n_new = _run(True, level)
    assert n_ref == 0 and n_new >= 4   # the fused MIX kernels took the fast path
    assert ref == new
