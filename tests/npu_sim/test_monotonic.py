"""The timing model is monotone: more work never makes a kernel shorter.

Property test over random tile programs (1..5 blocks, 1..3 tile groups of
MTE2 -> VECTOR -> MTE3, queue depth 1..3): adding bytes or vector bytes to any stage
of any tile, or adding a tile, never decreases the kernel's duration. The chip's HBM
is made fast enough never to be the limit: with a contended FIFO server, a longer
transfer can reorder later ones and shorten the kernel slightly (a scheduling
anomaly documented in docs/timing.md), so that case is not claimed.
"""
from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips.presets import TINY

CHIP = TINY.model_copy(update={"hbm_bandwidth_bytes_per_ns": 1e6, "l2_bandwidth_bytes_per_ns": 1e6})

tiles = st.builds(lambda a, v, b, c: TileSpec((Stage(Pipe.MTE2, nbytes=a), Stage(Pipe.VECTOR, vector_bytes=v),
                                               Stage(Pipe.MTE3, nbytes=b)), c),
                  st.integers(0, 20_000), st.integers(0, 100_000), st.integers(0, 20_000), st.integers(1, 4))
programs = st.lists(st.lists(tiles, min_size=1, max_size=3).map(lambda t: BlockProgram(tuple(t))),
                    min_size=1, max_size=5)


def duration(blocks, bn):
    dev = Device(CHIP)
    dev.recorder.enabled = False
    dev.submit_kernel(dev.create_stream(), KernelLaunch(KernelSpec("k", CoreType.AIV, tuple(blocks), bn), None), 0.0)
    dev.run_until(None)
    return dev.kernel_records[0]["dur_ns"]


@settings(max_examples=60, deadline=None)
@given(blocks=programs, bn=st.integers(1, 3), data=st.data())
def test_more_work_never_shortens_a_kernel(blocks, bn, data):
    base = duration(blocks, bn)
    b = data.draw(st.integers(0, len(blocks) - 1))
    g = data.draw(st.integers(0, len(blocks[b].tiles) - 1))
    ts = blocks[b].tiles[g]
    how = data.draw(st.sampled_from(["stage", "tile"]))
    if how == "tile":
        grown_ts = TileSpec(ts.stages, ts.count + 1)
    else:
        s = data.draw(st.integers(0, 2))
        add = data.draw(st.integers(1, 50_000))
        st_ = ts.stages[s]
        st2 = replace(st_, vector_bytes=st_.vector_bytes + add) if st_.pipe is Pipe.VECTOR \
            else replace(st_, nbytes=st_.nbytes + add)
        grown_ts = TileSpec(ts.stages[:s] + (st2,) + ts.stages[s + 1:], ts.count)
    grown = list(blocks)
    grown[b] = BlockProgram(blocks[b].tiles[:g] + (grown_ts,) + blocks[b].tiles[g + 1:])
    assert duration(grown, bn) >= base
