"""DeviceMemory.malloc defers the zeroed buffer to the first access: every reader
still sees zeros before anything is written, and a whole-allocation sharing write
never makes the buffer."""
import numpy as np
import pytest

from npu_sim.device_memory import DeviceMemory


def test_fresh_allocation_reads_as_zeros_through_every_reader():
    m = DeviceMemory(1 << 16)
    a, b, c, d = (m.malloc(100) for _ in range(4))      # sizes round to 128 B
    np.testing.assert_array_equal(m.read(a, 128), np.zeros(128, np.uint8))
    np.testing.assert_array_equal(m.array(b, (32,), np.float32, writable=False), np.zeros(32, np.float32))
    np.testing.assert_array_equal(m.array(c, (4, 4), np.int16, strides=(16, 2)), np.zeros((4, 4), np.int16))
    np.testing.assert_array_equal(m.derived(d, (16,), np.int64, "k", lambda v: v + 1), np.ones(16, np.int64))


def test_partial_write_keeps_the_rest_zero():
    m = DeviceMemory(1 << 16)
    a = m.malloc(64)
    m.write(a + 8, np.arange(4, dtype=np.uint8))
    want = np.zeros(64, np.uint8)
    want[8:12] = [0, 1, 2, 3]
    np.testing.assert_array_equal(m.read(a, 64), want)


def test_sharing_write_makes_no_zeroed_buffer():
    m = DeviceMemory(1 << 16)
    a = m.malloc(64)
    src = bytes(range(64))
    m.write(a, src)
    alloc = m.find(a, 64)
    assert alloc.shared and not alloc.zero_pending
    assert alloc.data.tobytes() == src and alloc.data.base is not None   # a view of src, not a copy
    m.array(a, (64,), np.uint8)[0] = 7                                    # private copy on a writable access
    assert m.read(a, 2).tolist() == [7, 1]


def test_freed_and_unbacked_allocations_still_refuse_access():
    m = DeviceMemory(1 << 16)
    a = m.malloc(64)
    m.free(a)
    with pytest.raises(Exception, match="freed"):
        m.read(a, 4)
    u = DeviceMemory(1 << 16, backed=False)
    b = u.malloc(64)
    assert u.find(b, 64).data is None and not u.find(b, 64).zero_pending
    with pytest.raises(Exception, match="not backed"):
        u.read(b, 4)
