"""Host-to-device writes that share immutable host bytes instead of copying them
(npu_sim/device_memory.py): the bytes seen are the same as with a copy, the first
writable access makes a private copy, and mutable sources are always copied."""
from __future__ import annotations

import numpy as np
import pytest

from npu_sim.device_memory import DeviceMemory, immutable_bytes


def _ro(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.flags.writeable = False
    return a


def test_immutable_bytes():
    raw = np.arange(8, dtype=np.float32).tobytes()
    assert immutable_bytes(raw)
    assert immutable_bytes(np.frombuffer(raw, np.float32).reshape(2, 4))   # ONNX initializer style
    assert immutable_bytes(_ro(np.zeros(4)))
    w = np.zeros(4)
    v = w.view()
    v.flags.writeable = False
    assert not immutable_bytes(v)                       # its base can still be written
    assert not immutable_bytes(w)
    assert not immutable_bytes(np.frombuffer(bytearray(raw), np.float32))
    assert not immutable_bytes(memoryview(raw))


def test_shared_write_reads_the_same_and_copies_on_first_writable_access():
    m = DeviceMemory(1 << 20)
    raw = np.arange(16, dtype=np.float32).tobytes()   # 64 B: an exact allocation
    host = np.frombuffer(raw, np.float32)
    a = m.malloc(host.nbytes)
    m.write(a, host.view(np.uint8))
    alloc = m.find(a, 64)
    assert alloc.shared
    ro = m.array(a, (16,), np.float32, writable=False)
    assert not ro.flags.writeable and np.array_equal(ro, host)
    assert np.array_equal(m.read(a, 64), host.view(np.uint8)) and alloc.shared
    rw = m.array(a + 8, (2,), np.float32)               # writable: now a private copy
    assert not alloc.shared and rw.flags.writeable
    rw[...] = -1
    assert np.array_equal(host, np.arange(16, dtype=np.float32))   # the host bytes untouched
    assert list(m.array(a, (4,), np.float32)) == [0, 1, -1, -1]


def test_partial_or_padded_or_mutable_writes_copy():
    m = DeviceMemory(1 << 20)
    raw = np.arange(10, dtype=np.float32).tobytes()   # 40 B: the allocation is rounded to 64
    a = m.malloc(40)
    m.write(a, np.frombuffer(raw, np.uint8))
    assert not m.find(a, 40).shared
    assert np.array_equal(m.read(a, 64)[40:], np.zeros(24, np.uint8))
    b = m.malloc(64)
    m.write(b + 32, np.frombuffer(raw[:32], np.uint8))  # not the whole allocation
    assert not m.find(b, 64).shared
    host = np.arange(16, dtype=np.float32)
    m.write(b, host)                                    # writable host array: a copy
    host[0] = 99
    assert not m.find(b, 64).shared and m.array(b, (1,), np.float32)[0] == 0


def test_write_over_shared_and_free():
    m = DeviceMemory(1 << 20)
    a = m.malloc(64)
    src = np.frombuffer(bytes(range(64)), np.uint8)
    m.write(a, src)
    m.write(a + 4, np.array([7], np.uint8))             # a partial write: private copy, then written
    alloc = m.find(a, 64)
    assert not alloc.shared and m.read(a, 8).tolist() == [0, 1, 2, 3, 7, 5, 6, 7]
    assert src[4] == 4
    m.write(a, bytes(64))                               # bytes fill it again: shared
    assert alloc.shared and not m.read(a, 64).any()
    m.free(a)
    with pytest.raises(Exception):
        m.array(a, (1,), np.uint8, writable=False)


def test_unbacked_memory_never_shares():
    m = DeviceMemory(1 << 20, backed=False)
    a = m.malloc(64)
    with pytest.raises(Exception):
        m.write(a, bytes(64))
