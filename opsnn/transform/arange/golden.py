"""Arange reference (float64), tests only."""
from __future__ import annotations

import numpy as np


def arange_golden(start, end, step):
    n = max(int(np.ceil((end - start) / step)), 0)
    return np.array([start + i * step for i in range(n)], np.float64)
