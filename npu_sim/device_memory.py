"""Device memory: a simulated address space with aclrtMalloc's rules and real bytes.

Rules (DESIGN.md section 6, from the aclrtMalloc docs): addresses are
``malloc_align_bytes`` (64 B) aligned; sizes are rounded up to ``malloc_round_bytes``
(32 B); allocation beyond capacity fails. Every access is checked: an address in a
freed allocation is a use-after-free, one outside any allocation (or running past
its end) is out of bounds. Bytes live in one numpy ``uint8`` buffer per allocation
(``np.zeros`` is lazily paged by the OS, so large idle allocations cost little).
The zeroed buffer itself is made at an allocation's first access, not by
:meth:`DeviceMemory.malloc`: an allocation whose first access is a sharing write
(below) never gets one.

A host-to-device :meth:`DeviceMemory.write` that fills a whole allocation from bytes
nobody can change (:func:`immutable_bytes`: e.g. an ONNX initializer's read-only view
of its ``bytes``) shares them instead of copying: the allocation is *shared* until its
first writable access (:meth:`DeviceMemory.array` with ``writable=True``, the default,
or a partial write), which makes it a private copy first. The bytes read are the same
either way; the copy (and the page faults of the zeroed buffer under it, about twice
the copy) is skipped for data only ever read (weights): 64 MiB per MiniLM run, 232 MiB
per AlexNet run once the frontend freezes its uploaded constants (``frontend.program``).
While an allocation is shared, :meth:`DeviceMemory.derived` may keep values computed
from its bytes (a FRACTAL_Z weight unpacked for the GEMM); the first writable access
drops them with the sharing.
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

import numpy as np

#: first device address of a DeviceMemory by default; 0 stays the null pointer
DEVICE_BASE_ADDR = 0x1_0000_0000
#: device addresses stay below this (64-bit pointers)
ADDRESS_LIMIT = 2 ** 64


class DeviceMemoryError(Exception):
    """A bad device-memory operation. ``kind`` is one of "oom", "invalid_free",
    "use_after_free", "out_of_bounds", "invalid_size"."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


@dataclass(slots=True)
class Allocation:
    addr: int
    size: int          #: usable bytes (requested, rounded to malloc_round_bytes)
    reserved: int      #: bytes taken from the address space (aligned)
    data: np.ndarray | None   #: None when unbacked, or backed but not accessed yet (``zero_pending``)
    live: bool = True
    shared: bool = False   #: ``data`` is a read-only view of immutable host bytes (module doc)
    derived: dict | None = None   #: :meth:`DeviceMemory.derived` entries, valid while ``shared``
    zero_pending: bool = False    #: backed, reads as zeros, ``data`` not made yet (module doc)


class DeviceMemory:
    """First-fit allocator over ``capacity_bytes`` of simulated HBM.

    Args:
        capacity_bytes: total device memory (bytes).
        align_bytes: address alignment (bytes).
        round_bytes: size granularity (bytes).
        backed: if False (timing-only mode), no numpy buffers are created.
        base_addr: first address (default :data:`DEVICE_BASE_ADDR`); see :meth:`rebase`.

    Raises ValueError for alignments that are not positive powers of two or a range
    that does not fit below 2**64 (ChipConfig validates the same figures at load).
    """

    def __init__(self, capacity_bytes: int, align_bytes: int = 64, round_bytes: int = 32, backed: bool = True,
                 base_addr: int = DEVICE_BASE_ADDR):
        for name, v in (("align_bytes", align_bytes), ("round_bytes", round_bytes)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0 or v & (v - 1):
                raise ValueError(f"DeviceMemory {name} must be a positive power of two, got {v!r}")
        if isinstance(capacity_bytes, bool) or not isinstance(capacity_bytes, (int, np.integer)) or capacity_bytes <= 0:
            raise ValueError(f"DeviceMemory capacity_bytes must be a positive int, got {capacity_bytes!r}")
        self.capacity_bytes = int(capacity_bytes)
        self.align_bytes = int(align_bytes)
        self.round_bytes = int(round_bytes)
        self.backed = backed
        self.base_addr = DEVICE_BASE_ADDR
        self._free: list[tuple[int, int]] = []  # (addr, size), sorted
        self._starts: list[int] = []            # sorted live starts
        self._allocs: dict[int, Allocation] = {}
        self._freed: list[tuple[int, int]] = []  # recently freed ranges, for messages
        self.used_bytes = 0
        self.peak_bytes = 0
        self.rebase(base_addr)

    def rebase(self, base_addr: int) -> None:
        """Move the (still unused) address space to start at ``base_addr`` (aligned to
        ``align_bytes``, > 0, and ``base_addr + capacity_bytes`` <= 2**64). The runtime
        gives each device it opens a different base, so a stale pointer from an earlier
        device is out of bounds here. Raises ValueError if anything was ever allocated
        or the base is bad."""
        if self._allocs or self._freed or self.used_bytes:
            raise ValueError("DeviceMemory.rebase: the address space is already in use")
        if isinstance(base_addr, bool) or not isinstance(base_addr, (int, np.integer)) or base_addr <= 0 \
                or base_addr % self.align_bytes or base_addr + self.capacity_bytes > ADDRESS_LIMIT:
            raise ValueError(f"DeviceMemory.rebase: base {base_addr!r} must be a positive multiple of "
                             f"{self.align_bytes} with base + capacity within 64 bits")
        self.base_addr = int(base_addr)
        self._free = [(self.base_addr, self.capacity_bytes)]

    # ---- allocation ----------------------------------------------------------
    def malloc(self, size: int) -> int:
        """Allocate ``size`` bytes; returns the address. Raises DeviceMemoryError
        ("invalid_size" for size <= 0, "oom" when no free range fits)."""
        if not isinstance(size, (int, np.integer)) or size <= 0:
            raise DeviceMemoryError("invalid_size", f"malloc size must be a positive integer, got {size!r}")
        size = -(-int(size) // self.round_bytes) * self.round_bytes
        reserved = -(-size // self.align_bytes) * self.align_bytes
        for i, (addr, free) in enumerate(self._free):
            if free >= reserved:
                if free == reserved:
                    del self._free[i]
                else:
                    self._free[i] = (addr + reserved, free - reserved)
                self._allocs[addr] = Allocation(addr, size, reserved, None, zero_pending=self.backed)
                bisect.insort(self._starts, addr)
                self.used_bytes += reserved
                self.peak_bytes = max(self.peak_bytes, self.used_bytes)
                return addr
        raise DeviceMemoryError(
            "oom", f"out of device memory: asked {size} B, {self.capacity_bytes - self.used_bytes} B free "
                   f"of {self.capacity_bytes} B (largest free range {max((f for _, f in self._free), default=0)} B)")

    def free(self, addr: int) -> None:
        """Release an allocation by its start address. Raises DeviceMemoryError
        ("invalid_free") for an address that is not a live allocation's start."""
        if isinstance(addr, bool) or not isinstance(addr, (int, np.integer)):
            raise DeviceMemoryError("invalid_free", f"free of {addr!r}: a device address is an int, "
                                                    f"not {type(addr).__name__}")
        addr = int(addr)
        alloc = self._allocs.pop(addr, None)
        if alloc is None:
            was = any(a == addr for a, _ in self._freed)
            raise DeviceMemoryError("invalid_free", f"free of {addr:#x}: " + (
                "already freed (double free)" if was else "not the start of a live allocation"))
        self._starts.remove(addr)
        alloc.live = False
        alloc.data = alloc.derived = None
        alloc.zero_pending = False
        self.used_bytes -= alloc.reserved
        self._freed.append((addr, alloc.size))
        del self._freed[:-1024]
        bisect.insort(self._free, (addr, alloc.reserved))
        merged: list[tuple[int, int]] = []
        for a, s in self._free:
            if merged and merged[-1][0] + merged[-1][1] == a:
                merged[-1] = (merged[-1][0], merged[-1][1] + s)
            else:
                merged.append((a, s))
        self._free = merged

    # ---- access --------------------------------------------------------------
    def find(self, addr: int, nbytes: int) -> Allocation:
        """The live allocation holding ``[addr, addr + nbytes)``; raises
        DeviceMemoryError ("use_after_free" or "out_of_bounds") otherwise."""
        i = bisect.bisect_right(self._starts, addr) - 1
        if i >= 0:
            alloc = self._allocs[self._starts[i]]
            if addr + nbytes <= alloc.addr + alloc.size:
                return alloc
            if addr < alloc.addr + alloc.size:
                raise DeviceMemoryError(
                    "out_of_bounds", f"access [{addr:#x}, +{nbytes}) runs past the end of the allocation "
                                     f"at {alloc.addr:#x} of {alloc.size} B")
        for a, s in reversed(self._freed):
            if a <= addr < a + s:
                raise DeviceMemoryError("use_after_free", f"access at {addr:#x} is inside freed allocation {a:#x}")
        raise DeviceMemoryError("out_of_bounds", f"access at {addr:#x} (+{nbytes} B) is not in any allocation")

    def array(self, addr: int, shape: tuple[int, ...], dtype, strides: tuple[int, ...] | None = None,
              writable: bool = True) -> np.ndarray:
        """A numpy view of device memory. ``strides`` in bytes (numpy convention);
        the whole strided extent is bounds-checked. ``writable=False`` promises the
        caller only reads: the view may then be read-only (a shared allocation stays
        shared); otherwise a shared allocation becomes a private copy first. Raises
        DeviceMemoryError."""
        dtype = np.dtype(dtype)
        shape = tuple(int(s) for s in shape)
        if strides is None:
            extent = math.prod(shape) * dtype.itemsize   # Python ints: np.prod costs ~2.5 us a call
        else:
            extent = (sum((d - 1) * s for d, s in zip(shape, strides)) + dtype.itemsize) if all(shape) else 0
        alloc = self.find(addr, max(extent, 0))
        if alloc.zero_pending:    # first access: the zeroed buffer malloc deferred
            alloc.data, alloc.zero_pending = np.zeros(alloc.size, dtype=np.uint8), False
        if alloc.data is None:
            raise DeviceMemoryError("out_of_bounds", "device memory is not backed (timing-only mode)")
        if alloc.shared and writable:
            alloc.data, alloc.shared, alloc.derived = alloc.data.copy(), False, None
        return np.ndarray(shape, dtype=dtype, buffer=alloc.data, offset=addr - alloc.addr, strides=strides)

    def derived(self, addr: int, shape: tuple[int, ...], dtype, key, make, min_uses: int = 2) -> np.ndarray:
        """``make(view)`` of the read-only view ``array(addr, shape, dtype)``, kept and
        handed out again while the allocation holding it stays *shared* (its bytes
        cannot change: module doc). Any writable access or write makes the allocation
        private and drops what was kept, so a value derived from stale bytes is never
        returned; a private allocation computes ``make`` on every call. ``key`` names
        the derivation (e.g. "oihw", a FRACTAL_Z weight unpacked for the GEMM); the
        value is kept from the ``min_uses``-th call on (default 2: a weight read once per
        run is not held twice in host memory, one read again on every run is).
        The returned array is read-only when kept; callers must not write it.
        Raises DeviceMemoryError as :meth:`array`."""
        view = self.array(addr, shape, dtype, writable=False)
        alloc = self.find(addr, 0)
        if not alloc.shared:
            return make(view)
        if alloc.derived is None:
            alloc.derived = {}
        k = (addr, tuple(int(d) for d in shape), np.dtype(dtype).str, key)
        hit = alloc.derived.get(k)
        if isinstance(hit, np.ndarray):
            return hit
        uses = (hit or 0) + 1
        value = make(view)
        if uses >= min_uses and isinstance(value, np.ndarray):
            value.flags.writeable = False
            alloc.derived[k] = value
        else:
            alloc.derived[k] = uses
        return value

    def write(self, addr: int, data: bytes | np.ndarray) -> None:
        """Copy host bytes into device memory (checked). Bytes that fill a whole
        allocation and that nobody can change are shared, not copied (module doc)."""
        src = np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8) if not isinstance(data, np.ndarray) \
            else np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        if self.backed and src.size and (isinstance(data, bytes) or immutable_bytes(src)):
            alloc = self.find(addr, src.size)
            if alloc.addr == addr and alloc.size == src.size:
                alloc.data, alloc.shared, alloc.derived, alloc.zero_pending = src, True, None, False
                return
        self.array(addr, (src.size,), np.uint8)[...] = src

    def read(self, addr: int, nbytes: int) -> np.ndarray:
        """A copy of ``nbytes`` of device memory as uint8 (checked)."""
        return self.array(addr, (nbytes,), np.uint8, writable=False).copy()


def immutable_bytes(a) -> bool:
    """True when nobody can change ``a``'s bytes through Python: ``bytes``, or a
    read-only ndarray whose chain of bases is read-only and ends in ``bytes`` or in a
    read-only array owning its memory. (numpy lets the owner of memory turn its
    ``writeable`` flag back on: an array handed to a copy read-only must stay so.)"""
    while isinstance(a, np.ndarray):
        if a.flags.writeable:
            return False
        if a.base is None:
            return True
        a = a.base
    return isinstance(a, bytes)
