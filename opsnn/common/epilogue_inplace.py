"""FixPipe epilogues applied in place to a cube body's float32 result that already sits
in its output view (issue 17, full runs).

A Matmul / Convolution body that computes straight into its float32 output
(``direct_out``) used to apply a fused activation as ``apply_epilogue(r, ...)`` and
store the result with ``write_out``: for "none" a copy of the output onto itself, for
"relu" a fresh array and a copy. :func:`apply_in_place` does the same arithmetic on
the output itself: "none" nothing, "relu" the ``np.maximum(r, 0)`` of
``opsnn.matmul.common.cube_program.EPILOGUES`` written back (``out=``; numpy's ufuncs
are exact under aliasing), so the stored bytes are the same.
``tests/perf/test_full2_epilogue_inplace.py`` compares both paths.
"""
from __future__ import annotations

import numpy as np

#: activation -> in-place form of ``EPILOGUES[activation]`` on a float32 array; an
#: activation not listed takes the copying path (emptying it restores that path for all)
IN_PLACE = {"none": lambda r: None, "relu": lambda r: np.maximum(r, np.float32(0), out=r)}


def apply_in_place(r: np.ndarray, act: tuple) -> bool:
    """Apply the epilogue ``act`` = (activation, alpha, beta) to the float32 array ``r``
    (the output view holding the GEMM result) in place; False, leaving ``r`` untouched,
    when the activation has no in-place form (the caller then applies ``apply_epilogue``
    and stores the result)."""
    fn = IN_PLACE.get(act[0])
    if fn is None or r.dtype != np.float32:
        return False
    fn(r)
    return True
