"""Copy tasks and the L2 kept across kernels (npu_sim.hardware.l2.GmL2.invalidate): a
host-to-device copy, a device-to-device copy or a memset into a range makes it not
resident, so a fresh upload at a reused address is never an L2 hit (assumption [A]:
DMA writes do not allocate in L2; hardware/l2.py)."""
from __future__ import annotations

import pytest

from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips.presets import TINY
from npu_sim.hardware.l2 import GmL2

KiB = 1024
CHIP = TINY.model_copy(update={"mte2_bytes_per_cycle": 4096, "mte3_bytes_per_cycle": 4096,
                               "l2_cross_kernel_reuse": True})


def test_invalidate_drops_only_the_range():
    c = GmL2(1000)
    c.touch(0, 600)
    assert c.invalidate(100, 200) == 200
    assert c.resident(0, 600) == 400 and c.resident(100, 200) == 0 and c.used_bytes == 400
    assert c.invalidate(5000, 10) == 0 and c.invalidated_bytes == 200
    c.touch(10_000, 600)       # the two kept pieces are still the oldest: they go first
    assert c.used_bytes == 1000 and c.resident(10_000, 600) == 600


def _read_kernel(n, addr):
    tile = TileSpec((Stage(Pipe.MTE2, nbytes=n), Stage(Pipe.VECTOR, vector_bytes=256),
                     Stage(Pipe.MTE3, nbytes=n)))
    spec = KernelSpec("copy", CoreType.AIV, (BlockProgram((tile,)),))
    return KernelLaunch(spec, None, ([(addr, n)], [(addr + (1 << 24), n)], None))


@pytest.mark.parametrize("kind", ["H2D", "D2D", "MEMSET", None])
def test_a_copy_into_a_resident_range_makes_the_next_read_miss(kind):
    n = 64 * KiB
    dev = Device(CHIP)
    s = dev.create_stream()
    x = 0
    dev.submit_kernel(s, _read_kernel(n, x), 0.0)          # x now resident
    if kind is not None:
        dev.submit_memcpy(s, n, kind, None, 0.0, None, (x, n))
    dev.submit_kernel(s, _read_kernel(n, x), 0.0)
    dev.run_until(None)
    second = dev.kernel_records[1]
    assert second["l2_resident_in_bytes"] == (n if kind is None else 0)
    if kind is not None:
        assert dev.gm_l2.invalidated_bytes == n


def test_d2h_leaves_the_source_resident():
    n = 64 * KiB
    dev = Device(CHIP)
    s = dev.create_stream()
    dev.submit_kernel(s, _read_kernel(n, 0), 0.0)
    dev.submit_memcpy(s, n, "D2H", None, 0.0)                # writes the host, not the device
    dev.submit_kernel(s, _read_kernel(n, 0), 0.0)
    dev.run_until(None)
    assert dev.kernel_records[1]["l2_resident_in_bytes"] == n
