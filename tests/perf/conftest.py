"""Fixtures shared by the tests/perf modules."""
from __future__ import annotations

import pytest

from acl_runtime import acl
from acl_runtime.runtime import runtime


@pytest.fixture
def device():
    """acl initialised on the ``tiny`` chip with device 0 set (finalised after the test);
    yields the device memory (``npu_sim.device_memory.DeviceMemory``)."""
    if runtime().initialized:
        acl.finalize()
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    yield runtime().device.memory
    acl.finalize()
