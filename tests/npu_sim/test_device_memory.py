"""DeviceMemory: aclrtMalloc's alignment (64 B) and rounding (32 B), and the checks
that catch OOM, double free, use-after-free and out-of-bounds access."""
from __future__ import annotations

import numpy as np
import pytest

from npu_sim import DeviceMemory, DeviceMemoryError
from npu_sim.device_memory import DEVICE_BASE_ADDR


@pytest.fixture
def mem():
    return DeviceMemory(64 * 1024, align_bytes=64, round_bytes=32)


def _kind(fn, *args):
    with pytest.raises(DeviceMemoryError) as exc:
        fn(*args)
    return exc.value.kind, str(exc.value)


def test_addresses_are_64_byte_aligned_and_never_null(mem):
    """Every allocation starts on a 64 B boundary, away from the null pointer."""
    addrs = [mem.malloc(n) for n in (1, 31, 33, 64, 65, 100, 1000, 7)]
    assert all(a % 64 == 0 for a in addrs)
    assert all(a >= DEVICE_BASE_ADDR > 0 for a in addrs)
    assert len(set(addrs)) == len(addrs)


@pytest.mark.parametrize("asked, usable, reserved", [(1, 32, 64), (32, 32, 64), (33, 64, 64), (65, 96, 128),
                                                    (100, 128, 128), (129, 160, 192)])
def test_size_rounds_up_to_32_bytes(mem, asked, usable, reserved):
    """Usable size is the request rounded up to 32 B; the address space taken is a multiple of 64 B."""
    a = mem.malloc(asked)
    mem.find(a, usable)                     # the rounded size is accessible
    assert _kind(mem.find, a, usable + 1)[0] == "out_of_bounds"
    assert mem.used_bytes == reserved
    assert mem.malloc(1) == a + reserved    # first fit: the next block follows


@pytest.mark.parametrize("size", [0, -1, 2.5, "8"])
def test_invalid_size(mem, size):
    """Zero, negative or non-integer sizes are refused as invalid_size."""
    assert _kind(mem.malloc, size)[0] == "invalid_size"


def test_out_of_memory(mem):
    """A request beyond the free space fails with "oom" and reports the sizes."""
    mem.malloc(60 * 1024)
    kind, msg = _kind(mem.malloc, 8 * 1024)
    assert kind == "oom"
    assert "8192" in msg and str(64 * 1024) in msg


def test_oom_from_fragmentation_then_coalescing(mem):
    """Free space split into holes cannot serve a large block; freeing neighbours merges them."""
    blocks = [mem.malloc(16 * 1024) for _ in range(4)]
    mem.free(blocks[0])
    mem.free(blocks[2])
    assert mem.capacity_bytes - mem.used_bytes == 32 * 1024
    assert _kind(mem.malloc, 32 * 1024)[0] == "oom"     # two 16 KiB holes, not one 32 KiB range
    mem.free(blocks[1])                                  # merges holes 0..2 into 48 KiB
    assert mem.malloc(48 * 1024) == blocks[0]
    mem.free(blocks[0])
    mem.free(blocks[3])
    assert mem.used_bytes == 0
    assert mem.malloc(64 * 1024) == DEVICE_BASE_ADDR     # whole capacity again


def test_double_free_and_bad_free(mem):
    """Freeing twice says "double free"; freeing an inner address says it is not a start."""
    a = mem.malloc(256)
    mem.free(a)
    kind, msg = _kind(mem.free, a)
    assert kind == "invalid_free" and "double free" in msg
    b = mem.malloc(256)
    kind, msg = _kind(mem.free, b + 64)
    assert kind == "invalid_free" and "not the start" in msg


def test_use_after_free(mem):
    """Any access inside a freed allocation is a use_after_free."""
    a = mem.malloc(1024)
    mem.write(a, np.arange(256, dtype=np.float32))
    mem.free(a)
    for fn, args in ((mem.read, (a, 4)), (mem.read, (a + 512, 4)), (mem.write, (a, b"\x00" * 4)),
                     (mem.array, (a, (4,), np.float32))):
        kind, msg = _kind(fn, *args)
        assert kind == "use_after_free" and "freed" in msg


def test_out_of_bounds(mem):
    """Running past an allocation's end, or touching unallocated space, is out_of_bounds."""
    a = mem.malloc(128)
    kind, msg = _kind(mem.read, a + 96, 64)
    assert kind == "out_of_bounds" and "past the end" in msg
    assert _kind(mem.read, DEVICE_BASE_ADDR + 60 * 1024, 4)[0] == "out_of_bounds"
    assert _kind(mem.read, 0x10, 4)[0] == "out_of_bounds"   # below the device base
    # a strided view's whole extent is checked: 4 rows of 64 B stride reach 196 B > 128 B
    kind, _ = _kind(mem.array, a, (4, 2), np.float32, (64, 4))
    assert kind == "out_of_bounds"
    assert mem.array(a, (2, 2), np.float32, (64, 4)).shape == (2, 2)


def test_bytes_round_trip_and_zero_fill(mem):
    """Fresh memory reads as zeros; written bytes read back unchanged through typed views."""
    a = mem.malloc(64)
    assert not mem.read(a, 64).any()
    data = np.linspace(-1, 1, 16, dtype=np.float32)
    mem.write(a, data)
    np.testing.assert_array_equal(mem.array(a, (16,), np.float32), data)
    np.testing.assert_array_equal(mem.read(a, 64).view(np.float32), data)


def test_unbacked_memory_keeps_bookkeeping_but_no_bytes():
    """Timing-only memory allocates and checks addresses but refuses data access."""
    m = DeviceMemory(4096, backed=False)
    a = m.malloc(100)
    assert m.find(a, 128).data is None
    kind, msg = _kind(m.read, a, 4)
    assert kind == "out_of_bounds" and "not backed" in msg
    assert _kind(m.malloc, 8192)[0] == "oom"


def test_peak_tracks_high_water_mark(mem):
    """peak_bytes is the largest reserved total seen, used_bytes the current one."""
    a = mem.malloc(1000)
    b = mem.malloc(3000)
    mem.free(a)
    mem.free(b)
    assert mem.used_bytes == 0
    assert mem.peak_bytes == 1024 + 3008


# ---- robustness: bad arguments and separate address spaces --------------------------------------
@pytest.mark.parametrize("addr, frag", [(None, "NoneType"), ("0x100", "str"), (1.5, "float"), (True, "bool")])
def test_free_of_a_non_int_names_the_type(mem, addr, frag):
    """free(None) used to fail formatting the address ("unsupported format string")."""
    kind, msg = _kind(mem.free, addr)
    assert kind == "invalid_free" and frag in msg and "__format__" not in msg


def test_numpy_integer_addresses_work(mem):
    a = mem.malloc(np.int64(64))
    mem.write(np.uint64(a), np.arange(16, dtype=np.float32))
    assert mem.read(np.int64(a), 64).view(np.float32).tolist() == list(range(16))
    mem.free(np.uint64(a))
    assert mem.used_bytes == 0


@pytest.mark.parametrize("align, round_", [(0, 32), (64, 0), (48, 32), (64, -32), (True, 32), (64.0, 32)])
def test_alignment_must_be_a_power_of_two(align, round_):
    """A zero alignment used to surface as ZeroDivisionError inside malloc."""
    with pytest.raises(ValueError, match="power of two"):
        DeviceMemory(1024, align_bytes=align, round_bytes=round_)


def test_rebase_moves_the_whole_address_space():
    """A rebased memory allocates from its new base; the old range is out of bounds."""
    base = DEVICE_BASE_ADDR + 3 * 2 ** 44
    mem = DeviceMemory(4096, base_addr=base)
    a = mem.malloc(64)
    assert a == base and mem.base_addr == base
    assert _kind(mem.read, DEVICE_BASE_ADDR, 4)[0] == "out_of_bounds"
    with pytest.raises(ValueError, match="in use"):
        mem.rebase(DEVICE_BASE_ADDR)
    m2 = DeviceMemory(4096)
    m2.rebase(base)
    assert m2.malloc(1) == base


@pytest.mark.parametrize("base", [0, -64, 100, 2 ** 64 - 64, 1.0])
def test_rebase_refuses_bad_bases(base):
    with pytest.raises(ValueError, match="base"):
        DeviceMemory(4096).rebase(base)
