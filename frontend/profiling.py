"""Read-only profiling views of the ACL runtime, for the frontend's reports.

The one place the frontend touches the runtime object itself, and only through its
public read-only methods: ``initialized``, ``kernel_records(since)``,
``kernels_completed()``, ``peak_memory_bytes()``, ``write_trace(path, metadata)`` and
whether the device holds data (``context.backed``).
Everything that changes state goes through the pyACL-style binding
(:mod:`frontend.program`).
"""
from __future__ import annotations

from acl_runtime.runtime import runtime


def acl_initialized() -> bool:
    """True between ``acl.init()`` and ``acl.finalize()``."""
    return runtime().initialized


def device_holds_data() -> bool:
    """True when the device stores tensor bytes (``acl.init()`` without ``timing_only``)."""
    return bool(runtime().context.backed)


def kernels_completed() -> int:
    """Kernels the device has finished so far (progress reporting; reads only)."""
    return runtime().kernels_completed()


def kernel_records(since: int = 0) -> list[dict]:
    """Completed kernels from index ``since``, oldest first: dicts with name, stream,
    start_ns, dur_ns, block_dim, tiling_key, pipe busy ns and ratios, flops, bytes and
    bound class (see npu_sim/device.py and npu_sim/metrics.py)."""
    return runtime().kernel_records(since)


def peak_memory_bytes() -> int:
    """Peak device memory in use since the device was set (bytes, aligned sizes)."""
    return runtime().peak_memory_bytes()


def write_trace(path, metadata: dict | None = None):
    """Run queued work to completion and write the Chrome/Perfetto trace to ``path``;
    returns the path written."""
    return runtime().write_trace(path, metadata)
