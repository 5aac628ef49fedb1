"""AvgPool2d kernel half: the numpy body (the tile program is the family's,
:func:`opsnn.pooling.common.kernel.tile_program`).

Formula: out = sum of each window's taps (padding adds 0) / divisor, where the
divisor is ``divisorOverride`` if non-zero, else the window clipped to the padded
extent (``countIncludePad``) or to the input (torch's rule). Accumulates in fp32.
"""
from __future__ import annotations

from ..common.compute import avg_divisor, avg_pool_compute  # noqa: F401  (avg_divisor: re-exported)
from ..common.geometry import Pool2dGeom
from ..common.kernel import single_output_body


def avg_pool_body(x_t, out_t, g: Pool2dGeom, count_include_pad: bool, divisor_override: int):
    """Body factory. Slots: self, out."""
    return single_output_body(x_t, out_t, lambda x: avg_pool_compute(x, g, count_include_pad, divisor_override))
