"""FusedElementwise tiling (no device): live-tile accounting in UB, resident broadcast
operands, and the one-unit-does-not-fit error."""
from __future__ import annotations

import math

import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError
from opsnn.math.fused_elementwise.tiling import (RESIDENT_MAX_BYTES, fused_elementwise_tiling, live_tiles,
                                                 max_live_intermediates)

ADD_RELU = (("Add", (0, 1), ()), ("Relu", (2,), ()))


def test_add_relu_streams_both_inputs_and_counts_every_live_tile():
    chip = PRESETS["ascend910b2"]
    n = 1 * 256 * 56 * 56
    res = fused_elementwise_tiling(chip, [(1, 256, 56, 56)] * 2, [4, 4], 4, 4, ADD_RELU)
    td = res.data
    assert res.strategy == "stream" and res.workspace_bytes == 0
    assert td.streamed == (0, 1) and td.resident == () and td.in_bytes_per_unit == 8
    assert td.vec_bytes_per_unit == 2 * 4                 # two passes, fp32
    assert td.gm_bytes == 3 * n * 4                       # two reads and one write, no intermediate
    assert td.live_tiles == 2 + 1 + 1                     # a, b, the sum, the output
    vt = td.vector
    # UB: (in + out) per unit double-buffered plus one fp32 scratch row, within the chip's UB
    slot = vt.buffer_num * (8 + 4) + td.tmp_bytes_per_unit
    assert vt.ub_factor * slot <= chip.ub_bytes and td.tmp_bytes_per_unit == 4
    assert vt.per_block * (vt.block_dim - 1) < n <= vt.per_block * vt.block_dim


def test_small_broadcast_operand_is_resident_and_large_one_streams_at_its_size():
    chip = PRESETS["ascend910b2"]
    mul = (("Mul", (0, 1), ()),)
    full = (4, 64, 32, 32)
    n = math.prod(full)
    td = fused_elementwise_tiling(chip, [full, (1, 64, 1, 1)], [4, 4], 4, 4, mul).data
    assert td.resident == (1,) and td.resident_bytes == 64 * 4 <= RESIDENT_MAX_BYTES
    assert td.in_bytes_per_unit == 4 and td.vector.ub_bytes_used >= td.resident_bytes
    half = (1, 64, 32, 32)                          # 256 KiB: too big to stay in UB
    td = fused_elementwise_tiling(chip, [full, half], [4, 4], 4, 4, mul).data
    assert td.streamed == (0, 1) and td.in_bytes_per_unit == pytest.approx(4 + math.prod(half) * 4 / n)


def test_live_intermediates_follow_last_use():
    # x -> d=x/1 -> e=erf(d) -> p=e+1 -> m=x*p -> y=m*0.5 : one intermediate feeds the next
    gelu = (("Div", (0, 1), ()), ("Erf", (3,), ()), ("Add", (4, 1), ()), ("Mul", (0, 5), ()),
            ("Mul", (6, 2), ()))
    assert max_live_intermediates(3, gelu) == 2
    # s0 = a + b; s1 = s0 + s0 ... reading an old result keeps it alive
    keep = (("Add", (0, 1), ()), ("Relu", (2,), ()), ("Add", (2, 3), ()))
    assert max_live_intermediates(2, keep) == 2
    assert live_tiles(2, 2, keep) == 5


def test_one_unit_that_cannot_fit_is_561002():
    chip = PRESETS["tiny"]
    steps = tuple(("Add", (0, 1), ()) for _ in range(1)) + tuple(("Add", (k + 2, 0), ()) for k in range(2))
    with pytest.raises(AclnnError) as e:
        fused_elementwise_tiling(chip.model_copy(update={"ub_bytes": 16}), [(1024,), (1024,)], [4, 4], 4, 4,
                                 steps)
    assert e.value.code == 561002
