"""The one-tile loop's kernel sums (hardware/inline.py ``_one_tile_blocks``: kept
locally when every block has the same pipes, none twice, else booked per block) give
the generator path's kernel records exactly, key order included (``json.dumps``):
kernels whose blocks share one pipe sequence, kernels mixing two sequences, a
sequence with a pipe twice, with scalar time, on two chips, and on a chip with no
fixed costs nor dispatch time, where a kernel of empty blocks ends in its start step. ``inline.ONE_TILE_LOOP =
False`` is the reference (every block a ``run_block`` generator)."""
from __future__ import annotations

import json

import pytest

from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware import inline


def _prog(pipes, nbytes):
    st = tuple(Stage(p, nbytes=nbytes) if p in (Pipe.MTE2, Pipe.MTE3) else Stage(p, vector_bytes=nbytes)
               for p in pipes)
    return BlockProgram((TileSpec(st, 1),))


def _run(chip):
    dev = Device(chip, backed=False)
    s = dev.create_stream()
    plain = (Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3)
    progs = [(_prog(plain, 64 * 1024), _prog(plain, 3000)),                          # one sequence
             (_prog(plain, 8192), _prog((Pipe.MTE2, Pipe.MTE3), 4096)),             # two sequences
             (_prog((Pipe.MTE2, Pipe.VECTOR, Pipe.VECTOR, Pipe.MTE3), 4096),),      # a pipe twice
             (_prog(plain, 0), _prog(plain, 512))]                                  # empty blocks first
    n = chip.vector_core_count
    for k in range(12):
        main, *rest = progs[k % 4]
        blocks = (main,) * (n - 1) + (rest[0] if rest else main,)
        dev.submit_kernel(s, KernelLaunch(KernelSpec(f"k{k}", CoreType.AIV, blocks, 2, {}), None), 100.0 * k)
    dev.run_until(None)
    return json.dumps(list(dev.kernel_records)), dev.env.now, dev.fast_kernels


@pytest.mark.parametrize("name", ["ascend910b2", "tiny", "no fixed costs"])
def test_one_tile_sums_equal_generators_key_order(monkeypatch, name):
    if name == "no fixed costs":
        chip = PRESETS["tiny"].model_copy(update={"block_dispatch_ns": 0.0, "dma_latency_ns": 0.0,
                                                  "vector_issue_ns": 0.0, "scalar_ns_per_tile": 0.0})
    else:
        chip = PRESETS[name]
    monkeypatch.setattr(inline, "ONE_TILE_LOOP", False)
    ref = _run(chip)
    monkeypatch.setattr(inline, "ONE_TILE_LOOP", True)
    new = _run(chip)
    assert ref == new
    assert new[2] == 12   # every kernel took the fast path
    assert '"SCALAR"' in new[0] or name == "no fixed costs"
