"""Fixtures of the elementwise-family tests."""
import numpy as np
import pytest


@pytest.fixture
def t(npu):
    """Factory: a device tensor of ``shape`` and numpy dtype (zeros)."""
    return lambda shape=(2, 3), dt=np.float32: npu.empty(shape, dt)[1]
